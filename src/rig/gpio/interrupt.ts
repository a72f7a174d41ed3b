import { PiclawError } from "../../util/errors.js";

/**
 * The failure channel of one running program: an e-stop, hard limit, watchdog or abort calls `fail()`
 * from a callback, and whatever the program is awaiting (a dwell, a hold) rejects at once with that error.
 */
export class Interrupt {
  private error: PiclawError | null = null;
  private listeners = new Set<(err: PiclawError) => void>();

  get failure(): PiclawError | null {
    return this.error;
  }

  fail(err: PiclawError): void {
    if (this.error) return;
    this.error = err;
    for (const l of [...this.listeners]) l(err);
    this.listeners.clear();
  }

  /** Throw the failure, if any (call between steps). */
  check(): void {
    if (this.error) throw this.error;
  }

  /** Wait `ms`, rejecting early on failure. */
  sleep(ms: number): Promise<void> {
    return this.until((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      return () => clearTimeout(timer);
    });
  }

  /** Wait for `start(resolve)` to resolve, rejecting early on failure; `start` returns its cleanup. */
  until(start: (resolve: () => void) => () => void): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    return new Promise<void>((resolve, reject) => {
      let cleanup: () => void = () => {};
      const onFail = (err: PiclawError) => {
        cleanup();
        reject(err);
      };
      this.listeners.add(onFail);
      cleanup = start(() => {
        this.listeners.delete(onFail);
        cleanup();
        resolve();
      });
    });
  }
}

export function abortError(): PiclawError {
  return new PiclawError("MOTION_ABORTED", "the program was aborted");
}
