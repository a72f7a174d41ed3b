/**
 * Timer waits. Every wait in the daemon that a stop must be able to cut short takes a signal; the
 * promise then resolves early (it never rejects), and the caller decides whether an abort is an error.
 */

/** Wait `ms` (negative counts as 0). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Wait `ms`, or until `signal` fires, whichever is first. Resolves at once if it already fired. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
