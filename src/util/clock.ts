/**
 * Time source. Everything that schedules or timestamps takes a Clock so tests and the simulator can
 * drive time by hand; only `systemClock` reads the wall clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

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
