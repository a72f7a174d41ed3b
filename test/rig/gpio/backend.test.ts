import { describe, expect, it } from "vitest";
import type { MotionStep } from "../../../src/rig/motion.js";
import { PiclawError } from "../../../src/util/errors.js";
import { distance, gpioRig, sleep } from "./helpers.js";

const HALF_STEP_MM = 0.5 / 80 + 1e-9;

async function rejection(p: Promise<unknown>): Promise<PiclawError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof PiclawError) return err;
    throw err;
  }
  throw new Error("expected a PiclawError");
}

describe("GpioBackend on the pigpio fake", () => {
  it("runs travel → stylus down → dwell → up: exact target, strike then hold, only after motion", async () => {
    const rig = gpioRig({ profile: { homing: { endstops: false, seekFeedMmPerMin: 1500, pulloffMm: 2 } } });
    try {
      await rig.backend.start();
      await rig.backend.reference();
      expect((await rig.backend.status()).position).toEqual(rig.profile.park);
      const target = { xMm: 50.3, yMm: 80.71 };
      const program: MotionStep[] = [
        { kind: "stylus", down: false },
        { kind: "travel", to: target },
        { kind: "stylus", down: true },
        { kind: "dwell", ms: 80 },
        { kind: "stylus", down: false },
      ];
      await rig.backend.run(program);
      expect(distance(rig.gantry.positionAt(), target)).toBeLessThanOrEqual(HALF_STEP_MM);
      expect(rig.gantry.isMoving()).toBe(false);
      expect(distance((await rig.backend.status()).position, target)).toBeLessThanOrEqual(HALF_STEP_MM);

      const lastStepMs = Math.max(
        ...rig.fake.recorder.risingTimesMs(17),
        ...rig.fake.recorder.risingTimesMs(22),
      );
      const all = rig.fake.recorder.pwm.filter((p) => p.pin === 18);
      const firstOn = all.findIndex((p) => p.duty > 0);
      expect(all.slice(0, firstOn).every((p) => p.duty === 0)).toBe(true);
      const pwm = all.slice(firstOn);
      expect(pwm.map((p) => p.duty)).toEqual([1_000_000, 600_000, 0]);
      const [strike, hold, off] = pwm;
      if (!strike || !hold || !off) throw new Error("missing PWM writes");
      expect(strike.frequencyHz).toBe(20_000);
      expect(strike.atMs).toBeGreaterThanOrEqual(lastStepMs);
      expect(hold.atMs - strike.atMs).toBeGreaterThanOrEqual(29);
      expect(hold.atMs - strike.atMs).toBeLessThan(80);
      expect(off.atMs - hold.atMs).toBeGreaterThanOrEqual(79);
      expect(rig.gantry.stylusEnergised).toBe(false);
      expect((await rig.backend.status()).state).toBe("idle");
    } finally {
      await rig.close();
    }
  });

  it("streams a long move as chained waves that replay seamlessly to the exact target", async () => {
    const rig = gpioRig({
      profile: { homing: { endstops: false, seekFeedMmPerMin: 1500, pulloffMm: 2 } },
      maxPulses: 3000,
    });
    try {
      await rig.backend.start();
      await rig.backend.reference();
      const target = { xMm: 12.34, yMm: 40.02 };
      await rig.backend.run([{ kind: "travel", to: target }]);
      const waves = rig.fake.recorder.waves;
      expect(waves.length).toBeGreaterThan(5);
      for (const w of waves) expect(w.pulses.length).toBeLessThanOrEqual(1000);
      // Each wave starts exactly where the previous one ended: no gap, no overlap.
      for (let i = 1; i < waves.length; i++) {
        const prev = waves[i - 1];
        const cur = waves[i];
        if (!prev || !cur) continue;
        expect(cur.startMs).toBeCloseTo(prev.startMs + prev.durationUs / 1000, 6);
      }
      expect(distance(rig.gantry.positionAt(), target)).toBeLessThanOrEqual(HALF_STEP_MM);
    } finally {
      await rig.close();
    }
  });

  it("the maxOnMs watchdog forces the solenoid off and fails the run", async () => {
    const rig = gpioRig({
      profile: {
        homing: { endstops: false, seekFeedMmPerMin: 1500, pulloffMm: 2 },
        stylus: { ...gpioRigStylus(), maxOnMs: 150 },
      },
    });
    try {
      await rig.backend.start();
      await rig.backend.reference();
      const started = Date.now();
      const err = await rejection(
        rig.backend.run([
          { kind: "stylus", down: true },
          { kind: "dwell", ms: 1000 },
          { kind: "stylus", down: false },
        ]),
      );
      expect(err.code).toBe("MOTION_STYLUS_TIMEOUT");
      expect(Date.now() - started).toBeLessThan(600);
      const pwm = rig.fake.recorder.pwm;
      const on = pwm.find((p) => p.duty > 0);
      const off = pwm.filter((p) => p.duty === 0).at(-1);
      expect(off && on ? off.atMs - on.atMs : -1).toBeGreaterThanOrEqual(149);
      expect(off && on ? off.atMs - on.atMs : -1).toBeLessThan(300);
      expect(rig.gantry.stylusEnergised).toBe(false);
    } finally {
      await rig.close();
    }
  });
});

function gpioRigStylus() {
  return gpioRig().profile.stylus;
}
