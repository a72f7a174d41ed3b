/**
 * Retries `attempt` after a lost port with exponential back-off (`minMs` doubling up to `maxMs`) until
 * it succeeds or `cancel()` is called. Contract: at most one timer is pending; `start()` while one is
 * pending, or while `stopping()` says so, does nothing.
 */
export class Reconnector {
  private timer: NodeJS.Timeout | null = null;
  private delayMs = 0;

  constructor(
    private readonly attempt: () => Promise<void>,
    private readonly bounds: () => { minMs: number; maxMs: number },
    private readonly stopping: () => boolean,
    private readonly onResult: (err: Error | null) => void,
  ) {}

  /** Begin retrying from the shortest delay. */
  start(): void {
    this.delayMs = this.bounds().minMs;
    this.schedule();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopping() || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.attempt().then(
        () => this.onResult(null),
        (err: unknown) => {
          this.onResult(err as Error);
          this.delayMs = Math.min(this.delayMs * 2, this.bounds().maxMs);
          this.schedule();
        },
      );
    }, this.delayMs);
  }
}
