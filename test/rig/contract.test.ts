import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { SimRigStack } from "../../src/app/rig-stack.js";
import { Logger } from "../../src/log/logger.js";
import type { BedPoint } from "../../src/rig/motion.js";
import type { SwipeGesture } from "../../src/sim/phone/index.js";
import { glassFrame, glassToBed } from "../../src/sim/pose.js";
import { systemClock } from "../../src/util/clock.js";

/**
 * One contract for every motion back-end, run through the same stack a Pi runs: controller → real
 * driver → protocol (serial tty / pigpio API) → simulated gantry → touches on the simulated phone.
 * Targets come from the phone's ground truth through its true pose (a perfect calibration).
 */
const PROFILES = ["corexy-fluidnc", "cartesian-gpio"] as const;

describe.each(PROFILES)("motion contract on %s", (profileName) => {
  const log = Logger.create({ level: "error", format: "human", sink: { write() {} }, now: Date.now });
  const config = parseConfig({
    rig: { profile: profileName },
    sim: {
      phone: { passcode: "2468", utcOffsetMinutes: 0 },
      pose: { centerXMm: 100, centerYMm: 100, rotationDeg: 4, tiltXDeg: 0.3, tiltYDeg: -0.2 },
    },
  });
  const stack = new SimRigStack(config, { clock: systemClock, log, cwd: process.cwd() });

  // cartesian-gpio homes against its switches at a realistic seek speed: ~20 s from the park spot.
  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

  const phone = () => stack.rig.phone;
  const glassToBedPoint = (gx: number, gy: number): BedPoint => {
    const p = glassToBed(glassFrame(phone().geometry, stack.rig.pose()), gx, gy);
    return { xMm: p.x, yMm: p.y };
  };
  const centreOf = (label: string): BedPoint => {
    const el = phone()
      .truth()
      .elements.find((e) => e.label === label);
    if (!el) throw new Error(`no element labelled ${label} on ${phone().truth().state}`);
    const [l, t, r, b] = el.box;
    const g = phone().geometry.glassMm;
    return glassToBedPoint(((l + r) / 2) * g.width, ((t + b) / 2) * g.height);
  };
  const g = () => stack.motion.gestures;
  const settle = () => new Promise((r) => setTimeout(r, 50));
  /** iOS's home gesture: from the bottom edge straight up by `upMm`, fast. */
  const homeSwipe = (upMm: number) => {
    const glass = phone().geometry.glassMm;
    return stack.motion.run(
      g().swipe(
        glassToBedPoint(glass.width / 2, glass.height - 1.5),
        glassToBedPoint(glass.width / 2, glass.height - 1.5 - upMm),
        "fast",
      ),
    );
  };

  it("unlocks: an edge swipe up opens the keypad, tapped digits unlock", async () => {
    await homeSwipe(38.5);
    await settle();
    expect(phone().truth().screen).toBe("passcode");
    for (const digit of "2468") await stack.motion.run(g().tap(centreOf(digit)));
    await settle();
    expect(phone().truth().screen).toBe("home");
  });

  it("a tap on the Clock icon opens Clock; the home swipe returns home", async () => {
    await stack.motion.run(g().tap(centreOf("Clock")));
    await settle();
    expect(phone().truth().app).toBe("clock");
    await homeSwipe(28.5);
    await settle();
    expect(phone().truth().screen).toBe("home");
  });

  it("a swipe of size m lands as a ~20 mm swipe", async () => {
    const glass = phone().geometry.glassMm;
    const from = glassToBedPoint(glass.width / 2, glass.height * 0.45);
    const to = glassToBedPoint(glass.width / 2, glass.height * 0.45 - g().swipeLengthMm("m"));
    await stack.motion.run(g().swipe(from, to, "medium"));
    await settle();
    const swipe = phone().lastGesture as SwipeGesture;
    expect(swipe.kind).toBe("swipe");
    expect(swipe.direction).toBe("up");
    expect(swipe.lengthMm).toBeGreaterThan(18.5);
    expect(swipe.lengthMm).toBeLessThan(21.5);
  });

  it("double tap and long press are classified as such by the phone", async () => {
    await stack.motion.run(g().doubleTap(centreOf("Weather")));
    await settle();
    expect(phone().lastGesture).toMatchObject({ kind: "tap", count: 2 });
    // Leave the app the double tap opened, then long-press an icon.
    await homeSwipe(28.5);
    await stack.motion.run(g().longPress(centreOf("Maps")));
    await settle();
    expect(phone().lastGesture).toMatchObject({ kind: "longPress", phase: "ended" });
  });

  it("a target outside the travel moves nothing and says why", async () => {
    const before = stack.rig.gantry.positionAt();
    await expect(stack.motion.run(g().tap({ xMm: 500, yMm: 20 }))).rejects.toMatchObject({
      code: "MOTION_SOFT_LIMIT",
    });
    await expect(stack.motion.run(g().tap({ xMm: Number.NaN, yMm: 20 }))).rejects.toThrow(
      /xMm must be a finite number/,
    );
    await settle();
    expect(stack.rig.gantry.positionAt()).toEqual(before);
  });
});
