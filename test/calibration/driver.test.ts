import { describe, expect, it } from "vitest";
import { SimRigStack } from "../../src/app/rig-stack.js";
import { calibrationConfigSchema } from "../../src/calibration/config.js";
import { type CalibrationRunDeps, checkCalibration, runCalibration } from "../../src/calibration/run.js";
import { applyHomography, type Mat3 } from "../../src/shared/homography.js";
import { SimPhoneAgent } from "../../src/sim/calibration-agent.js";
import { glassFrame, glassToBed, type PhonePose } from "../../src/sim/pose.js";
import { systemClock } from "../../src/util/clock.js";
import { seededRandom } from "../../src/util/random.js";
import { quietLog } from "../fakes/log.js";
import { POSES, poseConfig, trueScreenToCamera } from "./helpers.js";

/**
 * The whole calibration through the stack a Pi runs: MotionController → GRBL driver → serial pty →
 * GRBL simulator → gantry → touches on the simulated phone; the camera fit on a rendered frame. Real
 * time (~0.3 s per tap), so two poses only; the fast path covers more.
 */
const W = 2304;
const H = 1296;
const options = calibrationConfigSchema.parse({});

describe.each([POSES[1], POSES[2]] as PhonePose[])(
  "full calibration through the GRBL driver at %o",
  (pose) => {
    it("fits both maps to the sim's truth, validates, soft-limits to the screen, and re-checks", async () => {
      const stack = new SimRigStack(poseConfig(pose), {
        clock: systemClock,
        log: quietLog(),
        cwd: process.cwd(),
      });
      await stack.start();
      try {
        const rig = stack.rig;
        const lines: string[] = [];
        const deps: CalibrationRunDeps = {
          motion: stack.motion,
          agent: new SimPhoneAgent(rig.phone),
          clock: systemClock,
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
          random: seededRandom(42),
          glassMm: rig.phone.geometry.glassMm,
          report: (l) => lines.push(l),
          grabFrame: () => rig.captureFrame({ width: W, height: H }),
          rigProfile: rig.profile.name,
          phoneModel: rig.phone.geometry.name,
        };
        const t0 = Date.now();
        const outcome = await runCalibration(deps, options);
        const seconds = (Date.now() - t0) / 1000;
        const b = outcome.bundle;

        // Camera map vs the optics' truth.
        const truthCam = trueScreenToCamera(rig, W, H);
        const frame = glassFrame(rig.phone.geometry, rig.pose());
        const g = rig.phone.geometry.glassMm;
        let camWorst = 0;
        let bedWorst = 0;
        for (let y = 0; y <= 1.0001; y += 0.05)
          for (let x = 0; x <= 1.0001; x += 0.05) {
            const a = applyHomography(b.camera.screenToCamera as Mat3, x, y);
            const t = applyHomography(truthCam, x, y);
            camWorst = Math.max(camWorst, Math.hypot(a.x - t.x, a.y - t.y));
            const p = applyHomography(b.arm.screenToBed as Mat3, x, y);
            const q = glassToBed(frame, x * g.width, y * g.height);
            bedWorst = Math.max(bedWorst, Math.hypot(p.x - q.x, p.y - q.y));
          }
        console.log(
          `pose ${JSON.stringify(pose)}: ${seconds.toFixed(1)} s; camera rms ${b.camera.reprojection.rmsPx.toFixed(3)} px ` +
            `(${b.camera.reprojection.rmsMm.toFixed(4)} mm), worst vs truth ${camWorst.toFixed(3)} px; arm residual rms ` +
            `${b.arm.residual.rmsMm.toFixed(4)} mm, worst vs truth ${bedWorst.toFixed(4)} mm; validation ` +
            `${b.validation.taps.map((t) => t.errorMm?.toFixed(3)).join("/")} mm`,
        );
        expect(outcome.failures).toEqual([]);
        expect(outcome.passed).toBe(true);
        expect(b.validation.taps).toHaveLength(5);
        expect(camWorst).toBeLessThan(1);
        expect(bedWorst).toBeLessThan(0.5);
        expect(lines).toContain("pattern shown: 5×9 dots");
        expect(lines.filter((l) => l.startsWith("grid "))).toHaveLength(24);
        // The pattern swallowed every tap; it is gone again, and the soft limits now hug the screen.
        expect(rig.phone.truth().screen).toBe("lock");
        expect(rig.phone.lastGesture).toBeNull();
        expect(stack.motion.allowedArea).toEqual(b.arm.allowedArea);

        const check = await checkCalibration({ ...deps, random: seededRandom(7) }, b, options);
        expect(check.passed).toBe(true);
        expect(check.camera.rmsPx).toBeLessThan(0.5);
      } finally {
        await stack.stop();
      }
    }, 90_000);
  },
);
