import type { Logger } from "../../log/logger.js";
import { PiclawError } from "../../util/errors.js";
import type { RigProfile } from "../profile.js";
import { BARRIER, type GcodeLine } from "./program.js";
import type { GrblSession } from "./session.js";
import type { GrblTimings } from "./timings.js";

/** What the runner tells its back-end, and asks of it. */
export interface RunnerHooks {
  /** The solenoid went up or down (its M3/M5 was acknowledged, or a reset dropped it). */
  setStylus(down: boolean): void;
  /** The stylus watchdog reset the board: the parked origin is gone. */
  lostOrigin(): void;
  /** The session in use now (null when the port is gone). */
  session(): GrblSession | null;
}

/**
 * Streams one translated program at a time to GRBL and settles when its closing barrier is
 * acknowledged: polls status while it runs, keeps the stylus bookkeeping from M3/M5 acknowledgements,
 * and arms the `stylus.maxOnMs` watchdog. Split out of the back-end, which owns the connection and the
 * origin; the runner owns only what lives for the length of one program.
 */
export class ProgramRunner {
  private current: { fail(err: Error): void } | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;

  constructor(
    private readonly profile: RigProfile,
    private readonly timings: () => GrblTimings,
    private readonly log: Logger,
    private readonly hooks: RunnerHooks,
  ) {}

  /** A program is executing. */
  get active(): boolean {
    return this.current !== null;
  }

  /** End the executing program (if any) with `err`. Contract: never throws. */
  fail(err: Error): void {
    this.current?.fail(err);
  }

  /**
   * Stream `lines` on `s`; resolves once GRBL acknowledged the barrier. On `error:N` nothing more is
   * sent, but the stylus is lifted once what GRBL already has is done; an abort does the same.
   */
  run(s: GrblSession, lines: readonly GcodeLine[], signal?: AbortSignal): Promise<void> {
    const t = this.timings();
    return new Promise<void>((resolve, reject) => {
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
        s.command("M5", t.homingTimeoutMs)
          .then(() => s.command(BARRIER, t.homingTimeoutMs))
          .then(() => this.hooks.setStylus(false))
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

  /** Clear the poll and watchdog timers (the back-end stops or lost its port). */
  stopTimers(): void {
    this.stopPolling();
    this.stopWatchdog();
  }

  /** The solenoid is on (its M3 was acknowledged): arm the belt-and-braces maxOnMs watchdog. */
  private stylusOn(finish: (err?: Error) => void): void {
    this.hooks.setStylus(true);
    if (this.watchdog) return;
    const { maxOnMs } = this.profile.stylus;
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      const s = this.hooks.session();
      const t = this.timings();
      this.log.error("stylus watchdog: energised too long, resetting GRBL", { maxOnMs });
      this.hooks.lostOrigin();
      finish(
        new PiclawError("MOTION_STYLUS_TIMEOUT", `the stylus stayed energised over ${maxOnMs} ms`, {
          maxOnMs,
        }),
      );
      if (!s) return;
      // A queued M5 would wait behind the dwell holding the stylus down, so stop GRBL outright: feed
      // hold, soft reset (spindle off, buffers flushed), then an explicit M5.
      s.realtime("!");
      s.softReset(t.resetWaitMs)
        .then(() => s.command("M5", t.commandTimeoutMs))
        .catch(() => undefined)
        .finally(() => this.hooks.setStylus(false));
    }, maxOnMs);
  }

  private stylusOff(): void {
    this.hooks.setStylus(false);
    this.stopWatchdog();
  }

  private startPolling(s: GrblSession): void {
    this.stopPolling();
    this.pollTimer = setInterval(() => s.realtime("?"), this.timings().statusPollMs);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }
}
