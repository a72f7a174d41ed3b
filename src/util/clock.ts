/**
 * Time source. Everything that schedules or timestamps takes a Clock so tests and the simulator can
 * drive time by hand; only `systemClock` reads the wall clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Epoch milliseconds that never step: `wall`'s reading when this is made, advanced by the monotonic
 * clock (`performance.now()`, CLOCK_MONOTONIC) since. For durations, deadlines, the order of events and
 * the simulated world. A Pi without a real-time clock boots on fake-hwclock's saved time and NTP then
 * steps the wall clock by hours (Debian's fake-hwclock(8), systemd-timesyncd(8)); a duration or a
 * "newer than" measured across that step would be off by hours. Not for dates shown to people or
 * stored (it does not follow NTP): use the wall clock for those.
 */
export function steadyClock(wall: Clock, monotonicMs: () => number = () => performance.now()): Clock {
  const originMs = wall.now() - monotonicMs();
  return { now: () => originMs + monotonicMs() };
}

/** A clock that only moves when told to: for tests and deterministic simulation. */
export class ManualClock implements Clock {
  private ms: number;

  constructor(startMs = Date.UTC(2026, 0, 5, 9, 41, 0)) {
    this.ms = startMs;
  }

  now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`advance: ms must be a finite number ≥ 0, got ${ms}`);
    this.ms += ms;
  }

  set(ms: number): void {
    this.ms = ms;
  }
}
