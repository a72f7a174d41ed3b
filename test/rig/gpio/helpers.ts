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
