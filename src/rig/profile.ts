import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { PiclawError } from "../util/errors.js";
import { projectRoot } from "../util/paths.js";

/**
 * A rig profile: everything about one physical rig that motion needs — kinematics, steps/mm, rates,
 * limits, pins, stylus power and timings, gesture sizes. Profiles live in `calibration/profiles/*.yaml`;
 * no motion number lives in code.
 */

const xy = (min: number, max: number) =>
  z.strictObject({ x: z.number().min(min).max(max), y: z.number().min(min).max(max) });
const pin = z.number().int().min(0).max(53);

export const rigProfileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  description: z.string().default(""),
  kinematics: z.enum(["cartesian", "corexy"]),
  backend: z.enum(["grbl", "gpio"]),
  /** Reachable area from the machine origin (bed mm). */
  travelMm: xy(10, 2000),
  /** Steps per mm of each motor (for CoreXY: per mm of belt on motor A and B). */
  stepsPerMm: xy(1, 2000),
  maxRateMmPerMin: xy(60, 100_000),
  accelMmPerS2: xy(10, 100_000),
  /** GPIO back-end: the step rate no wave may exceed on any motor. */
  maxStepRateHz: z.number().int().min(100).max(500_000).default(40_000),
  homing: z
    .strictObject({
      endstops: z.boolean(),
      seekFeedMmPerMin: z.number().min(10).max(20_000).default(1500),
      pulloffMm: z.number().min(0).max(20).default(2),
    })
    .prefault({ endstops: false }),
  /** Where the carriage waits, clear of the phone and the camera's view of it. */
  park: z.strictObject({ xMm: z.number(), yMm: z.number() }),
  idleDisableDrivers: z.boolean().default(false),
  stylus: z.strictObject({
    /** `spindle`: the GRBL spindle PWM (M3 S…/M5). `gpio-pwm`: a Pi hardware-PWM pin through a MOSFET. */
    driver: z.enum(["spindle", "gpio-pwm"]),
    /** Strike power 0–1 (full force to overcome the spring), then hold power to stay down cool. */
    strikePower: z.number().min(0).max(1).default(1),
    holdPower: z.number().min(0).max(1).default(0.75),
    strikeMs: z.number().min(0).max(500).default(30),
    /** The solenoid never stays energised longer than this, whatever a program asks. */
    maxOnMs: z.number().min(100).max(60_000).default(5000),
    /** GRBL spindle S value that means full power ($30). */
    spindleMaxS: z.number().int().min(1).max(100_000).default(1000),
    pwmFrequencyHz: z.number().int().min(100).max(100_000).default(20_000),
    /** Time from energising until the tip touches the glass, and from release until it clears it. */
    contactDelayMs: z.number().min(0).max(200).default(15),
    releaseDelayMs: z.number().min(0).max(500).default(25),
  }),
  gestures: z.strictObject({
    tapContactMs: z.number().min(20).max(500).default(80),
    /** Wait after lifting before any travel, so the tip is clear of the glass. */
    releaseWaitMs: z.number().min(0).max(1000).default(60),
    doubleTapGapMs: z.number().min(50).max(300).default(120),
    longPressMs: z.number().min(500).max(5000).default(1200),
    /** Pause at the end of a drag-and-hold (app switcher) before lifting. */
    dragHoldMs: z.number().min(100).max(3000).default(700),
    swipeSizesMm: z.strictObject({
      s: z.number().positive(),
      m: z.number().positive(),
      l: z.number().positive(),
      xl: z.number().positive(),
      xxl: z.number().positive(),
    }),
    swipeFeedsMmPerMin: z.strictObject({
      slow: z.number().positive(),
      medium: z.number().positive(),
      fast: z.number().positive(),
    }),
  }),
  serial: z
    .strictObject({
      /** Fixed device path; when absent the port is found by USB vendor:product id. */
      path: z.string().optional(),
      baudRate: z.number().int().default(115_200),
      usbIds: z.array(z.string().regex(/^[0-9a-f]{4}:[0-9a-f]{4}$/i)).default([]),
    })
    .optional(),
  gpio: z
    .strictObject({
      pins: z.strictObject({
        stepA: pin,
        dirA: pin,
        stepB: pin,
        dirB: pin,
        enable: pin,
        solenoid: pin,
        limitX: pin.optional(),
        limitY: pin.optional(),
        estop: pin.optional(),
      }),
      enableActiveLow: z.boolean().default(true),
      invertDirA: z.boolean().default(false),
      invertDirB: z.boolean().default(false),
      stepPulseUs: z.number().int().min(1).max(100).default(4),
      /** Inputs are active low (switch to ground with a pull-up). */
      inputsActiveLow: z.boolean().default(true),
    })
    .optional(),
});

export type RigProfile = z.infer<typeof rigProfileSchema>;

/** Validate a parsed profile; errors name the key path. */
export function parseRigProfile(doc: unknown, source = "profile"): RigProfile {
  const result = rigProfileSchema.safeParse(doc);
  if (result.success) {
    const p = result.data;
    if (p.backend === "gpio" && !p.gpio)
      throw new PiclawError("PROFILE_INVALID", `${source}: gpio: required for backend gpio`, {
        path: "gpio",
      });
    if (p.stylus.driver === "spindle" && p.backend !== "grbl") {
      throw new PiclawError("PROFILE_INVALID", `${source}: stylus.driver: spindle needs backend grbl`, {
        path: "stylus.driver",
      });
    }
    return p;
  }
  const first = result.error.issues[0];
  const path = first?.path.join(".") || "(root)";
  throw new PiclawError("PROFILE_INVALID", `${source}: ${path}: ${first?.message ?? "invalid"}`, { path });
}

/** A profile by name (`calibration/profiles/<name>.yaml`) or by path (contains `/` or ends in `.yaml`). */
export function resolveRigProfile(nameOrPath: string, cwd: string): RigProfile {
  const isPath = nameOrPath.includes("/") || /\.ya?ml$/.test(nameOrPath);
  return loadRigProfile(
    isPath ? resolve(cwd, nameOrPath) : join(projectRoot(), "calibration", "profiles", `${nameOrPath}.yaml`),
  );
}

export function loadRigProfile(path: string): RigProfile {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new PiclawError(
      "PROFILE_UNREADABLE",
      `cannot read rig profile ${path}: ${(err as Error).message}`,
      { path },
    );
  }
  return parseRigProfile(doc, path);
}
