import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Logger } from "../../../src/log/logger.js";
import { GrblBackend } from "../../../src/rig/grbl/backend.js";
import { openSerialPort } from "../../../src/rig/grbl/port.js";
import type { GrblTimings } from "../../../src/rig/grbl/timings.js";
import type { BedPoint, MotionStep } from "../../../src/rig/motion.js";
import { loadRigProfile, type RigProfile } from "../../../src/rig/profile.js";
import { eepromConfiguredFor, type GrblEeprom } from "../../../src/sim/gantry/grbl-eeprom.js";
import { type SimGrblLink, startSimGrblLink } from "../../../src/sim/gantry/grbl-link.js";
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

/** One tap's program: travel there, stylus down, hold `ms` after the strike, stylus up. */
export const tapAt = (xMm: number, yMm: number, ms = 80): MotionStep[] => [
  { kind: "travel", to: { xMm, yMm } },
  { kind: "stylus", down: true },
  { kind: "dwell", ms },
  { kind: "stylus", down: false },
];

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

const cleanups: (() => Promise<void>)[] = [];
/** Stop every rig `rig()` started (call from afterEach). */
export async function cleanupRigs(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
}

/**
 * A simulated board on a pty, and a started GrblBackend talking to it. The board's EEPROM is configured
 * for the profile unless `eeprom` says otherwise (a factory board, a wrong build).
 */
export async function rig(
  patch: (p: RigProfile) => void = () => {},
  board?: (p: RigProfile) => GrblEeprom,
  timings: Partial<GrblTimings> = {},
) {
  const profile = fluidncProfile(patch);
  const rec = recordingGantry(profile);
  const dir = mkdtempSync(join(tmpdir(), "piclaw-grbl-test-"));
  const eeprom = board ? board(profile) : eepromConfiguredFor(profile);
  let link: SimGrblLink = await startSimGrblLink({ gantry: rec.gantry, profile, log: quietLog, dir, eeprom });
  let opens = 0;
  const backend = new GrblBackend({
    profile,
    log: quietLog,
    path: link.devicePath,
    openPort: (path, baud) => {
      opens++;
      return openSerialPort(path, baud);
    },
    timings: { bannerWaitMs: 200, statusPollMs: 100, reconnectMinMs: 50, reconnectMaxMs: 200, ...timings },
  });
  cleanups.push(async () => {
    await backend.stop();
    await link.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await backend.start();
  return {
    ...rec,
    profile,
    eeprom,
    backend,
    link: () => link,
    opens: () => opens,
    /** Pull the plug: the simulator's end and socat go away. */
    unplug: () => link.stop(),
    /** Plug a (freshly booted) board back in at the same device path. */
    replug: async () => {
      link = await startSimGrblLink({ gantry: rec.gantry, profile, log: quietLog, dir, eeprom });
    },
  };
}
