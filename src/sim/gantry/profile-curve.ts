import type { MoveCurve } from "../../rig/speed-law.js";

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
