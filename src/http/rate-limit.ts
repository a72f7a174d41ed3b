import type { Clock } from "../util/clock.js";

/**
 * Token-bucket rate limit per key (a token id, or a client address without one): `perMinute`
 * requests, refilled continuously, bursts up to `perMinute`. 0 disables the limit.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /**
   * Take `count` requests' worth, all or nothing (a refused batch spends nothing); returns null when
   * allowed, else the seconds until that many are available (60 when `count` exceeds the whole
   * budget: such a batch never passes, and a minute refills everything that can be had).
   */
  take(key: string, count = 1): number | null {
    if (this.perMinute <= 0) return null;
    const now = this.clock.now();
    const ratePerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * ratePerMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.prune(now, ratePerMs);
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return null;
    }
    if (count > this.perMinute) return 60;
    return Math.max(1, Math.ceil((count - bucket.tokens) / ratePerMs / 1000));
  }

  /** Forget buckets that have refilled completely (they behave like new ones). */
  private prune(now: number, ratePerMs: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * ratePerMs >= this.perMinute) this.buckets.delete(key);
    }
  }
}
