import { describe, expect, it } from "vitest";
import { calibrateArm } from "../../src/calibration/arm.js";
import { calibrationConfigSchema } from "../../src/calibration/config.js";
import { dotGridPattern } from "../../src/calibration/pattern.js";
import type { TapDeps } from "../../src/calibration/taps.js";
import { validateArm } from "../../src/calibration/validate.js";
import { applyHomography, type Mat3 } from "../../src/shared/homography.js";
import { SimPhoneAgent } from "../../src/sim/calibration-agent.js";
import type { PhonePose } from "../../src/sim/pose.js";
import { seededRandom } from "../../src/util/random.js";
import { rejection } from "../helpers/errors.js";
import { directRig, POSES } from "./helpers.js";

/** Screen↔arm calibration on the fast path (real controller, instant back-end, true-pose touches). */
const options = calibrationConfigSchema.parse({});

async function calibrated(pose: PhonePose, seed: number, arm: Partial<typeof options.arm> = {}) {
  const rig = directRig(pose);
  const agent = new SimPhoneAgent(rig.phone);
  const lines: string[] = [];
  const deps: TapDeps = {
    motion: rig.motion,
    agent,
    clock: rig.clock,
    sleep: async () => {},
    random: seededRandom(seed),
    glassMm: rig.phone.geometry.glassMm,
    report: (l) => lines.push(l),
  };
  await agent.showPattern(dotGridPattern());
  const fit = await calibrateArm(deps, { ...options.arm, ...arm });
  return { rig, deps, fit, lines };
}

/** Worst distance between the fitted map and the true bed position over the whole screen (mm). */
function worstBedError(h: Mat3, truthBed: (x: number, y: number) => { xMm: number; yMm: number }): number {
  let worst = 0;
  for (let y = 0; y <= 1.0001; y += 0.05)
    for (let x = 0; x <= 1.0001; x += 0.05) {
      const p = applyHomography(h, x, y);
      const t = truthBed(x, y);
      worst = Math.max(worst, Math.hypot(p.x - t.xMm, p.y - t.yMm));
    }
  return worst;
}

describe("screen↔arm calibration (fast path)", () => {
  it.each(POSES.map((p, i) => [i, p] as const))(
    "pose %i: the map predicts true bed positions within 0.5 mm and validation passes",
    async (i, pose) => {
      const { rig, deps, fit } = await calibrated(pose, 100 + i);
      const worst = worstBedError(fit.screenToBed, rig.truthBed);
      rig.motion.setAllowedArea(fit.allowedArea);
      const v = await validateArm(deps, fit.screenToBed, { ...options.validation, ...options.arm });
      console.log(
        `pose ${i}: ${fit.searchTaps} search taps, ${fit.inliers}/${fit.pairs} inliers, residual rms ${fit.residual.rms.toFixed(4)} mm, ` +
          `worst vs truth ${worst.toFixed(4)} mm, validation ${v.taps.map((t) => t.errorMm?.toFixed(3)).join("/")} mm`,
      );
      expect(worst).toBeLessThan(0.5);
      expect(fit.inliers).toBe(fit.pairs);
      expect(v.taps).toHaveLength(5);
      expect(v.passed).toBe(true);
    },
  );

  it("finds a screen far from the rough centre by searching", async () => {
    const pose = { centerXMm: 150, centerYMm: 110, rotationDeg: 2.5, tiltXDeg: 0.4, tiltYDeg: -0.3 };
    const { rig, fit, lines } = await calibrated(pose, 7);
    expect(fit.searchTaps).toBeGreaterThan(1);
    expect(lines.some((l) => l.includes("off the screen"))).toBe(true);
    expect(worstBedError(fit.screenToBed, rig.truthBed)).toBeLessThan(0.5);
  });

  it("a map shifted by 3 mm fails validation with real misses", async () => {
    const { deps, fit } = await calibrated(POSES[1] as PhonePose, 5);
    const h = fit.screenToBed;
    const w = h[8];
    // Shift the output by +3 mm in bed x: add 3·(row 3) to row 1.
    const shifted: Mat3 = [h[0] + 3 * h[6], h[1] + 3 * h[7], h[2] + 3 * w, h[3], h[4], h[5], h[6], h[7], w];
    const v = await validateArm(deps, shifted, { ...options.validation, ...options.arm });
    expect(v.passed).toBe(false);
    for (const t of v.taps) {
      expect(t.passed).toBe(false);
      expect(t.errorMm).toBeGreaterThan(2.8);
      expect(t.errorMm).toBeLessThan(3.2);
    }
  });

  it("taps on the pattern are reported but swallowed: the phone stays on its lock screen", async () => {
    const { rig } = await calibrated(POSES[0] as PhonePose, 3);
    expect(rig.phone.touchReports(0).length).toBeGreaterThanOrEqual(28);
    expect(rig.phone.lastGesture).toBeNull();
    expect(rig.phone.truth().screen).toBe("lock");
  });

  it("after calibration the soft limits hold the stylus to the screen plus the margin", async () => {
    const { rig, fit } = await calibrated(POSES[0] as PhonePose, 4);
    rig.motion.setAllowedArea(fit.allowedArea);
    const area = rig.motion.allowedArea;
    const corner = applyHomography(fit.screenToBed, 0, 0);
    expect(corner.x).toBeGreaterThan(area.minXMm);
    expect(area.maxXMm - area.minXMm).toBeLessThan(rig.phone.geometry.glassMm.width + 11);
    const err = await rejection(
      rig.motion.run(rig.motion.gestures.tap({ xMm: area.maxXMm + 1, yMm: (area.minYMm + area.maxYMm) / 2 })),
    );
    expect(err.code).toBe("MOTION_SOFT_LIMIT");
  });

  it("gives up with a clear error when no search tap reaches the screen", async () => {
    const pose = { centerXMm: 100, centerYMm: 100, rotationDeg: 0, tiltXDeg: 0, tiltYDeg: 0 };
    const rig = directRig(pose);
    const agent = new SimPhoneAgent(rig.phone);
    const deps: TapDeps = {
      motion: rig.motion,
      agent,
      clock: rig.clock,
      sleep: async () => {},
      random: seededRandom(1),
      glassMm: rig.phone.geometry.glassMm,
      report: () => {},
    };
    const err = await rejection(
      calibrateArm(deps, { ...options.arm, roughCenterXMm: 190, roughCenterYMm: 10, searchRadiusMm: 20 }),
    );
    expect(err.code).toBe("CALIBRATION_SCREEN_NOT_FOUND");
    expect(err.message).toMatch(/roughCenterXMm/);
  });
});
