import { trapezoidLaw } from "../../rig/speed-law.js";

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
  const law = trapezoidLaw(Math.abs(distanceMm), maxMmPerS, accelMmPerS2);
  return {
    distanceMm: law.lengthMm,
    durationMs: law.durationS * 1000,
    distanceAt: (elapsedMs) => law.distanceAt(elapsedMs / 1000),
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
