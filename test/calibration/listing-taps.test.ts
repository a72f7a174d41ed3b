import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { calibrateArm } from "../../src/calibration/arm.js";
import { calibrateCamera } from "../../src/calibration/camera.js";
import { calibrationConfigSchema } from "../../src/calibration/config.js";
import { dotGridPattern } from "../../src/calibration/pattern.js";
import { GesturePlanner } from "../../src/rig/gestures.js";
import { applyHomography } from "../../src/shared/homography.js";
import { SimPhoneAgent } from "../../src/sim/calibration-agent.js";
import { DEFAULT_SIM_CAMERA_OPTIONS } from "../../src/sim/camera/options.js";
import { SimCamera } from "../../src/sim/camera/sim-camera.js";
import { Finger } from "../../src/sim/phone/finger.js";
import { seededRandom } from "../../src/util/random.js";
import { createVision } from "../../src/vision/create.js";
import { fonts } from "../sim/phone/helpers.js";
import { directRig, POSES } from "./helpers.js";

/**
 * The promise calibration exists for: at five phone poses (±10°, offsets, tilt), calibrate both maps
 * from camera frames and reported touches, then aim taps at boxes taken from the vision listing (as
 * the agent would) and check where the phone says each touch landed: within 1 mm of the true centre
 * of the element the box names. Fast path for motion (real controller, instant back-end).
 */
const options = calibrationConfigSchema.parse({});
const TARGETS = ["Clock", "Weather"];

describe("taps aimed at listing boxes", () => {
  it("land within 1 mm of the true element centre at 5 poses", async () => {
    const rigs = POSES.slice(0, 5);
    const probe = directRig(POSES[0] as (typeof POSES)[number]);
    const vision = await createVision(parseConfig({}), {
      fonts,
      clock: { now: () => performance.now() },
      screenPx: probe.phone.geometry.screenPx,
    });
    try {
      for (const [i, pose] of rigs.entries()) {
        const rig = directRig(pose);
        const d = DEFAULT_SIM_CAMERA_OPTIONS;
        const camera = new SimCamera({
          source: rig.phone,
          pose,
          camera: { ...d, placement: { ...d.placement, xMm: pose.centerXMm, yMm: pose.centerYMm } },
          seed: 11 + i,
        });
        const agent = new SimPhoneAgent(rig.phone);
        const pattern = dotGridPattern();
        await agent.showPattern(pattern);
        const cam = await calibrateCamera({
          grabFrame: () => camera.capture({ width: 2304, height: 1296 }),
          pattern,
          glassMm: rig.phone.geometry.glassMm,
          random: seededRandom(i),
          ransacThresholdPx: 2,
          minMarkers: 12,
        });
        const deps = {
          motion: rig.motion,
          agent,
          clock: rig.clock,
          sleep: async () => {},
          random: seededRandom(40 + i),
          glassMm: rig.phone.geometry.glassMm,
          report: () => {},
        };
        const arm = await calibrateArm(deps, options.arm);
        await agent.clearPattern();
        rig.motion.setAllowedArea(arm.allowedArea);
        new Finger(rig.phone, rig.clock).unlock("2468");
        const view = await vision.pipeline.fromCamera(
          await camera.capture({ width: 2304, height: 1296 }),
          cam.screenToCamera,
        );
        const planner = new GesturePlanner(rig.profile);
        const g = rig.phone.geometry.glassMm;
        for (const label of TARGETS) {
          // A home-screen name is listed as its app's row; the name's own box is where it was read.
          const row = view.entries.find((e) => (e.kind === "text" || e.kind === "app") && e.label === label);
          expect(row, `listing has "${label}"\n${view.listing}`).toBeDefined();
          if (!row) continue;
          const text = { box: row.labelBox ?? row.box };
          const id = rig.phone.truth().elements.find((e) => e.kind === "text" && e.label === label)?.id;
          const truth = rig.phone.truth().elements.find((e) => e.id === id);
          if (!truth) throw new Error(`no truth for ${label}`);
          const aim = { x: (text.box[0] + text.box[2]) / 2, y: (text.box[1] + text.box[3]) / 2 };
          const bed = applyHomography(arm.screenToBed, aim.x, aim.y);
          const since = rig.clock.now();
          await rig.motion.run(planner.tap({ xMm: bed.x, yMm: bed.y }));
          const touch = rig.phone.touchReports(since)[0];
          expect(touch).toBeDefined();
          if (!touch) continue;
          const cx = (truth.box[0] + truth.box[2]) / 2;
          const cy = (truth.box[1] + truth.box[3]) / 2;
          const errMm = Math.hypot((touch.x - cx) * g.width, (touch.y - cy) * g.height);
          console.log(`pose ${i} "${label}": landed ${errMm.toFixed(2)} mm from the true centre`);
          expect(errMm).toBeLessThanOrEqual(1);
          // The tap opened the app; go home for the next target.
          expect(rig.phone.truth().screen).toBe("app");
          new Finger(rig.phone, rig.clock).homeSwipe();
        }
      }
    } finally {
      await vision.close();
    }
  }, 240_000);
});
