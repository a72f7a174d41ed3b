import { readdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseConfig } from "../src/app/config/load.js";
import { SimRigStack } from "../src/app/rig-stack.js";
import { Logger } from "../src/log/logger.js";
import { GesturePlanner } from "../src/rig/gestures.js";
import { loadRigProfile } from "../src/rig/profile.js";
import { predictProgram } from "../src/rig/timing.js";
import { systemClock } from "../src/util/clock.js";
import { projectRoot } from "../src/util/paths.js";

/**
 * Tap cycle on each rig profile's timing model: a 35 mm move, a tap, the release wait — the unit of
 * work behind every tap tool call. Prints numbers; never fails on them. Goal for corexy-fluidnc: ≤ 0.35 s.
 */
function profileNames(): string[] {
  return readdirSync(join(projectRoot(), "calibration", "profiles"))
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => f.replace(/\.yaml$/, ""));
}

export function motionBench(): string[] {
  const dir = join(projectRoot(), "calibration", "profiles");
  const lines: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    const profile = loadRigProfile(join(dir, file));
    const planner = new GesturePlanner(profile);
    const from = { xMm: 100, yMm: 100 };
    // On GRBL the dwells are the 50 ms steps the firmware really waits (the tap's 80 ms contact is 100 ms).
    const grblDwell = profile.backend === "grbl";
    const tap = predictProgram(planner.tap({ xMm: 135, yMm: 100 }), profile, from, { grblDwell });
    const swipe = predictProgram(
      planner.swipe({ xMm: 100, yMm: 60 }, { xMm: 100, yMm: 80 }, "medium"),
      profile,
      from,
      { grblDwell },
    );
    lines.push(
      `${profile.name.padEnd(16)} 35 mm move + tap: ${(tap.totalMs / 1000).toFixed(3)} s ` +
        `(travel ${tap.travelMs.toFixed(0)} ms, contact ${tap.contactMs.toFixed(0)} ms, wait ${tap.waitMs.toFixed(0)} ms); ` +
        `swipe m medium incl. approach: ${(swipe.totalMs / 1000).toFixed(3)} s`,
    );
  }
  return lines;
}

/**
 * The same tap cycle measured end to end on the simulated appliance: controller → real driver →
 * protocol (GRBL over a pty, or pigpio waves) → simulated gantry, alternating between two points 35 mm
 * apart. Wall-clock numbers of the simulation, which runs in real time.
 */
export async function measuredTapCycles(samples = 10): Promise<string[]> {
  const lines: string[] = [];
  const log = Logger.create({ level: "error", format: "human", sink: { write() {} }, now: Date.now });
  for (const name of profileNames()) {
    const config = parseConfig({ rig: { profile: name }, sim: { pose: { centerXMm: 100, centerYMm: 100 } } });
    const stack = new SimRigStack(config, { clock: systemClock, log, cwd: process.cwd() });
    await stack.start();
    const times: number[] = [];
    try {
      const a = { xMm: 80, yMm: 100 };
      const b = { xMm: 115, yMm: 100 };
      await stack.motion.run(stack.motion.gestures.tap(a));
      for (let i = 0; i < samples; i++) {
        const t0 = performance.now();
        await stack.motion.run(stack.motion.gestures.tap(i % 2 === 0 ? b : a));
        times.push(performance.now() - t0);
      }
    } finally {
      await stack.stop();
    }
    times.sort((x, y) => x - y);
    const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
    lines.push(
      `${name.padEnd(16)} measured 35 mm move + tap: median ${(median / 1000).toFixed(3)} s (n=${times.length})`,
    );
  }
  return lines;
}
