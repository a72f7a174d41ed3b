import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { Logger } from "../../src/log/logger.js";
import { MotionController } from "../../src/rig/controller.js";
import type { MotionBackend, MotionStatus, MotionStep } from "../../src/rig/motion.js";
import { loadRigProfile } from "../../src/rig/profile.js";
import { predictProgram } from "../../src/rig/timing.js";
import { projectRoot } from "../../src/util/paths.js";
import { rejection } from "../helpers/errors.js";

const profile = loadRigProfile(resolve(projectRoot(), "calibration/profiles/corexy-fluidnc.yaml"));
const log = Logger.create({ level: "error", format: "human", sink: { write() {} }, now: Date.now });

/** Records what reaches the back-end: the controller's checks must stop bad programs before this. */
class RecordingBackend implements MotionBackend {
  readonly name = "recording";
  calls: string[] = [];
  programs: MotionStep[][] = [];
  async start() {
    this.calls.push("start");
  }
  async stop() {
    this.calls.push("stop");
  }
  async reference() {
    this.calls.push("reference");
  }
  async run(program: readonly MotionStep[]) {
    this.calls.push("run");
    this.programs.push([...program]);
  }
  async status(): Promise<MotionStatus> {
    return { state: "idle", position: { xMm: 0, yMm: 0 }, stylusDown: false, referenced: true };
  }
  async feedHold() {}
  async resume() {}
  async halt() {
    this.calls.push("halt");
  }
  async disableDrivers() {
    this.calls.push("disable");
  }
}

describe("MotionController safety", () => {
  it("rejects NaN, Infinity and non-number targets before anything reaches the back-end", async () => {
    const backend = new RecordingBackend();
    const motion = new MotionController(backend, profile, log);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const err = await rejection(motion.run(motion.gestures.tap({ xMm: bad, yMm: 50 })));
      expect(err.code).toBe("MOTION_TARGET_INVALID");
      expect(err.message).toContain("xMm");
    }
    const err = await rejection(
      motion.run([{ kind: "travel", to: { xMm: 10, yMm: "5" as unknown as number } }]),
    );
    expect(err.details.field).toBe("yMm");
    expect(backend.programs).toHaveLength(0);
  });

  it("refuses targets outside the travel, then outside a calibrated area, and says why", async () => {
    const backend = new RecordingBackend();
    const motion = new MotionController(backend, profile, log);
    const outside = await rejection(motion.run(motion.gestures.tap({ xMm: 250, yMm: 50 })));
    expect(outside.code).toBe("MOTION_SOFT_LIMIT");
    expect(outside.message).toMatch(/outside the allowed area x 0…200/);
    motion.setAllowedArea({ minXMm: 100, minYMm: 30, maxXMm: 190, maxYMm: 190 });
    expect((await rejection(motion.run(motion.gestures.tap({ xMm: 50, yMm: 50 })))).code).toBe(
      "MOTION_SOFT_LIMIT",
    );
    // A swipe whose end leaves the area is refused as a whole: its start must not be touched either.
    await expect(
      motion.run(motion.gestures.swipe({ xMm: 150, yMm: 100 }, { xMm: 150, yMm: 10 }, "fast")),
    ).rejects.toThrow(/step 4 \(feed\)/);
    expect(backend.programs).toHaveLength(0);
  });

  it("always allows parking even outside a calibrated area", async () => {
    const backend = new RecordingBackend();
    const motion = new MotionController(backend, profile, log);
    motion.setAllowedArea({ minXMm: 100, minYMm: 30, maxXMm: 150, maxYMm: 150 });
    await motion.park();
    expect(backend.programs[0]?.at(-1)).toEqual({ kind: "travel", to: { xMm: 200, yMm: 195 } });
  });

  it("bounds the solenoid's energised time and forbids travel with the tip down", async () => {
    const motion = new MotionController(new RecordingBackend(), profile, log);
    const tooLong: MotionStep[] = [
      { kind: "travel", to: { xMm: 50, yMm: 50 } },
      { kind: "stylus", down: true },
      { kind: "dwell", ms: profile.stylus.maxOnMs },
      { kind: "stylus", down: false },
    ];
    expect((await rejection(motion.run(tooLong))).code).toBe("MOTION_STYLUS_TOO_LONG");
    const dragging: MotionStep[] = [
      { kind: "stylus", down: true },
      { kind: "travel", to: { xMm: 50, yMm: 50 } },
      { kind: "stylus", down: false },
    ];
    expect((await rejection(motion.run(dragging))).code).toBe("MOTION_PROGRAM_INVALID");
    expect((await rejection(motion.run([{ kind: "stylus", down: true }]))).message).toMatch(
      /ends with the stylus down/,
    );
  });

  it("latches an e-stop: halts, refuses motion until reset", async () => {
    const backend = new RecordingBackend();
    const motion = new MotionController(backend, profile, log);
    await motion.estop("button pressed");
    expect(backend.calls).toContain("halt");
    await expect(motion.run(motion.gestures.tap({ xMm: 50, yMm: 50 }))).rejects.toMatchObject({
      code: "MOTION_ESTOP",
    });
    await expect(motion.reference()).rejects.toMatchObject({ code: "MOTION_ESTOP" });
    motion.resetEstop();
    await motion.reference();
    await motion.run(motion.gestures.tap({ xMm: 50, yMm: 50 }));
    expect(backend.programs).toHaveLength(1);
  });

  it("parks and disables the drivers on stop", async () => {
    const backend = new RecordingBackend();
    const motion = new MotionController(backend, profile, log);
    await motion.stop();
    expect(backend.calls).toEqual(["run", "disable", "stop"]);
  });
});

describe("gesture programs", () => {
  const motion = new MotionController(new RecordingBackend(), profile, log);
  const g = motion.gestures;

  it("lift before travel and end lifted", () => {
    for (const program of [
      g.tap({ xMm: 10, yMm: 10 }),
      g.doubleTap({ xMm: 10, yMm: 10 }),
      g.longPress({ xMm: 10, yMm: 10 }),
      g.swipe({ xMm: 10, yMm: 10 }, { xMm: 10, yMm: 30 }, "medium"),
      g.dragAndHold({ xMm: 10, yMm: 10 }, { xMm: 10, yMm: 30 }, "slow"),
    ]) {
      expect(program[0]).toEqual({ kind: "stylus", down: false });
      expect(() => motion.validate(program)).not.toThrow();
    }
  });

  it("time contact as the profile says", () => {
    const tap = predictProgram(g.tap({ xMm: 10, yMm: 10 }), profile, { xMm: 10, yMm: 10 });
    expect(tap.contactMs).toBe(profile.gestures.tapContactMs);
    const long = predictProgram(g.longPress({ xMm: 10, yMm: 10 }), profile, { xMm: 10, yMm: 10 });
    expect(long.contactMs).toBe(profile.gestures.longPressMs);
    expect(g.swipeLengthMm("m")).toBe(20);
  });

  it("predict a 35 mm move + tap within the FluidNC profile's 0.35 s goal", () => {
    const t = predictProgram(g.tap({ xMm: 135, yMm: 100 }), profile, { xMm: 100, yMm: 100 });
    expect(t.travelMs).toBeGreaterThan(100);
    expect(t.totalMs).toBeLessThan(350);
  });
});
