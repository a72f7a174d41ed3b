import { afterAll, describe, expect, it } from "vitest";
import { calibrateCamera } from "../../src/calibration/camera.js";
import { dotGridPattern } from "../../src/calibration/pattern.js";
import { applyHomography } from "../../src/shared/homography.js";
import { SimPhoneAgent } from "../../src/sim/calibration-agent.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { seededRandom } from "../../src/util/random.js";
import { quietLog } from "../fakes/log.js";
import { rejection } from "../helpers/errors.js";
import { directRig, POSES, poseConfig, trueScreenToCamera } from "./helpers.js";

const W = 2304;
const H = 1296;

describe("camera↔screen calibration on simulated frames", () => {
  const rigs: SimRig[] = [];
  afterAll(async () => {
    for (const r of rigs) await r.stop();
  });

  it.each(POSES.map((p, i) => [i, p] as const))(
    "pose %i: every screen point maps within 1 px of the optics' truth",
    async (i, pose) => {
      const glare =
        i % 2 === 1 ? { enabled: true, xFrac: 0.45, yFrac: 0.5, strength: 0.5 } : { enabled: false };
      const config = poseConfig(pose, { seed: 11 + i, camera: { glare, vignetting: 0.5, noise: 1.5 } });
      const rig = SimRig.fromConfig(config, { clock: systemClock, log: quietLog(), cwd: process.cwd() });
      rigs.push(rig);
      await rig.start();
      const pattern = dotGridPattern();
      await new SimPhoneAgent(rig.phone).showPattern(pattern);
      const fit = await calibrateCamera({
        grabFrame: () => rig.captureFrame({ width: W, height: H }),
        pattern,
        glassMm: rig.phone.geometry.glassMm,
        random: seededRandom(i),
        ransacThresholdPx: 2,
        minMarkers: 12,
      });
      const truth = trueScreenToCamera(rig, W, H);
      let worst = 0;
      for (let y = 0; y <= 1.0001; y += 0.05)
        for (let x = 0; x <= 1.0001; x += 0.05) {
          const a = applyHomography(fit.screenToCamera, x, y);
          const b = applyHomography(truth, x, y);
          worst = Math.max(worst, Math.hypot(a.x - b.x, a.y - b.y));
        }
      console.log(
        `pose ${i}: ${fit.markers.inliers}/${fit.markers.expected} dots, reprojection rms ${fit.reprojection.rmsPx.toFixed(3)} px ` +
          `(${fit.reprojection.rmsMm.toFixed(3)} mm), max ${fit.reprojection.maxPx.toFixed(3)} px; worst vs truth ${worst.toFixed(3)} px`,
      );
      expect(fit.markers.inliers).toBe(pattern.dots.length);
      expect(worst).toBeLessThan(1);
    },
  );

  it("works on a low-resolution frame with strong glare and heavy noise", async () => {
    const pose = POSES[3] as (typeof POSES)[number];
    const config = poseConfig(pose, {
      seed: 3,
      camera: {
        glare: { enabled: true, xFrac: 0.55, yFrac: 0.45, strength: 0.55 },
        vignetting: 0.8,
        noise: 3,
      },
    });
    const rig = SimRig.fromConfig(config, { clock: systemClock, log: quietLog(), cwd: process.cwd() });
    rigs.push(rig);
    await rig.start();
    const pattern = dotGridPattern();
    await new SimPhoneAgent(rig.phone).showPattern(pattern);
    const fit = await calibrateCamera({
      grabFrame: () => rig.captureFrame({ width: 1152, height: 648, quality: 70 }),
      pattern,
      glassMm: rig.phone.geometry.glassMm,
      random: seededRandom(1),
      ransacThresholdPx: 1,
      minMarkers: 12,
    });
    const truth = trueScreenToCamera(rig, 1152, 648);
    let worst = 0;
    for (const [x, y] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
      [0.5, 0.5],
    ] as const) {
      const a = applyHomography(fit.screenToCamera, x, y);
      const b = applyHomography(truth, x, y);
      worst = Math.max(worst, Math.hypot(a.x - b.x, a.y - b.y));
    }
    console.log(
      `1152×648, glare + noise 3: ${fit.markers.inliers} dots, rms ${fit.reprojection.rmsPx.toFixed(3)} px, worst corner vs truth ${worst.toFixed(3)} px`,
    );
    expect(fit.markers.inliers).toBeGreaterThanOrEqual(40);
    expect(worst).toBeLessThan(1);
  });

  it("a frame without the pattern is a clear error, not a bad fit", async () => {
    const rig = SimRig.fromConfig(poseConfig(POSES[0] as (typeof POSES)[number]), {
      clock: systemClock,
      log: quietLog(),
      cwd: process.cwd(),
    });
    rigs.push(rig);
    await rig.start();
    const err = await rejection(
      calibrateCamera({
        grabFrame: () => rig.captureFrame({ width: 1152, height: 648 }),
        pattern: dotGridPattern(),
        glassMm: rig.phone.geometry.glassMm,
        random: seededRandom(1),
        ransacThresholdPx: 2,
        minMarkers: 12,
      }),
    );
    expect(err.code).toBe("CALIBRATION_PATTERN_NOT_FOUND");
  });
});

describe("SimPhoneAgent", () => {
  it("draws the pattern over everything, reports touches, and clearing restores the UI", async () => {
    const rig = directRig(POSES[0] as (typeof POSES)[number]);
    const agent = new SimPhoneAgent(rig.phone);
    const before = rig.phone.truth().elements.length;
    expect(before).toBeGreaterThan(0);
    await agent.showPattern(dotGridPattern());
    expect(rig.phone.truth().elements).toHaveLength(0);
    const shot = await rig.phone.renderScreen();
    // Top-left corner is the black background; the big top-left dot's centre is white.
    const px = (fx: number, fy: number) =>
      shot.data[(Math.floor(fy * shot.height) * shot.width + Math.floor(fx * shot.width)) * shot.channels] ??
      -1;
    expect(px(0.01, 0.01)).toBe(0);
    expect(px(0.12, 0.08)).toBe(255);
    const t0 = rig.clock.now();
    rig.phone.touch({ type: "down", xMm: 32, yMm: 70, tMs: t0 });
    rig.phone.touch({ type: "up", xMm: 32, yMm: 70, tMs: t0 + 80 });
    const touches = await agent.touchesSince(t0);
    expect(touches).toHaveLength(1);
    expect(touches[0]?.x).toBeCloseTo(32 / rig.phone.geometry.glassMm.width, 3);
    expect(touches[0]?.y).toBeCloseTo(70 / rig.phone.geometry.glassMm.height, 3);
    expect(await agent.touchesSince(t0 + 1)).toHaveLength(0);
    await agent.clearPattern();
    expect(rig.phone.truth().elements.length).toBe(before);
    expect(rig.phone.truth().screen).toBe("lock");
  });
});
