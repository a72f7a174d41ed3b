import { parseConfig } from "../../src/app/config/load.js";
import type { PiclawConfig } from "../../src/app/config/schema.js";
import { MotionController } from "../../src/rig/controller.js";
import type { BedPoint, MotionBackend, MotionStatus, MotionStep } from "../../src/rig/motion.js";
import { resolveRigProfile } from "../../src/rig/profile.js";
import { FontBook } from "../../src/shared/fonts.js";
import { type Mat3, mat3Mul } from "../../src/shared/homography.js";
import { SimPhone } from "../../src/sim/phone/index.js";
import { bedToGlass, type GlassFrame, glassFrame, glassToBed, type PhonePose } from "../../src/sim/pose.js";
import type { SimRig } from "../../src/sim/rig.js";
import { ManualClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";

/** A config for one simulated pose (plus camera extras such as glare). */
export function poseConfig(
  pose: PhonePose,
  extra: { profile?: string; seed?: number; camera?: Record<string, unknown> } = {},
): PiclawConfig {
  return parseConfig({
    rig: { profile: extra.profile ?? "corexy-fluidnc" },
    sim: {
      seed: extra.seed ?? 1,
      phone: { passcode: "2468", utcOffsetMinutes: 0 },
      pose,
      camera: extra.camera ?? {},
    },
  });
}

/** Ground truth: screen fractions → camera pixels, from the simulated optics at the rig's true pose. */
export function trueScreenToCamera(rig: SimRig, width: number, height: number): Mat3 {
  const g = rig.phone.geometry.glassMm;
  const scale: Mat3 = [g.width, 0, 0, 0, g.height, 0, 0, 0, 1];
  return mat3Mul(rig.camera.view(width, height).glassToPixel, scale);
}

/** Poses the calibration must handle: rotations up to ±10°, offsets of a few cm, mild tilt. */
export const POSES: PhonePose[] = [
  { centerXMm: 100, centerYMm: 100, rotationDeg: 0, tiltXDeg: 0, tiltYDeg: 0 },
  { centerXMm: 118, centerYMm: 92, rotationDeg: 9.5, tiltXDeg: 0.8, tiltYDeg: -0.5 },
  { centerXMm: 84, centerYMm: 110, rotationDeg: -10, tiltXDeg: -1.2, tiltYDeg: 0.7 },
  { centerXMm: 130, centerYMm: 105, rotationDeg: 4, tiltXDeg: 1.5, tiltYDeg: 1 },
  { centerXMm: 72, centerYMm: 88, rotationDeg: -6, tiltXDeg: 0.3, tiltYDeg: -1.5 },
  { centerXMm: 105, centerYMm: 120, rotationDeg: 7, tiltXDeg: -0.6, tiltYDeg: -0.2 },
];

/**
 * The fast path: a motion back-end that executes programs instantly on a hand-driven clock and turns
 * stylus contact straight into digitizer touches at the phone's true pose. The MotionController above
 * it is the real one (soft limits, stylus-time checks), so only the driver and gantry are skipped.
 */
export class DirectBackend implements MotionBackend {
  readonly name = "direct (test)";
  private position: BedPoint;
  private down = false;

  constructor(
    private readonly phone: SimPhone,
    private readonly frame: GlassFrame,
    private readonly clock: ManualClock,
    start: BedPoint,
  ) {
    this.position = { ...start };
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  async reference(): Promise<void> {}
  async feedHold(): Promise<void> {}
  async resume(): Promise<void> {}
  async halt(): Promise<void> {}
  async disableDrivers(): Promise<void> {}

  async status(): Promise<MotionStatus> {
    return { state: "idle", position: { ...this.position }, stylusDown: this.down, referenced: true };
  }

  async run(program: readonly MotionStep[]): Promise<void> {
    for (const step of program) {
      if (step.kind === "travel" || step.kind === "feed") {
        const mm = Math.hypot(step.to.xMm - this.position.xMm, step.to.yMm - this.position.yMm);
        this.clock.advance(Math.ceil(mm / 0.5)); // 500 mm/s
        this.position = { ...step.to };
      } else if (step.kind === "dwell") this.clock.advance(step.ms);
      else if (step.down !== this.down) {
        this.down = step.down;
        const g = bedToGlass(this.frame, this.position.xMm, this.position.yMm);
        this.phone.touch({ type: step.down ? "down" : "up", xMm: g.xMm, yMm: g.yMm, tMs: this.clock.now() });
        this.clock.advance(15);
      }
    }
  }
}

let fonts: FontBook | null = null;

/** A simulated phone at `pose` driven through the real MotionController on the direct back-end. */
export function directRig(pose: PhonePose, profileName = "corexy-fluidnc") {
  const clock = new ManualClock();
  fonts ??= new FontBook();
  const phone = new SimPhone({ clock, fonts, locale: "en", passcode: "2468", utcOffsetMinutes: 0 });
  const profile = resolveRigProfile(profileName, process.cwd());
  const frame = glassFrame(phone.geometry, pose);
  const backend = new DirectBackend(phone, frame, clock, profile.park);
  const motion = new MotionController(backend, profile, quietLog());
  /** True bed position of a screen point (fractions), from the pose. */
  const truthBed = (x: number, y: number): BedPoint => {
    const p = glassToBed(frame, x * phone.geometry.glassMm.width, y * phone.geometry.glassMm.height);
    return { xMm: p.x, yMm: p.y };
  };
  return { clock, phone, profile, frame, motion, truthBed };
}
