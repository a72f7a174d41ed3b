import { type Kinematics, kinematicsFor, type MotorSteps } from "../../rig/gpio/kinematics.js";
import type { PigpioPulse } from "../../rig/gpio/pigpio-types.js";
import type { BedPoint } from "../../rig/motion.js";
import type { RigProfile } from "../../rig/profile.js";
import type { SimGantry } from "./model.js";
import { sampledCurve } from "./profile-curve.js";

/**
 * What a stepper rig does with a transmitted wave: replay the pulses against the pin levels, count a
 * step on every rising edge of a step pin (direction from the dir pin's level, as the driver latches it),
 * and turn the motor positions into bed motion through the profile's kinematics. The motion is appended
 * to the gantry as straight segments timed exactly by the pulse delays.
 */

/** Pins and polarities of the rig the waves drive. */
export interface StepperWiring {
  stepA: number;
  dirA: number;
  stepB: number;
  dirB: number;
  invertDirA: boolean;
  invertDirB: boolean;
}

export function wiringOf(profile: RigProfile): StepperWiring {
  const gpio = profile.gpio;
  if (!gpio) throw new Error("pigpio fake: the profile has no gpio: section");
  const { stepA, dirA, stepB, dirB } = gpio.pins;
  return { stepA, dirA, stepB, dirB, invertDirA: gpio.invertDirA, invertDirB: gpio.invertDirB };
}

interface Sample {
  us: number;
  p: BedPoint;
}

export interface WaveReplay {
  /** Rising-edge times (µs from the wave's start) per pin. */
  rising: Map<number, number[]>;
  /** Sum of the pulse delays. */
  durationUs: number;
  /** Motor positions after the wave (as commanded: the steps the drivers received). */
  motors: MotorSteps;
}

/**
 * Replay `pulses` from `levels` (updated in place) and append the resulting motion to `gantry` starting at
 * `startMs`. `motors` is the drivers' step count before the wave; `enabled` says whether the drivers are
 * powered (a disabled driver ignores steps).
 */
export function executeWave(
  pulses: readonly PigpioPulse[],
  options: {
    wiring: StepperWiring;
    profile: RigProfile;
    levels: Map<number, 0 | 1>;
    motors: MotorSteps;
    enabled: boolean;
    gantry: SimGantry;
    startMs: number;
    /**
     * Carriage position minus the motors' kinematic position: segment targets are absolute motor
     * positions plus this, so chained waves never accumulate rounding error.
     */
    offset: BedPoint;
  },
): WaveReplay {
  const { wiring, levels, enabled } = options;
  const kin = kinematicsFor(options.profile);
  const rising = new Map<number, number[]>();
  const motors = { ...options.motors };
  const samples: Sample[] = [{ us: 0, p: kin.toBed(motors) }];
  let t = 0;
  for (const pulse of pulses) {
    if (pulse.gpioOff > 0) levels.set(pulse.gpioOff, 0);
    if (pulse.gpioOn > 0) {
      const was = levels.get(pulse.gpioOn) ?? 0;
      levels.set(pulse.gpioOn, 1);
      if (was === 0) {
        const list = rising.get(pulse.gpioOn) ?? [];
        list.push(t);
        rising.set(pulse.gpioOn, list);
        if (enabled && pulse.gpioOn === wiring.stepA) {
          motors.a += dirOf(levels, wiring.dirA, wiring.invertDirA);
          samples.push({ us: t, p: kin.toBed(motors) });
        } else if (enabled && pulse.gpioOn === wiring.stepB) {
          motors.b += dirOf(levels, wiring.dirB, wiring.invertDirB);
          samples.push({ us: t, p: kin.toBed(motors) });
        }
      }
    }
    t += pulse.usDelay;
  }
  if (samples.length > 1) {
    appendMotion(options.gantry, samples, options.startMs, options.offset, toleranceMm(kin));
  }
  return { rising, durationUs: t, motors };
}

function dirOf(levels: Map<number, 0 | 1>, pin: number, invert: boolean): 1 | -1 {
  return (levels.get(pin) === 1) !== invert ? 1 : -1;
}

/** A staircase of single steps deviates from its straight line by about one step: not a corner. */
function toleranceMm(kin: Kinematics): number {
  const a = kin.toBed({ a: 1, b: 0 });
  const b = kin.toBed({ a: 0, b: 1 });
  return 1.5 * Math.max(Math.hypot(a.xMm, a.yMm), Math.hypot(b.xMm, b.yMm));
}

/** Split the path into straight runs (Douglas–Peucker) and queue each on the gantry, exactly timed. */
function appendMotion(
  gantry: SimGantry,
  samples: readonly Sample[],
  startMs: number,
  offset: BedPoint,
  tolMm: number,
): void {
  const cuts = straightRuns(samples, tolMm);
  for (let i = 0; i + 1 < cuts.length; i++) {
    const i0 = cuts[i] ?? 0;
    const i1 = cuts[i + 1] ?? 0;
    const s0 = samples[i0];
    const s1 = samples[i1];
    if (!s0 || !s1) continue;
    const segStartMs = startMs + s0.us / 1000;
    const dx = s1.p.xMm - s0.p.xMm;
    const dy = s1.p.yMm - s0.p.yMm;
    const len = Math.hypot(dx, dy);
    const curvePoints: { tMs: number; mm: number }[] = [];
    let best = 0;
    for (let k = i0; k <= i1; k++) {
      const s = samples[k];
      if (!s) continue;
      const along = len > 0 ? ((s.p.xMm - s0.p.xMm) * dx + (s.p.yMm - s0.p.yMm) * dy) / len : 0;
      best = Math.max(best, Math.min(along, len));
      curvePoints.push({ tMs: (s.us - s0.us) / 1000, mm: best });
    }
    const to = { xMm: s1.p.xMm + offset.xMm, yMm: s1.p.yMm + offset.yMm };
    // The frame may cut the segment short (the motors stall against it): clip the curve to that length.
    gantry.move(
      to,
      (d) => sampledCurve(curvePoints.map((c) => ({ tMs: c.tMs, mm: Math.min(c.mm, d) }))),
      segStartMs,
    );
  }
}

/** Indices where the path bends by more than `tol` (always the first and last sample). */
function straightRuns(samples: readonly Sample[], tol: number): number[] {
  const keep = new Set<number>([0, samples.length - 1]);
  const stack: [number, number][] = [[0, samples.length - 1]];
  while (stack.length > 0) {
    const [lo, hi] = stack.pop() as [number, number];
    const a = samples[lo]?.p;
    const b = samples[hi]?.p;
    if (!a || !b || hi - lo < 2) continue;
    const dx = b.xMm - a.xMm;
    const dy = b.yMm - a.yMm;
    const len = Math.hypot(dx, dy);
    let worst = -1;
    let worstAt = -1;
    let ahead = 0;
    for (let k = lo + 1; k < hi; k++) {
      const p = samples[k]?.p;
      if (!p) continue;
      // Distance to the chord *segment*, plus any backing up along it: a reversal is a corner too.
      const along = len > 0 ? ((p.xMm - a.xMm) * dx + (p.yMm - a.yMm) * dy) / len : 0;
      const clamped = Math.min(Math.max(along, 0), len);
      const cx = len > 0 ? a.xMm + (dx * clamped) / len : a.xMm;
      const cy = len > 0 ? a.yMm + (dy * clamped) / len : a.yMm;
      const off = Math.max(Math.hypot(p.xMm - cx, p.yMm - cy), ahead - along);
      ahead = Math.max(ahead, along);
      if (off > worst) {
        worst = off;
        worstAt = k;
      }
    }
    if (worst > tol && worstAt > 0) {
      keep.add(worstAt);
      stack.push([lo, worstAt], [worstAt, hi]);
    }
  }
  return [...keep].sort((x, y) => x - y);
}
