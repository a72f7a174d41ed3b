import { PiclawError } from "../../util/errors.js";

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

export const DEFAULT_TIMINGS: GrblTimings = {
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

/** Settle `p` within `ms`, or reject with MOTION_TIMEOUT naming `what`. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PiclawError("MOTION_TIMEOUT", `${what}: no answer within ${Math.round(ms)} ms`)),
      Math.max(0, ms),
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
