import { readdirSync } from "node:fs";
import { join } from "node:path";
import { GesturePlanner } from "../src/rig/gestures.js";
import { loadRigProfile } from "../src/rig/profile.js";
import { predictProgram } from "../src/rig/timing.js";
import { projectRoot } from "../src/util/paths.js";

/**
 * Tap cycle on each rig profile's timing model: a 35 mm move, a tap, the release wait — the unit of
 * work behind every tap tool call. Prints numbers; never fails on them. Goal for corexy-fluidnc: ≤ 0.35 s.
 */
export function motionBench(): string[] {
  const dir = join(projectRoot(), "calibration", "profiles");
  const lines: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    const profile = loadRigProfile(join(dir, file));
    const planner = new GesturePlanner(profile);
    const from = { xMm: 100, yMm: 100 };
    const tap = predictProgram(planner.tap({ xMm: 135, yMm: 100 }), profile, from);
    const swipe = predictProgram(
      planner.swipe({ xMm: 100, yMm: 60 }, { xMm: 100, yMm: 80 }, "medium"),
      profile,
      from,
    );
    lines.push(
      `${profile.name.padEnd(16)} 35 mm move + tap: ${(tap.totalMs / 1000).toFixed(3)} s ` +
        `(travel ${tap.travelMs.toFixed(0)} ms, contact ${tap.contactMs.toFixed(0)} ms, wait ${tap.waitMs.toFixed(0)} ms); ` +
        `swipe m medium incl. approach: ${(swipe.totalMs / 1000).toFixed(3)} s`,
    );
  }
  return lines;
}
