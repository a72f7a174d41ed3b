import type { Logger } from "../../log/logger.js";
import { PiclawError } from "../../util/errors.js";
import type { MotionBackend, MotionStatus, MotionStep } from "../motion.js";
import type { RigProfile } from "../profile.js";
import { grblAlarm, grblAlarmMeaning } from "./codes.js";
import { findPortByUsbId, listSerialPorts, type OpenPort, openSerialPort, type PortListing } from "./port.js";
import { BARRIER, programToGcode } from "./program.js";
import { type GrblStatusReport, gnum, motionState, workPosition, type Xyz } from "./protocol.js";
import { disconnectedError, GrblSession } from "./session.js";

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
};

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
  private alarm: { code: string; message: string } | null = null;
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

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.current?.fail(new PiclawError("MOTION_STOPPED", "the motion back-end is stopping"));
    const s = this.session;
    if (s && !s.isClosed) {
      try {
        await s.command("M5");
        this.stylusDown = false;
        if (this.referenced && !this.alarm) {
          const { park } = this.options.profile;
          await s.command(`G0 X${gnum(park.xMm)} Y${gnum(park.yMm)}`);
          await s.command(BARRIER);
        }
      } catch (err) {
        this.options.log.warn("could not lift and park on stop", { err });
      }
      await s.close();
    }
    this.session = null;
    await this.connecting?.close().catch(() => undefined);
    this.stopTimers();
  }

  async reference(): Promise<void> {
    const s = this.live();
    const { profile } = this.options;
    // After an alarm (or a boot lock) GRBL takes nothing but a reset; a reset while idle is harmless.
    if (this.alarm || this.report?.state === "Alarm") await s.softReset(this.timings.resetWaitMs);
    this.alarm = null;
    if (profile.homing.endstops) {
      await s.command("$H");
      // Machine coordinates are now the bed's; drop any G92 offset left from a parked origin.
      await s.command("G92.1");
    } else {
      // Parked origin: the carriage is at `park`. GRBL cannot set *machine* coordinates without homing
      // (G10 L20 writes the G54 work offset into EEPROM on every boot, wearing it out), so G92 declares the
      // current position to be the park spot in work coordinates. G92 is volatile — a reset or power cycle
      // clears it — which is right: after those nobody can vouch for where the carriage is.
      await s.command("$X");
      await s.command(`G92 X${gnum(profile.park.xMm)} Y${gnum(profile.park.yMm)}`);
    }
    await s.command("G21 G90");
    this.referenced = true;
    this.alarm = null;
    await this.poll(s);
    this.options.log.info("referenced", { homing: profile.homing.endstops, position: this.position() });
  }

  run(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    const next = this.chain.then(() => this.execute(program, signal));
    this.chain = next.catch(() => undefined);
    return next;
  }

  async status(): Promise<MotionStatus> {
    const s = this.session;
    if (s && !s.isClosed) await this.poll(s).catch(() => undefined);
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

  async halt(reason: string): Promise<void> {
    this.options.log.warn("halt", { reason });
    this.referenced = false;
    const s = this.session;
    this.current?.fail(new PiclawError("MOTION_HALTED", `motion halted: ${reason}`, { reason }));
    if (!s || s.isClosed) return;
    // Feed hold first so GRBL starts decelerating at once; the reset then discards everything queued
    // and switches the spindle (the solenoid) off.
    s.realtime("!");
    await s.softReset(this.timings.resetWaitMs).catch(() => undefined);
    await s.command("M5").catch(() => undefined); // error:9 in the alarm lock: the reset already lifted it
    this.stylusDown = false;
  }

  async disableDrivers(): Promise<void> {
    const s = this.live();
    // FluidNC has `$MD` (motors disable). GRBL 1.1 has no command: its $1 idle delay (< 255) powers the
    // drivers down after every move by itself.
    if (this.fluidnc) await s.command("$MD").catch(() => undefined);
  }

  private async execute(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    const s = this.live();
    if (this.alarm) throw this.alarmError();
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
        s.command("M5")
          .then(() => s.command(BARRIER))
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
        .then(() => s.command("M5"))
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
      const info = await s.command("$I");
      const first = await s.status(this.timings.replyTimeoutMs);
      const build = info.flatMap((l) =>
        l.kind === "ver" || l.kind === "opt" ? [`${l.kind}:${l.text}`] : [],
      );
      log.info("GRBL board connected", { path, fluidnc: this.fluidnc, build, state: first.state });
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
    this.alarm = { code: `ALARM:${code}`, message: grblAlarmMeaning(code) };
    this.referenced = false;
    this.stylusDown = false;
    this.current?.fail(err);
    s.streamer.clear(err);
  }

  private onBanner(s: GrblSession, text: string, fluidnc: boolean): void {
    if (!this.ours(s)) return;
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
    // GRBL prints `A:` only while an accessory is on: no field means the spindle (solenoid) is off.
    this.stylusDown = /[SC]/.test(report.accessories ?? "");
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
