import type { Logger } from "../../log/logger.js";
import { PiclawError } from "../../util/errors.js";
import type { MotionBackend, MotionStatus, MotionStep } from "../motion.js";
import type { RigProfile } from "../profile.js";
import { CRITICAL_ALARMS, grblAlarm, grblAlarmMeaning } from "./codes.js";
import { type BoardFacts, readBoard } from "./handshake.js";
import { findPortByUsbId, listSerialPorts, type OpenPort, openSerialPort, type PortListing } from "./port.js";
import { BARRIER, programToGcode } from "./program.js";
import { type GrblStatusReport, gnum, motionState, workPosition, type Xyz } from "./protocol.js";
import { disconnectedError, GrblSession } from "./session.js";
import { settingsMismatchError } from "./settings.js";

/** Timings of the GRBL back-end; defaults suit a real board, tests shorten them. */
export interface GrblTimings {
  /** How long to wait for the power-on banner after opening the port before sending a soft reset. */
  bannerWaitMs: number;
  /** How long a board may take to print its banner after a soft reset. */
  resetWaitMs: number;
  /** Status report (`?`) period while a program runs. */
  statusPollMs: number;
  /** Reply timeout for handshake queries and `status()`. */
  replyTimeoutMs: number;
  /** Reconnect backoff after the port vanished: first delay, doubling up to the maximum. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** Reply timeout of every non-streamed command (handshake, reference, M5, park). */
  commandTimeoutMs: number;
  /** How long `$H` may take. */
  homingTimeoutMs: number;
  /** Wait after ALARM:1/2 before resetting: GRBL ignores a reset that comes sooner (~500 ms). */
  criticalResetDelayMs: number;
  /** `stop()` and `halt()` return within this, whatever the board does. */
  stopBudgetMs: number;
}

/** Constructor options of `GrblBackend`. */
export interface GrblBackendOptions {
  profile: RigProfile;
  log: Logger;
  /** Device path; overrides `profile.serial.path`. Without either the port is found by USB id. */
  path?: string;
  /** Opens the port (default: `serialport`). */
  openPort?: OpenPort;
  /** Lists ports for USB id detection (default: `SerialPort.list()`). */
  listPorts?: () => Promise<PortListing[]>;
  timings?: Partial<GrblTimings>;
}

const DEFAULT_TIMINGS: GrblTimings = {
  bannerWaitMs: 2500,
  resetWaitMs: 3000,
  statusPollMs: 150,
  replyTimeoutMs: 1000,
  reconnectMinMs: 250,
  reconnectMaxMs: 5000,
  commandTimeoutMs: 2000,
  homingTimeoutMs: 60_000,
  criticalResetDelayMs: 600,
  stopBudgetMs: 1900,
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Settle `p` within `ms`, or reject with MOTION_TIMEOUT naming `what`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PiclawError("MOTION_TIMEOUT", `${what}: no answer within ${Math.round(ms)} ms`)),
      Math.max(0, ms),
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The program currently executing: how to end it early. */
interface ActiveRun {
  fail(err: Error): void;
}

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
  private alarm: { code: string; message: string; critical: boolean; atMs: number } | null = null;
  private board: BoardFacts | null = null;
  /** What the last `stop()` or `halt()` could not do (empty: everything was done). */
  notDone: readonly string[] = [];
  private report: GrblStatusReport | null = null;
  private wco: Xyz = { x: 0, y: 0, z: 0 };
  private stylusDown = false;
  private current: ActiveRun | null = null;
  private chain: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelayMs = 0;
  private stopping = false;
  private fluidnc = false;
  /** A session still handshaking: not usable for motion yet, but its events count. */
  private connecting: GrblSession | null = null;

  constructor(private readonly options: GrblBackendOptions) {}

  async start(): Promise<void> {
    this.timings = { ...DEFAULT_TIMINGS, ...this.options.timings };
    this.stopping = false;
    await this.connect();
  }

  /**
   * Lift, park when it is safe, close the port — within `stopBudgetMs` (< 2 s) in every state. Moving or
   * held: feed hold + reset instead of parking (the position is then not vouched for). In an alarm:
   * nothing is sent but the close (GRBL already cut the spindle). Returns what it could not do (also
   * logged, and kept in `notDone`); an empty list means it lifted, parked and closed.
   */
  async stop(): Promise<void> {
    const deadline = Date.now() + this.timings.stopBudgetMs;
    const left = () => deadline - Date.now();
    const notDone: string[] = [];
    this.stopping = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const wasRunning = this.current !== null;
    this.current?.fail(new PiclawError("MOTION_STOPPED", "the motion back-end is stopping"));
    const s = this.session;
    if (!s || s.isClosed) notDone.push("lift and park: the serial port is gone");
    else {
      const held = this.report?.state === "Hold" || this.report?.state === "Run";
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
          const { park } = this.options.profile;
          const parkMs = left() - 300;
          await within(
            s
              .command(`G0 X${gnum(park.xMm)} Y${gnum(park.yMm)}`, parkMs)
              .then(() => s.command(BARRIER, parkMs)),
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
   * Establish the origin. Recovers from an alarm first (after ALARM:1/2: wait out the window in which
   * GRBL ignores resets, then reset until the banner). Refuses a board whose settings differ from the
   * profile. Sends `G21 G90 G94` before any G92, so a startup block selecting inches cannot scale it.
   */
  async reference(): Promise<void> {
    const s = this.live();
    const { profile } = this.options;
    const t = this.timings;
    if (this.alarm?.critical) await this.recoverCritical(s);
    else if (this.alarm || this.report?.state === "Alarm") await s.softReset(t.resetWaitMs);
    this.alarm = null;
    if (this.board?.mismatches.length) throw settingsMismatchError(this.board.mismatches);
    if (profile.homing.endstops) {
      await s.command("$H", t.homingTimeoutMs);
      await s.command("G21 G90 G94", t.commandTimeoutMs);
      // GRBL homes into negative machine space: MPos is −$130…0, so bed = MPos + travel; G92 says so.
      const m = (await s.status(t.replyTimeoutMs)).mpos ?? { x: 0, y: 0, z: 0 };
      const bed = { x: m.x + profile.travelMm.x, y: m.y + profile.travelMm.y };
      await s.command(`G92 X${gnum(bed.x)} Y${gnum(bed.y)}`, t.commandTimeoutMs);
    } else {
      // Parked origin: the carriage is at `park`. GRBL cannot set *machine* coordinates without homing
      // (G10 L20 writes the G54 work offset into EEPROM on every boot, wearing it out), so G92 declares the
      // current position to be the park spot in work coordinates. G92 is volatile — a reset or power cycle
      // clears it — which is right: after those nobody can vouch for where the carriage is.
      await s.command("$X", t.commandTimeoutMs);
      await s.command("G21 G90 G94", t.commandTimeoutMs);
      await s.command(`G92 X${gnum(profile.park.xMm)} Y${gnum(profile.park.yMm)}`, t.commandTimeoutMs);
    }
    this.referenced = true;
    this.alarm = null;
    await this.poll(s);
    this.options.log.info("referenced", { homing: profile.homing.endstops, position: this.position() });
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
    if (s && !s.isClosed && !this.alarm?.critical) await this.poll(s).catch(() => undefined);
    return {
      state: this.state(),
      position: this.position(),
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
    this.referenced = false;
    const s = this.session;
    this.current?.fail(new PiclawError("MOTION_HALTED", `motion halted: ${reason}`, { reason }));
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

  /**
   * Feed hold then soft reset, within `budgetMs`. In a critical alarm GRBL ignores a reset that comes
   * within ~500 ms of the alarm, so wait that out first (as long as the budget allows).
   */
  private async resetNow(s: GrblSession, budgetMs: number): Promise<void> {
    const end = Date.now() + budgetMs;
    s.realtime("!");
    if (this.alarm?.critical)
      await sleep(Math.min(this.alarm.atMs + this.timings.criticalResetDelayMs, end) - Date.now());
    await s.softReset(Math.max(50, Math.min(this.timings.resetWaitMs, end - Date.now())));
    this.stylusDown = false;
  }

  /** After ALARM:1/2: wait out GRBL's deaf window, then reset until the banner comes (3 tries). */
  private async recoverCritical(s: GrblSession): Promise<void> {
    const at = this.alarm?.atMs ?? Date.now();
    await sleep(at + this.timings.criticalResetDelayMs - Date.now());
    let last: unknown;
    for (let i = 0; i < 3; i++) {
      try {
        await s.softReset(this.timings.resetWaitMs);
        return;
      } catch (err) {
        last = err;
        await sleep(this.timings.criticalResetDelayMs);
      }
    }
    throw new PiclawError(
      "MOTION_TIMEOUT",
      `the GRBL board answered none of 3 resets after ${this.alarm?.code ?? "an alarm"}: power-cycle it (${(last as Error).message})`,
    );
  }

  private async execute(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    const s = this.live();
    if (this.alarm) throw this.alarmError();
    if (this.board?.mismatches.length) throw settingsMismatchError(this.board.mismatches);
    if (!this.referenced) {
      throw new PiclawError("MOTION_NOT_REFERENCED", "the machine origin is unknown: call reference() first");
    }
    if (signal?.aborted) throw new PiclawError("MOTION_ABORTED", "the program was aborted before it started");
    const lines = programToGcode(program, this.options.profile);
    await new Promise<void>((resolve, reject) => {
      let failure: Error | null = null;
      let done = false;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        this.current = null;
        this.stopWatchdog();
        this.stopPolling();
        signal?.removeEventListener("abort", onAbort);
        if (err) reject(err);
        else resolve();
      };
      // An error mid-program: send nothing more, but lift the stylus once what GRBL already has is done.
      const abort = (err: Error) => {
        if (failure || done) return;
        failure = err;
        s.streamer.dropWaiting(new PiclawError("MOTION_DROPPED", "line dropped after an earlier failure"));
        // The barrier waits for what GRBL already has: bounded by the slowest program we could have sent.
        s.command("M5", this.timings.homingTimeoutMs)
          .then(() => s.command(BARRIER, this.timings.homingTimeoutMs))
          .then(() => {
            this.stylusDown = false;
          })
          .catch(() => undefined)
          .finally(() => finish(err));
      };
      const onAbort = () => abort(new PiclawError("MOTION_ABORTED", "the program was aborted"));
      signal?.addEventListener("abort", onAbort);
      this.current = { fail: finish };
      this.startPolling(s);
      for (const l of lines) {
        s.streamer.send(l.line).then(
          () => {
            if (l.stylus === "on") this.stylusOn(finish);
            if (l.stylus === "off") this.stylusOff();
            if (l.step === -1 && !failure) finish();
          },
          (err: unknown) => {
            if (err instanceof PiclawError && err.code === "MOTION_GRBL_ERROR") abort(err);
            else if (!(err instanceof PiclawError && err.code === "MOTION_DROPPED")) finish(err as Error);
          },
        );
      }
    });
  }

  /** The solenoid is on (its M3 was acknowledged): arm the belt-and-braces maxOnMs watchdog. */
  private stylusOn(finish: (err?: Error) => void): void {
    this.stylusDown = true;
    if (this.watchdog) return;
    const { maxOnMs } = this.options.profile.stylus;
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      const s = this.session;
      this.options.log.error("stylus watchdog: energised too long, resetting GRBL", { maxOnMs });
      this.referenced = false;
      finish(
        new PiclawError("MOTION_STYLUS_TIMEOUT", `the stylus stayed energised over ${maxOnMs} ms`, {
          maxOnMs,
        }),
      );
      if (!s) return;
      // A queued M5 would wait behind the dwell holding the stylus down, so stop GRBL outright: feed
      // hold, soft reset (spindle off, buffers flushed), then an explicit M5.
      s.realtime("!");
      s.softReset(this.timings.resetWaitMs)
        .then(() => s.command("M5", this.timings.commandTimeoutMs))
        .catch(() => undefined)
        .finally(() => {
          this.stylusDown = false;
        });
    }, maxOnMs);
  }

  private stylusOff(): void {
    this.stylusDown = false;
    this.stopWatchdog();
  }

  private live(): GrblSession {
    const s = this.session;
    if (!s || s.isClosed) throw disconnectedError("the GRBL board is not connected");
    return s;
  }

  private alarmError(): PiclawError {
    const code = Number(this.alarm?.code.replace(/^ALARM:/, ""));
    return Number.isFinite(code)
      ? grblAlarm(code)
      : new PiclawError("MOTION_ALARM", this.alarm?.message ?? "");
  }

  private state(): MotionStatus["state"] {
    if (!this.session || this.session.isClosed) return "disconnected";
    if (this.alarm) return "alarm";
    return motionState(this.report, this.current !== null);
  }

  private position(): { xMm: number; yMm: number } {
    return workPosition(this.report, this.wco);
  }

  private async poll(s: GrblSession): Promise<void> {
    await s.status(this.timings.replyTimeoutMs);
  }

  private startPolling(s: GrblSession): void {
    this.stopPolling();
    this.pollTimer = setInterval(() => s.realtime("?"), this.timings.statusPollMs);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private stopTimers(): void {
    this.stopPolling();
    this.stopWatchdog();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
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
        onBanner: (line) => this.onBanner(s, line.text, line.fluidnc),
        onStatus: (report) => {
          if (this.ours(s)) this.onStatus(report);
        },
        onClose: (err) => this.onClose(s, err),
      },
      log.child("grbl"),
    );
    s.attach();
    this.connecting = s;
    this.referenced = false;
    this.alarm = null;
    this.report = null;
    try {
      const banner = await s
        .waitFor((l) => l.kind === "banner", this.timings.bannerWaitMs, "a banner")
        .catch(() => null);
      if (!banner) await s.softReset(this.timings.resetWaitMs);
      const facts = await readBoard(s, profile, this.fluidnc, this.timings.commandTimeoutMs, log);
      this.board = facts;
      log.info("GRBL board connected", {
        path,
        fluidnc: this.fluidnc,
        build: facts.build,
        state: facts.first.state,
        ...(facts.notApplicable.length ? { checksNotApplicable: facts.notApplicable } : {}),
      });
      if (facts.mismatches.length)
        log.error("GRBL settings differ from the profile: motion refused", {
          mismatches: facts.mismatches,
        });
      this.connecting = null;
      this.session = s;
    } catch (err) {
      this.connecting = null;
      await s.close().catch(() => undefined);
      throw new PiclawError(
        "MOTION_HANDSHAKE_FAILED",
        `no GRBL handshake on ${path}: ${(err as Error).message}`,
        {
          path,
        },
      );
    }
  }

  private ours(s: GrblSession): boolean {
    return s === this.session || s === this.connecting;
  }

  private onAlarm(s: GrblSession, code: number): void {
    if (!this.ours(s)) return;
    const err = grblAlarm(code);
    this.options.log.error("GRBL alarm", { code, meaning: grblAlarmMeaning(code) });
    this.alarm = {
      code: `ALARM:${code}`,
      message: grblAlarmMeaning(code),
      critical: CRITICAL_ALARMS.has(code),
      atMs: Date.now(),
    };
    this.referenced = false;
    this.stylusDown = false;
    this.current?.fail(err);
    s.streamer.clear(err);
  }

  private onBanner(s: GrblSession, text: string, fluidnc: boolean): void {
    if (!this.ours(s)) return;
    // A reset ends a critical alarm's silence; GRBL comes back locked (an alarm lock, not critical).
    if (this.alarm?.critical) this.alarm = { ...this.alarm, critical: false };
    this.fluidnc = fluidnc;
    this.options.log.debug("GRBL banner", { text });
    // The board (re)started: its buffers, offsets and spindle are reset, its origin is not to be trusted.
    const err = new PiclawError("MOTION_RESET", "the GRBL board reset");
    this.referenced = false;
    this.stylusDown = false;
    this.current?.fail(err);
    s.streamer.clear(err);
  }

  private onStatus(report: GrblStatusReport): void {
    this.report = report;
    if (report.wco) this.wco = report.wco;
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
    this.stopPolling();
    this.stopWatchdog();
    this.current?.fail(disconnectedError());
    if (this.stopping) return;
    this.options.log.error("GRBL port vanished; reconnecting", { err: err?.message });
    this.reconnectDelayMs = this.timings.reconnectMinMs;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopping || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().then(
        () => this.options.log.info("GRBL port back; reference() needed before motion"),
        (err: unknown) => {
          this.options.log.debug("reconnect failed", { err: (err as Error).message });
          this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, this.timings.reconnectMaxMs);
          this.scheduleReconnect();
        },
      );
    }, this.reconnectDelayMs);
  }
}
