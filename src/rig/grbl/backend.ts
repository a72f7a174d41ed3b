import { PiclawError } from "../../util/errors.js";
import type { MotionBackend, MotionStatus, MotionStep } from "../motion.js";
import type { GrblBackendOptions } from "./backend-options.js";
import { grblAlarm } from "./codes.js";
import { type BoardFacts, greetBoard, writeSettings } from "./handshake.js";
import { OriginWatch } from "./origin-watch.js";
import { findPortByUsbId, listSerialPorts, openSerialPort } from "./port.js";
import { PositionKeeper } from "./position-record.js";
import { programToGcode } from "./program.js";
import { type GrblStatusReport, motionState, workPosition, type Xyz } from "./protocol.js";
import { Reconnector } from "./reconnect.js";
import { type AlarmState, alarmError, alarmState, recoverCritical, resetNow } from "./recovery.js";
import { establishOrigin, parkCarriage } from "./referencing.js";
import { ProgramRunner } from "./runner.js";
import { disconnectedError, GrblSession } from "./session.js";
import { settingsMismatchError } from "./settings.js";
import { DEFAULT_TIMINGS, type GrblTimings, within } from "./timings.js";

export type { GrblBackendOptions } from "./backend-options.js";

/**
 * Motion over a GRBL 1.1 / FluidNC board on USB serial. Programs become G-code streamed with character
 * counting; the final `G4 P0` is the "motion finished" barrier. Alarms, resets, halts and lost ports
 * all end in "not referenced": every one of them can lose the parked origin (G92 lives in GRBL's parser
 * state, which a reset clears), so the controller must call `reference()` before moving again.
 */
export class GrblBackend implements MotionBackend {
  readonly name = "grbl";
  private timings: GrblTimings = DEFAULT_TIMINGS;
  private session: GrblSession | null = null;
  private referenced = false;
  private alarm: AlarmState | null = null;
  private board: BoardFacts | null = null;
  /** What the last `stop()` or `halt()` could not do (empty: everything was done). */
  notDone: readonly string[] = [];
  private report: GrblStatusReport | null = null;
  private wco: Xyz = { x: 0, y: 0, z: 0 };
  private stylusDown = false;
  private chain: Promise<void> = Promise.resolve();
  private stopping = false;
  private fluidnc = false;
  /** A session still handshaking: not usable for motion yet, but its events count. */
  private connecting: GrblSession | null = null;
  private readonly runner: ProgramRunner;
  private readonly keeper: PositionKeeper | null;
  private readonly reconnector = new Reconnector(
    () => this.connect(),
    () => ({ minMs: this.timings.reconnectMinMs, maxMs: this.timings.reconnectMaxMs }),
    () => this.stopping,
    (err) =>
      err
        ? this.options.log.debug("reconnect failed", { err: err.message })
        : this.options.log.info("GRBL port back; reference() needed before motion"),
  );
  /** The origin policy passed on this connection (or the operator confirmed the carriage at park). */
  private originTrusted = false;
  /** Whether an e-stop or alarm since then lost that origin, and whether a kept MPos restores it. */
  private readonly watch = new OriginWatch();

  constructor(private readonly options: GrblBackendOptions) {
    this.runner = new ProgramRunner(options.profile, () => this.timings, options.log, {
      setStylus: (down) => {
        this.stylusDown = down;
      },
      lostOrigin: () => {
        this.referenced = false;
      },
      session: () => this.session,
    });
    this.keeper = options.positions ? new PositionKeeper(options.positions, options.profile) : null;
  }

  async start(): Promise<void> {
    this.timings = { ...DEFAULT_TIMINGS, ...this.options.timings };
    this.stopping = false;
    await this.connect();
  }

  /**
   * Lift, park when it is safe, close the port — within `stopBudgetMs` (< 2 s) in every state. Moving or
   * held: feed hold + reset instead of parking. In an alarm: only the close (GRBL cut the spindle). What
   * it could not do is logged and kept in `notDone` (empty: it lifted, parked and closed).
   */
  async stop(): Promise<void> {
    const deadline = Date.now() + this.timings.stopBudgetMs;
    const left = () => deadline - Date.now();
    const notDone: string[] = [];
    this.stopping = true;
    this.reconnector.cancel();
    const wasRunning = this.runner.active;
    this.runner.fail(new PiclawError("MOTION_STOPPED", "the motion back-end is stopping"));
    const s = this.session;
    if (!s || s.isClosed) notDone.push("lift and park: the serial port is gone");
    else {
      let state = this.report?.state;
      // The last report may predate the program's end: the one at rest it asked for comes a poll later,
      // later still on a loaded machine (stop() right after a tap then reset instead of parking, and
      // the next start wanted the operator). Ask the board before judging it busy.
      if (!wasRunning && !this.alarm && (state === "Hold" || state === "Run"))
        state =
          (await s.status(Math.min(this.timings.replyTimeoutMs, left() - 800)).catch(() => undefined))
            ?.state ?? state;
      const held = state === "Hold" || state === "Run";
      if (this.alarm) {
        notDone.push(`park: the board is in ${this.alarm.code} (GRBL switched the solenoid off itself)`);
      } else if (wasRunning || held) {
        notDone.push("park: motion was under way or held, so it was stopped with a reset instead");
        await this.resetNow(s, left() - 300).catch((err: Error) => notDone.push(`reset: ${err.message}`));
      } else {
        await this.lift(s, Math.min(this.timings.commandTimeoutMs, left() - 300)).catch((err: Error) =>
          notDone.push(`lift (M5): ${err.message}`),
        );
        if (this.referenced && !notDone.length) {
          const parkMs = left() - 300;
          await within(
            parkCarriage(s, this.options.profile, parkMs, this.keeper, this.report?.mpos),
            parkMs,
            "park",
          ).catch(async (err: Error) => {
            notDone.push(`park: ${err.message}`);
            await this.resetNow(s, left() - 200).catch(() => undefined);
          });
        } else if (!this.referenced) notDone.push("park: the origin is not referenced");
      }
      await within(s.close(), Math.max(50, left()), "close").catch((err: Error) =>
        notDone.push(`close the port: ${err.message}`),
      );
    }
    this.session = null;
    this.referenced = false;
    await within(this.connecting?.close() ?? Promise.resolve(), 100, "close").catch(() => undefined);
    this.stopTimers();
    if (notDone.length) this.options.log.warn("GRBL stop: could not do everything", { notDone });
    this.notDone = notDone;
  }

  /**
   * Establish the origin, after recovering from an alarm (recovery.ts). Refuses a board whose settings
   * differ from the profile. `G21 G90 G94` go before any G92 (a `$N0=G20` cannot scale it). A parked-origin
   * rig after an e-stop, alarm or board reset restores its origin from a kept MPos or throws
   * MOTION_ORIGIN_UNCONFIRMED until `confirmParked()` (origin-watch.ts); on start, the position record.
   */
  async reference(): Promise<void> {
    const s = this.live();
    const { profile } = this.options;
    const t = this.timings;
    const alarmSeen = this.alarm?.code ?? null;
    if (this.alarm?.critical) await recoverCritical(s, this.alarm, this.timings);
    else if (this.alarm || this.report?.state === "Alarm") await s.softReset(t.resetWaitMs);
    this.alarm = null;
    if (this.board?.mismatches.length) throw settingsMismatchError(this.board.mismatches);
    const parked = !profile.homing.endstops;
    if (this.board && parked && !this.originTrusted) this.keeper?.vouch(this.board, alarmSeen);
    const at = parked ? await this.watch.check(s, profile, t.replyTimeoutMs) : undefined;
    const bed = await establishOrigin(s, profile, t, at);
    this.originTrusted = true;
    this.referenced = true;
    this.watch.referenced(bed, (await s.status(t.replyTimeoutMs)).mpos);
    this.options.log.info("referenced", {
      homing: profile.homing.endstops,
      position: workPosition(this.report, this.wco),
    });
  }

  /**
   * The operator confirmed that the carriage is at park (`piclaw rig reference --parked`, the dashboard):
   * reference there whatever the position record or an unasked reset says; record it as cleanly parked.
   */
  async confirmParked(): Promise<void> {
    this.originTrusted = true;
    this.watch.confirmed();
    await this.reference();
    this.keeper?.parked(this.report?.mpos);
  }

  /** Write `$N=V` lines to a GRBL board, then read it again (`piclaw rig settings --apply`). */
  async writeSettings(lines: readonly string[]): Promise<BoardFacts> {
    const { profile, log } = this.options;
    const facts = await writeSettings(this.live(), lines, profile, this.timings.commandTimeoutMs, log);
    this.board = { ...facts, bannerOnOpen: this.board?.bannerOnOpen ?? false };
    return this.board;
  }

  /** What the board said on connect: build, settings, mismatches with the profile (null before). */
  boardFacts(): BoardFacts | null {
    return this.board;
  }

  run(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    const next = this.chain.then(() => this.execute(program, signal));
    this.chain = next.catch(() => undefined);
    return next;
  }

  async status(): Promise<MotionStatus> {
    const s = this.session;
    // A board in a critical alarm answers no `?` until reset: report what we know without waiting.
    if (s && !s.isClosed && !this.alarm?.critical)
      await s.status(this.timings.replyTimeoutMs).catch(() => undefined);
    return {
      state: this.state(),
      position: workPosition(this.report, this.wco),
      stylusDown: this.stylusDown,
      referenced: this.referenced,
      ...(this.alarm ? { alarm: { ...this.alarm } } : {}),
    };
  }

  async feedHold(): Promise<void> {
    this.live().realtime("!");
  }

  async resume(): Promise<void> {
    this.live().realtime("~");
  }

  /**
   * E-stop: feed hold, soft reset (GRBL drops the spindle and flushes everything), M5 — within
   * `stopBudgetMs` in every state. What it could not do is logged and kept in `notDone`.
   */
  async halt(reason: string): Promise<void> {
    const deadline = Date.now() + this.timings.stopBudgetMs;
    this.options.log.warn("halt", { reason });
    if (this.originTrusted) this.watch.lost(`an e-stop (${reason}) reset the board`);
    this.referenced = false;
    const s = this.session;
    this.runner.fail(new PiclawError("MOTION_HALTED", `motion halted: ${reason}`, { reason }));
    const notDone: string[] = [];
    if (!s || s.isClosed) notDone.push("feed hold and reset: the serial port is gone");
    else {
      await this.resetNow(s, deadline - Date.now() - 250).catch((err: Error) =>
        notDone.push(`reset: ${err.message} (the next reference() resets it again)`),
      );
      // error:9 in the alarm lock: the reset already lifted it.
      await this.lift(s, Math.min(250, deadline - Date.now())).catch(() => undefined);
    }
    this.stylusDown = false;
    if (notDone.length) this.options.log.warn("halt: could not do everything", { notDone });
    this.notDone = notDone;
  }

  async disableDrivers(): Promise<void> {
    const s = this.live();
    // FluidNC has `$MD` (motors disable). GRBL 1.1 has no command: its $1 idle delay (< 255) powers the
    // drivers down after every move by itself.
    if (this.fluidnc) await s.command("$MD", this.timings.commandTimeoutMs).catch(() => undefined);
  }

  /** M5 with a bound; the stylus is up once GRBL acknowledged it. */
  private async lift(s: GrblSession, timeoutMs: number): Promise<void> {
    await s.command("M5", Math.max(50, timeoutMs));
    this.stylusDown = false;
  }

  /** Feed hold and soft reset within `budgetMs` (see recovery.ts); the stylus is then up. */
  private async resetNow(s: GrblSession, budgetMs: number): Promise<void> {
    await resetNow(s, this.alarm, this.timings, budgetMs);
    this.stylusDown = false;
  }

  private async execute(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    const s = this.live();
    if (this.alarm) throw alarmError(this.alarm);
    if (this.board?.mismatches.length) throw settingsMismatchError(this.board.mismatches);
    if (!this.referenced) {
      throw new PiclawError("MOTION_NOT_REFERENCED", "the machine origin is unknown: call reference() first");
    }
    if (signal?.aborted) throw new PiclawError("MOTION_ABORTED", "the program was aborted before it started");
    const lines = programToGcode(program, this.options.profile);
    this.keeper?.beforeMotion(this.report?.mpos);
    await this.runner.run(s, lines, signal);
    // The report at rest recorded before resolving: an e-stop right after needs it (origin-watch.ts).
    await s.status(this.timings.replyTimeoutMs).catch(() => undefined);
  }

  private live(): GrblSession {
    const s = this.session;
    if (!s || s.isClosed) throw disconnectedError("the GRBL board is not connected");
    return s;
  }

  private state(): MotionStatus["state"] {
    if (!this.session || this.session.isClosed) return "disconnected";
    if (this.alarm) return "alarm";
    return motionState(this.report, this.runner.active);
  }

  private stopTimers(): void {
    this.runner.stopTimers();
    this.reconnector.cancel();
  }

  private async connect(): Promise<void> {
    const { profile, log } = this.options;
    const path =
      this.options.path ??
      profile.serial?.path ??
      (await findPortByUsbId(profile.serial?.usbIds ?? [], this.options.listPorts ?? listSerialPorts));
    const link = await (this.options.openPort ?? openSerialPort)(path, profile.serial?.baudRate ?? 115_200);
    const s: GrblSession = new GrblSession(
      link,
      {
        onAlarm: (code) => this.onAlarm(s, code),
        onBanner: (line, solicited) => this.onBanner(s, line.text, line.fluidnc, solicited),
        onStatus: (report) => this.ours(s) && this.onStatus(report),
        onClose: (err) => this.onClose(s, err),
      },
      log.child("grbl"),
    );
    s.attach();
    this.connecting = s;
    this.originTrusted = false;
    this.keeper?.connected();
    this.referenced = false;
    this.alarm = null;
    this.report = null;
    try {
      this.board = await greetBoard(s, profile, () => this.fluidnc, this.timings, log, path);
      this.connecting = null;
      this.session = s;
    } catch (err) {
      this.connecting = null;
      await s.close().catch(() => undefined);
      throw new PiclawError(
        "MOTION_HANDSHAKE_FAILED",
        `no GRBL handshake on ${path}: ${(err as Error).message}`,
        { path },
      );
    }
  }

  private ours(s: GrblSession): boolean {
    return s === this.session || s === this.connecting;
  }

  private onAlarm(s: GrblSession, code: number): void {
    if (!this.ours(s)) return;
    this.alarm = alarmState(code);
    if (this.originTrusted) this.watch.lost(`${this.alarm.code} (${this.alarm.message})`);
    this.options.log.error("GRBL alarm", { code, meaning: this.alarm.message });
    this.forget(s, grblAlarm(code));
  }

  private onBanner(s: GrblSession, text: string, fluidnc: boolean, solicited: boolean): void {
    if (!this.ours(s)) return;
    // A banner unasked on a connected board: it reset by itself (OriginWatch.boardReset says why it matters).
    if (!solicited && s === this.session) {
      this.watch.boardReset();
      this.options.log.warn("GRBL board reset on its own: origin lost until confirmed", { banner: text });
    }
    // A reset ends a critical alarm's silence; GRBL comes back locked (an alarm lock, not critical).
    if (this.alarm?.critical) this.alarm = { ...this.alarm, critical: false };
    this.fluidnc = fluidnc;
    this.options.log.debug("GRBL banner", { text });
    // The board (re)started: its buffers, offsets and spindle are reset, its origin is not to be trusted.
    this.forget(s, new PiclawError("MOTION_RESET", "the GRBL board reset"));
  }

  /** The board dropped everything (alarm, reset): no origin, stylus up, the program and queue fail. */
  private forget(s: GrblSession, err: PiclawError): void {
    this.referenced = false;
    this.stylusDown = false;
    this.runner.fail(err);
    s.streamer.clear(err);
  }

  private onStatus(report: GrblStatusReport): void {
    this.report = report;
    if (report.wco) this.wco = report.wco;
    if (this.referenced && !this.runner.active && report.state === "Idle") this.watch.seenAtRest(report.mpos);
    // The stylus state is our own M3/M5 bookkeeping: GRBL prints `A:` only in the reports that carry
    // `Ov:` (every 10th–20th, report.c), so its absence says nothing. Its presence is a confirmation.
    if (report.accessories !== undefined && /[SC]/.test(report.accessories) !== this.stylusDown) {
      this.options.log.debug("GRBL's A: field disagrees with our stylus bookkeeping", {
        accessories: report.accessories,
        stylusDown: this.stylusDown,
      });
    }
  }

  private onClose(s: GrblSession, err?: Error): void {
    // A session lost during its handshake is connect()'s to report (it rejects; the caller retries).
    if (s !== this.session) return;
    this.session = null;
    this.referenced = false;
    this.runner.stopTimers();
    this.runner.fail(disconnectedError());
    if (this.stopping) return;
    this.options.log.error("GRBL port vanished; reconnecting", { err: err?.message });
    this.reconnector.start();
  }
}
