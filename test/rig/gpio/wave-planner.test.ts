import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { kinematicsFor, type MotorSteps } from "../../../src/rig/gpio/kinematics.js";
import type { PigpioPulse } from "../../../src/rig/gpio/pigpio-types.js";
import {
  chunkPulses,
  DIR_SETUP_US,
  type MovePlan,
  planHoldTail,
  planMove,
  stepsDoneAt,
} from "../../../src/rig/gpio/wave-planner.js";
import type { BedPoint } from "../../../src/rig/motion.js";
import { loadRigProfile, type RigProfile } from "../../../src/rig/profile.js";
import { projectRoot } from "../../../src/util/paths.js";

const cartesian = loadRigProfile(resolve(projectRoot(), "calibration/profiles/cartesian-gpio.yaml"));
const corexy: RigProfile = { ...cartesian, kinematics: "corexy" };
const pins = cartesian.gpio?.pins ?? { stepA: 0, dirA: 0, stepB: 0, dirB: 0 };

/** Replays pulses like the pins would: rising-edge times per step pin and the dir level at each edge. */
function decode(
  pulses: readonly PigpioPulse[],
  start: MotorSteps,
  dirLevels: [number, number] = [0, 0],
): { a: number; b: number; steps: Map<number, number[]> } {
  const levels = new Map<number, number>([
    [pins.dirA, dirLevels[0]],
    [pins.dirB, dirLevels[1]],
  ]);
  const steps = new Map<number, number[]>();
  const pos = { ...start };
  let t = 0;
  for (const p of pulses) {
    if (!Number.isInteger(p.usDelay) || p.usDelay < 0) throw new Error(`bad delay ${p.usDelay}`);
    if (p.gpioOff) levels.set(p.gpioOff, 0);
    if (p.gpioOn) {
      if (!levels.get(p.gpioOn)) {
        const list = steps.get(p.gpioOn) ?? [];
        list.push(t);
        steps.set(p.gpioOn, list);
        if (p.gpioOn === pins.stepA) pos.a += levels.get(pins.dirA) ? 1 : -1;
        if (p.gpioOn === pins.stepB) pos.b += levels.get(pins.dirB) ? 1 : -1;
      }
      levels.set(p.gpioOn, 1);
    }
    t += p.usDelay;
  }
  return { ...pos, steps };
}

function plan(profile: RigProfile, from: BedPoint, to: BedPoint, feed?: number): MovePlan {
  const kin = kinematicsFor(profile);
  return planMove(profile, kin.toSteps(from), kin.toSteps(to), feed);
}

/** The path speed limit the profile allows in this direction (independent of the planner's code). */
function pathLimits(profile: RigProfile, p: MovePlan, feed?: number): { speed: number; accel: number } {
  const kin = kinematicsFor(profile);
  const a = kin.toBed(p.from);
  const b = kin.toBed(p.to);
  const len = Math.hypot(b.xMm - a.xMm, b.yMm - a.yMm);
  const ux = Math.abs(b.xMm - a.xMm) / len;
  const uy = Math.abs(b.yMm - a.yMm) / len;
  const speed = Math.min(
    feed ? feed / 60 : Number.POSITIVE_INFINITY,
    ux > 0 ? profile.maxRateMmPerMin.x / 60 / ux : Number.POSITIVE_INFINITY,
    uy > 0 ? profile.maxRateMmPerMin.y / 60 / uy : Number.POSITIVE_INFINITY,
  );
  const accel = Math.min(
    ux > 0 ? profile.accelMmPerS2.x / ux : Number.POSITIVE_INFINITY,
    uy > 0 ? profile.accelMmPerS2.y / uy : Number.POSITIVE_INFINITY,
  );
  return { speed, accel };
}

const targets: [BedPoint, BedPoint][] = [
  [
    { xMm: 0, yMm: 0 },
    { xMm: 100, yMm: 0 },
  ],
  [
    { xMm: 100, yMm: 50 },
    { xMm: 12.3456, yMm: 50 },
  ],
  [
    { xMm: 10, yMm: 10 },
    { xMm: 10.0125, yMm: 160.77 },
  ],
  [
    { xMm: 150, yMm: 150 },
    { xMm: 20.01, yMm: 33.333 },
  ],
  [
    { xMm: 0, yMm: 0 },
    { xMm: 60, yMm: 60 },
  ],
  [
    { xMm: 60, yMm: 10 },
    { xMm: 10, yMm: 60 },
  ],
];

describe("wave planner: step counts", () => {
  it("Cartesian: every target lands on the rounded absolute step position, both directions", () => {
    for (const [from, to] of targets) {
      const p = plan(cartesian, from, to);
      const got = decode(p.pulses, p.from);
      expect({ a: got.a, b: got.b }).toEqual({ a: Math.round(to.xMm * 80), b: Math.round(to.yMm * 80) });
    }
  });

  it("CoreXY: A = X + Y and B = X − Y; a pure diagonal moves only one motor", () => {
    for (const [from, to] of targets) {
      const p = plan(corexy, from, to);
      const got = decode(p.pulses, p.from);
      expect({ a: got.a, b: got.b }).toEqual({
        a: Math.round((to.xMm + to.yMm) * 80),
        b: Math.round((to.xMm - to.yMm) * 80),
      });
    }
    const diagonal = plan(corexy, { xMm: 0, yMm: 0 }, { xMm: 60, yMm: 60 });
    expect(diagonal.stepUsA).toHaveLength(9600);
    expect(diagonal.stepUsB).toHaveLength(0);
    const anti = plan(corexy, { xMm: 60, yMm: 10 }, { xMm: 10, yMm: 60 });
    expect(anti.stepUsA).toHaveLength(0);
    expect(anti.dirB).toBe(-1);
    expect(anti.stepUsB).toHaveLength(8000);
  });

  it("rounds absolute targets, so many small moves never accumulate error", () => {
    const kin = kinematicsFor(cartesian);
    let at = kin.toSteps({ xMm: 0, yMm: 0 });
    for (let i = 1; i <= 100; i++) {
      const p = planMove(cartesian, at, kin.toSteps({ xMm: i * 0.0123, yMm: i * 0.0071 }));
      const got = decode(p.pulses, at);
      at = { a: got.a, b: got.b };
    }
    expect(at).toEqual({ a: Math.round(1.23 * 80), b: Math.round(0.71 * 80) });
  });

  it("sets both dir pins and lowers both step pins before the first step, and keeps steps high for stepPulseUs", () => {
    const p = plan(cartesian, { xMm: 50, yMm: 50 }, { xMm: 10, yMm: 90 });
    // The pulses at t = 0: X goes negative (dir A low), Y positive (dir B high), and both step pins go
    // low (a move cut off mid-pulse may have left one high); one GPIO per field.
    const first = p.pulses.findIndex((q) => q.usDelay > 0);
    const setup = p.pulses.slice(0, first + 1);
    expect(setup[0]).toMatchObject({ gpioOn: pins.dirB, gpioOff: pins.dirA });
    expect(setup.map((q) => q.gpioOff).sort()).toEqual([pins.dirA, pins.stepA, pins.stepB].sort());
    expect(setup.filter((q) => q.gpioOn !== 0).map((q) => q.gpioOn)).toEqual([pins.dirB]);
    expect(setup.at(-1)?.usDelay).toBeGreaterThanOrEqual(DIR_SETUP_US);
    expect(Math.min(...p.stepUsA, ...p.stepUsB)).toBeGreaterThanOrEqual(DIR_SETUP_US);
    for (const pulse of p.pulses) expect(pulse.gpioOn === 0 || pulse.gpioOn !== pulse.gpioOff).toBe(true);
  });
});

describe("wave planner: speed and acceleration", () => {
  const cases: [RigProfile, BedPoint, BedPoint, number?][] = [
    [cartesian, { xMm: 0, yMm: 0 }, { xMm: 200, yMm: 0 }],
    [cartesian, { xMm: 0, yMm: 0 }, { xMm: 180, yMm: 70 }],
    [cartesian, { xMm: 30, yMm: 30 }, { xMm: 60, yMm: 90 }, 3000],
    [corexy, { xMm: 0, yMm: 0 }, { xMm: 150, yMm: 150 }],
    [corexy, { xMm: 0, yMm: 0 }, { xMm: 180, yMm: 20 }],
    [corexy, { xMm: 100, yMm: 10 }, { xMm: 10, yMm: 12 }, 6000],
    [
      { ...corexy, maxStepRateHz: 8000 },
      { xMm: 0, yMm: 0 },
      { xMm: 150, yMm: 40 },
    ],
  ];

  it("no motor's step rate exceeds maxStepRateHz and the path never exceeds the profile's rate", () => {
    for (const [profile, from, to, feed] of cases) {
      const p = plan(profile, from, to, feed);
      const limit = pathLimits(profile, p, feed);
      let fastest = 0;
      let fastestStepHz = 0;
      for (const times of [p.stepUsA, p.stepUsB]) {
        const mmPerStep = p.lengthMm / times.length;
        for (let i = 1; i < times.length; i++) {
          const dt = (times[i] ?? 0) - (times[i - 1] ?? 0);
          fastestStepHz = Math.max(fastestStepHz, 1e6 / dt);
          fastest = Math.max(fastest, (mmPerStep / dt) * 1e6);
        }
      }
      expect(fastestStepHz).toBeLessThanOrEqual(profile.maxStepRateHz);
      expect(fastest).toBeLessThanOrEqual(limit.speed + 1e-9);
      // …and it does get close to the limit (the planner is not just slow).
      const stepLimit = (profile.maxStepRateHz * p.lengthMm) / Math.max(p.stepUsA.length, p.stepUsB.length);
      expect(fastest).toBeGreaterThan(0.9 * Math.min(limit.speed, stepLimit, p.peakMmPerS));
    }
  });

  it("the speed change between consecutive steps respects the path acceleration", () => {
    for (const [profile, from, to, feed] of cases) {
      const p = plan(profile, from, to, feed);
      const { accel } = pathLimits(profile, p, feed);
      let worst = 0;
      for (const times of [p.stepUsA, p.stepUsB]) {
        const mmPerStep = p.lengthMm / times.length;
        for (let i = 2; i < times.length; i++) {
          const d1 = (times[i - 1] ?? 0) - (times[i - 2] ?? 0);
          const d2 = (times[i] ?? 0) - (times[i - 1] ?? 0);
          // Each step time is rounded to 1 µs, so each interval is known to ±1 µs: take the smallest
          // speed change these intervals allow.
          const v1 = [mmPerStep / (d1 + 1), mmPerStep / Math.max(d1 - 1, 0.5)];
          const v2 = [mmPerStep / (d2 + 1), mmPerStep / Math.max(d2 - 1, 0.5)];
          const dv = Math.max(0, (v2[0] ?? 0) - (v1[1] ?? 0), (v1[0] ?? 0) - (v2[1] ?? 0)) * 1e6;
          worst = Math.max(worst, dv / ((d1 + d2) / 2 / 1e6));
        }
      }
      expect(worst).toBeLessThanOrEqual(accel * 1.02);
      expect(worst).toBeGreaterThan(accel * 0.5);
    }
  });

  it("a move that ignored acceleration would fail the same check", () => {
    // Guard for the test itself: a constant-speed train from rest violates it at the first steps.
    const times = Array.from({ length: 20 }, (_, i) => 1000 + i * 40);
    const withStart = [0, ...times];
    const mmPerStep = 1 / 80;
    const d1 = (withStart[2] ?? 0) - (withStart[1] ?? 0);
    const d0 = (withStart[1] ?? 0) - (withStart[0] ?? 0);
    const dv = (mmPerStep / (d1 + 1) - mmPerStep / (d0 - 1)) * 1e6;
    expect(dv / ((d0 + d1) / 2 / 1e6)).toBeGreaterThan(cartesian.accelMmPerS2.x * 1.02);
  });
});

describe("wave planner: chunks and holds", () => {
  it("splits a long move into waves of at most maxPulses that replay the train exactly", () => {
    const p = plan(cartesian, { xMm: 0, yMm: 0 }, { xMm: 200, yMm: 180 });
    expect(p.pulses.length).toBeGreaterThan(12_000);
    const maxPulses = Math.floor(12_000 / 3);
    const chunks = chunkPulses(p.pulses, maxPulses);
    expect(chunks.length).toBeGreaterThan(p.pulses.length / maxPulses);
    let at = 0;
    for (const c of chunks) {
      expect(c.pulses.length).toBeLessThanOrEqual(maxPulses);
      expect(c.startUs).toBe(at);
      expect(c.pulses.reduce((s, x) => s + x.usDelay, 0)).toBe(c.durationUs);
      at += c.durationUs;
    }
    expect(chunks.flatMap((c) => c.pulses)).toEqual(p.pulses);
    expect(at).toBe(p.durationUs);
  });

  it("a hold decelerates from the cut at the move's acceleration and stops short of the target", () => {
    const p = plan(cartesian, { xMm: 0, yMm: 0 }, { xMm: 200, yMm: 0 });
    const cutUs = p.stepUsA[8000] ?? 0;
    const tail = planHoldTail(p, cutUs);
    const sent = stepsDoneAt(p, cutUs - 1);
    expect(tail.from).toEqual(sent);
    expect(tail.to.a).toBeGreaterThan(sent.a);
    expect(tail.to.a).toBeLessThan(p.to.a);
    // Stopping distance v²/2a at the cut speed, in steps.
    const v = p.law.speedAt((cutUs - DIR_SETUP_US) / 1e6);
    expect(tail.to.a - sent.a).toBeCloseTo(((v * v) / (2 * p.accelMmPerS2)) * 80, -1);
    const times = [...p.stepUsA.slice(0, sent.a), ...tail.stepUsA.map((t) => t + cutUs)];
    let shrinking = 0;
    let worst = 0;
    for (let i = sent.a; i < times.length; i++) {
      const d1 = (times[i - 1] ?? 0) - (times[i - 2] ?? 0);
      const d2 = (times[i] ?? 0) - (times[i - 1] ?? 0);
      if (d2 < d1 - 2) shrinking++;
      const dv = Math.max(0, (1 / 80) * (1 / (d1 + 1) - 1 / Math.max(d2 - 1, 0.5))) * 1e6;
      worst = Math.max(worst, dv / ((d1 + d2) / 2 / 1e6));
    }
    expect(shrinking).toBe(0);
    expect(worst).toBeLessThanOrEqual(p.accelMmPerS2 * 1.02);
    expect(worst).toBeGreaterThan(p.accelMmPerS2 * 0.5);
    expect(decode(tail.pulses, tail.from, [1, 1]).a).toBe(tail.to.a);
  });
});
