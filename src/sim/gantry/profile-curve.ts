/**
 * Distance-over-time curves for one straight move. A curve maps elapsed milliseconds to millimetres
 * travelled along the segment, monotone from 0 to `distanceMm` over `durationMs`.
 */
export interface MoveCurve {
  distanceMm: number;
  durationMs: number;
  distanceAt(elapsedMs: number): number;
}

/**
 * Trapezoidal velocity profile (accelerate, cruise, decelerate; a triangle when the move is too short to
 * reach `maxMmPerS`), starting and ending at rest — how GRBL and the GPIO wave planner move one segment.
 */
export function trapezoid(distanceMm: number, maxMmPerS: number, accelMmPerS2: number): MoveCurve {
  const d = Math.abs(distanceMm);
  if (d === 0) return { distanceMm: 0, durationMs: 0, distanceAt: () => 0 };
  let v = maxMmPerS;
  let ta = v / accelMmPerS2;
  let da = 0.5 * accelMmPerS2 * ta * ta;
  if (2 * da > d) {
    // Triangle: peak speed where acceleration and deceleration meet halfway.
    v = Math.sqrt(accelMmPerS2 * d);
    ta = v / accelMmPerS2;
    da = d / 2;
  }
  const tc = (d - 2 * da) / v;
  const total = 2 * ta + tc;
  return {
    distanceMm: d,
    durationMs: total * 1000,
    distanceAt(elapsedMs: number): number {
      const t = Math.min(Math.max(elapsedMs / 1000, 0), total);
      if (t < ta) return 0.5 * accelMmPerS2 * t * t;
      if (t < ta + tc) return da + v * (t - ta);
      const r = total - t;
      return d - 0.5 * accelMmPerS2 * r * r;
    },
  };
}

/** A curve through explicit (time, distance) samples, linear between them: what step pulses give. */
export function sampledCurve(samples: readonly { tMs: number; mm: number }[]): MoveCurve {
  const last = samples[samples.length - 1];
  if (!last) return { distanceMm: 0, durationMs: 0, distanceAt: () => 0 };
  return {
    distanceMm: last.mm,
    durationMs: last.tMs,
    distanceAt(elapsedMs: number): number {
      if (elapsedMs <= 0) return samples[0]?.mm ?? 0;
      if (elapsedMs >= last.tMs) return last.mm;
      let lo = 0;
      let hi = samples.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if ((samples[mid]?.tMs ?? 0) <= elapsedMs) lo = mid;
        else hi = mid;
      }
      const a = samples[lo];
      const b = samples[hi];
      if (!a || !b || b.tMs === a.tMs) return a?.mm ?? 0;
      return a.mm + ((b.mm - a.mm) * (elapsedMs - a.tMs)) / (b.tMs - a.tMs);
    },
  };
}
