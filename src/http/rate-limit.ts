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

  /** Take one request's worth; returns null when allowed, else the seconds until one is available. */
  take(key: string): number | null {
    if (this.perMinute <= 0) return null;
    const now = this.clock.now();
    const ratePerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * ratePerMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.prune(now, ratePerMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
  }

  /** Forget buckets that have refilled completely (they behave like new ones). */
  private prune(now: number, ratePerMs: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * ratePerMs >= this.perMinute) this.buckets.delete(key);
    }
  }
}
