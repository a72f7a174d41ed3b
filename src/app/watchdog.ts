import type { Logger } from "../log/logger.js";
import type { Notifier } from "./notify.js";

/**
 * The ping interval systemd asks for, per sd_watchdog_enabled(3): half of `$WATCHDOG_USEC` (the unit's
 * `WatchdogSec=`), in milliseconds; null when the watchdog is off for this process (`WATCHDOG_USEC`
 * unset or not a positive integer, or `WATCHDOG_PID` naming another process).
 */
export function watchdogPingIntervalMs(env: NodeJS.ProcessEnv, pid: number): number | null {
  const usecText = env.WATCHDOG_USEC;
  if (!usecText || !/^\d+$/.test(usecText)) return null;
  const usec = Number(usecText);
  if (!Number.isSafeInteger(usec) || usec <= 0) return null;
  if (env.WATCHDOG_PID && env.WATCHDOG_PID !== String(pid)) return null;
  return Math.max(1, Math.floor(usec / 2000));
}

/** Timer functions (injected so tests can run the cadence on virtual time). */
export interface IntervalTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const systemTimers: IntervalTimers = {
  setInterval: (fn, ms) => {
    const handle = setInterval(fn, ms);
    // The watchdog must never be what keeps the process alive.
    handle.unref();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/**
 * Sends `WATCHDOG=1` from the event loop every `intervalMs` (half of WatchdogSec). The pings are timer
 * callbacks on purpose: when the loop hangs (a synchronous busy loop, a blocking call) the pings
 * stop and systemd kills and restarts the service. A ping
 * still in flight (the notify helper waiting on systemd) is not doubled up. `intervalMs` null = off.
 */
export class Watchdog {
  private handle: unknown = null;
  private pending = false;
  /** Pings handed to the notifier since start (for the log and tests). */
  sent = 0;

  constructor(
    private readonly notifier: Notifier,
    private readonly intervalMs: number | null,
    private readonly log: Logger,
    private readonly timers: IntervalTimers = systemTimers,
  ) {}

  get active(): boolean {
    return this.handle !== null;
  }

  start(): void {
    if (this.handle !== null || this.intervalMs === null || !this.notifier.enabled) {
      if (this.intervalMs === null)
        this.log.debug("systemd watchdog off (no WATCHDOG_USEC for this process)");
      return;
    }
    this.log.info("systemd watchdog on", { pingEveryMs: this.intervalMs });
    this.ping();
    this.handle = this.timers.setInterval(() => this.ping(), this.intervalMs);
  }

  stop(): void {
    if (this.handle === null) return;
    this.timers.clearInterval(this.handle);
    this.handle = null;
  }

  private ping(): void {
    if (this.pending) {
      this.log.debug("previous watchdog ping still in flight; skipping one");
      return;
    }
    this.pending = true;
    this.sent++;
    void this.notifier.notify({ WATCHDOG: "1" }).finally(() => {
      this.pending = false;
    });
  }
}
