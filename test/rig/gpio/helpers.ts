import { resolve } from "node:path";
import { Logger } from "../../../src/log/logger.js";
import { GpioBackend } from "../../../src/rig/gpio/backend.js";
import type { BedPoint } from "../../../src/rig/motion.js";
import { loadRigProfile, type RigProfile } from "../../../src/rig/profile.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
import { createPigpioFake, type PigpioFake } from "../../../src/sim/gantry/pigpio-fake.js";
import { systemClock } from "../../../src/util/clock.js";
import { projectRoot } from "../../../src/util/paths.js";
import { quietLog } from "../../fakes/log.js";

export const gpioProfile = loadRigProfile(resolve(projectRoot(), "calibration/profiles/cartesian-gpio.yaml"));
/** A logger that keeps every line (JSON) so tests can check what the back-end reported. */
export function capturingLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: {
      write(line: string) {
        lines.push(line);
      },
    },
    now: Date.now,
  });
  return { log, lines };
}

export interface Rig {
  profile: RigProfile;
  gantry: SimGantry;
  fake: PigpioFake;
  backend: GpioBackend;
  /** Halt (so nothing parks) and release everything. */
  close(): Promise<void>;
}

/** A GPIO back-end on the pigpio fake over a simulated gantry (real time: the waves run on the clock). */
export function gpioRig(
  options: {
    profile?: Partial<RigProfile>;
    at?: BedPoint;
    maxPulses?: number;
    chipBase?: number;
    log?: Logger;
    /** How often the fake samples the switches: a long one is a switch edge heard late (a loaded loop). */
    pollMs?: number;
  } = {},
): Rig {
  const profile: RigProfile = { ...gpioProfile, ...options.profile };
  const clock = systemClock;
  const gantry = new SimGantry({
    clock,
    travelMm: profile.travelMm,
    initialPosition: options.at ?? profile.park,
    contactDelayMs: profile.stylus.contactDelayMs,
    releaseDelayMs: profile.stylus.releaseDelayMs,
  });
  const chipBase = options.chipBase ?? 512;
  const fake = createPigpioFake({
    gantry,
    profile,
    clock,
    chipBase,
    maxPulses: options.maxPulses ?? 12_000,
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  const backend = new GpioBackend({
    profile,
    pigpio: fake.pigpio,
    onoff: fake.onoff,
    clock,
    log: options.log ?? quietLog(),
    gpioChipBase: chipBase,
  });
  return {
    profile,
    gantry,
    fake,
    backend,
    async close() {
      await backend.halt("test end");
      await backend.stop();
      fake.dispose();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function distance(a: BedPoint, b: BedPoint): number {
  return Math.hypot(a.xMm - b.xMm, a.yMm - b.yMm);
}

/** What the step train of one motor did, judged as a physical motor would feel it. */
export interface StepTrainReport {
  /** Largest speed change (mm/s²) between consecutive intervals within a run of motion. */
  worstAccel: number;
  /** Stops where the motor was still fast (an underrun: the DMA engine ran dry mid-move). */
  abruptStops: number;
  /** Starts from rest that were already fast (a real motor stalls there: lost steps). */
  fastStarts: number;
}

/**
 * Judge a motor's rising-edge times (exact µs) against its acceleration limit. The motion stops where an
 * interval exceeds `pauseUs` or crosses a wave boundary with a gap (a wave that started after the one
 * before it had ended: a new move, a resume, or an underrun). Into and out of a stop the motor must be
 * slow: from rest, after at most two steps, a motor accelerating at `accel` moves at ≤ √(2·accel·2 steps).
 * Within a run, each pair of intervals (each known to ±1 µs) must not change speed faster than `accel`.
 */
export function judgeStepTrain(
  timesUs: readonly number[],
  waves: readonly { startUs: number; durationUs: number }[],
  stepsPerMm: number,
  accel: number,
  pauseUs = 50_000,
): StepTrainReport {
  const stepMm = 1 / stepsPerMm;
  const gapsUs: number[] = [];
  for (let i = 1; i < waves.length; i++) {
    const prev = waves[i - 1];
    const cur = waves[i];
    if (prev && cur && cur.startUs > prev.startUs + prev.durationUs) gapsUs.push(cur.startUs);
  }
  const stops = (i: number): boolean => {
    const a = timesUs[i - 1] ?? 0;
    const b = timesUs[i] ?? 0;
    return b - a > pauseUs || gapsUs.some((g) => g > a && g <= b);
  };
  // Fastest speed (mm/s) an interval of d µs allows, and the slowest.
  const vMax = (d: number) => (stepMm / Math.max(d - 1, 0.5)) * 1e6;
  const vMin = (d: number) => (stepMm / (d + 1)) * 1e6;
  const restSpeed = Math.sqrt(2 * accel * 2 * stepMm) * 1.05;
  let worstAccel = 0;
  let abruptStops = 0;
  let fastStarts = 0;
  const n = timesUs.length;
  const interval = (i: number) => (timesUs[i] ?? 0) - (timesUs[i - 1] ?? 0);
  for (let i = 0; i < n; i++) {
    // Step i is the first after a stop and the next interval is within a run: a start from rest.
    if ((i === 0 || stops(i)) && i + 1 < n && !stops(i + 1) && vMin(interval(i + 1)) > restSpeed)
      fastStarts++;
    // Step i is the last before a stop: the interval leading to it must be slow.
    if ((i === n - 1 || stops(i + 1)) && i >= 1 && !stops(i) && vMin(interval(i)) > restSpeed) abruptStops++;
  }
  for (let i = 2; i < timesUs.length; i++) {
    if (stops(i) || stops(i - 1)) continue;
    const d1 = (timesUs[i - 1] ?? 0) - (timesUs[i - 2] ?? 0);
    const d2 = (timesUs[i] ?? 0) - (timesUs[i - 1] ?? 0);
    const dv = Math.max(0, vMin(d2) - vMax(d1), vMin(d1) - vMax(d2));
    worstAccel = Math.max(worstAccel, dv / ((d1 + d2) / 2 / 1e6));
  }
  return { worstAccel, abruptStops, fastStarts };
}
