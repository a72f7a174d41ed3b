import { appendFileSync } from "node:fs";
import { resolve } from "node:path";
import { Logger } from "../../../src/log/logger.js";
import type { BedPoint } from "../../../src/rig/motion.js";
import { loadRigProfile, type RigProfile } from "../../../src/rig/profile.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
import { systemClock } from "../../../src/util/clock.js";
import { projectRoot } from "../../../src/util/paths.js";

/** Silent unless GRBL_TEST_DEBUG names a file to append a trace to. */
const debugFile = process.env.GRBL_TEST_DEBUG;
export const quietLog = Logger.create({
  level: debugFile ? "trace" : "warn",
  format: "human",
  sink: {
    write: (line: string) =>
      debugFile ? appendFileSync(debugFile, `${Date.now() % 100_000} ${line}`) : undefined,
  },
  now: Date.now,
});

export function fluidncProfile(patch: (p: RigProfile) => void = () => {}): RigProfile {
  const p = loadRigProfile(resolve(projectRoot(), "calibration/profiles/corexy-fluidnc.yaml"));
  patch(p);
  return p;
}

/** A stylus switch as the gantry saw it, with where queued motion ended at that moment. */
export interface StylusCall {
  down: boolean;
  atMs: number;
  calledMs: number;
  motionEndMs: number;
}

/** A real-time gantry that records every solenoid change. */
export function recordingGantry(profile: RigProfile, initial: BedPoint = { ...profile.park }) {
  const gantry = new SimGantry({
    clock: systemClock,
    travelMm: profile.travelMm,
    initialPosition: initial,
    contactDelayMs: profile.stylus.contactDelayMs,
    releaseDelayMs: profile.stylus.releaseDelayMs,
  });
  const stylus: StylusCall[] = [];
  const original = gantry.setStylus.bind(gantry);
  gantry.setStylus = (down: boolean, atMs?: number) => {
    const now = gantry.now();
    if (down !== gantry.stylusEnergised)
      stylus.push({ down, atMs: atMs ?? now, calledMs: now, motionEndMs: gantry.motionEndMs() });
    original(down, atMs);
  };
  return { gantry, stylus };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
