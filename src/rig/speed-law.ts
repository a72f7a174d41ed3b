/**
 * Speed along a straight path as a function of distance and time: a trapezoid (accelerate, cruise,
 * decelerate) starting and ending at rest, or a triangle when the path is too short to reach the peak.
 * Shared by the GPIO wave planner (which needs the inverse, time at a distance, for step timing), the
 * timing model and the simulators, so predicted and simulated motion follow the same law.
 */
export interface SpeedLaw {
  lengthMm: number;
  peakSpeed: number;
  accel: number;
  durationS: number;
  /** Seconds from the start until the path position reaches `s` mm. */
  timeAt(s: number): number;
  /** Path position (mm) at `t` seconds. */
  distanceAt(t: number): number;
  /** Path speed (mm/s) at `t` seconds. */
  speedAt(t: number): number;
}

export function trapezoidLaw(lengthMm: number, maxSpeed: number, accel: number): SpeedLaw {
  const d = Math.max(0, lengthMm);
  let v = maxSpeed;
  let ta = v / accel;
  let da = 0.5 * accel * ta * ta;
  if (2 * da > d) {
    v = Math.sqrt(accel * d);
    ta = v / accel;
    da = d / 2;
  }
  const tc = v > 0 ? (d - 2 * da) / v : 0;
  const total = 2 * ta + tc;
  return {
    lengthMm: d,
    peakSpeed: v,
    accel,
    durationS: total,
    timeAt(s) {
      const x = Math.min(Math.max(s, 0), d);
      if (x <= da) return Math.sqrt((2 * x) / accel);
      if (x <= d - da) return ta + (x - da) / v;
      return total - Math.sqrt((2 * (d - x)) / accel);
    },
    distanceAt(t) {
      const x = Math.min(Math.max(t, 0), total);
      if (x < ta) return 0.5 * accel * x * x;
      if (x < ta + tc) return da + v * (x - ta);
      const r = total - x;
      return d - 0.5 * accel * r * r;
    },
    speedAt(t) {
      const x = Math.min(Math.max(t, 0), total);
      if (x < ta) return accel * x;
      if (x < ta + tc) return v;
      return accel * (total - x);
    },
  };
}

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
