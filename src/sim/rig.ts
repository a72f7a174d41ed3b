import type { Logger } from "../log/logger.js";
import { type RigProfile, resolveRigProfile } from "../rig/profile.js";
import { FontBook } from "../shared/fonts.js";
import { IPHONE_61 } from "../shared/phone-model.js";
import type { Clock } from "../util/clock.js";
import { sleep } from "../util/sleep.js";
import {
  type CaptureSettings,
  DEFAULT_SIM_CAMERA_OPTIONS,
  type SceneSnapshot,
  SimCamera,
  type SimCameraOptions,
} from "./camera/index.js";
import type { SimConfig } from "./config.js";
import { SimGantry } from "./gantry/model.js";
import { type PhoneTruth, SimPhone } from "./phone/index.js";
import { glassFrame, type PhonePose } from "./pose.js";

export interface SimRigDeps {
  clock: Clock;
  log: Logger;
  /** The rig whose mechanics the simulated gantry has (travel, park spot, solenoid delays). */
  profile: RigProfile;
  /** Shared font book (loading fonts once per process). */
  fonts?: FontBook;
}

/**
 * The simulated rig: one phone lying on the bed at a known pose, seen by one overhead camera, under a
 * gantry whose stylus touches the glass. The gantry is driven only through real protocols (the GRBL
 * simulator on a pty, or the pigpio-shaped fake), never directly by product code above the driver.
 */
export class SimRig {
  private phoneInstance: SimPhone | null = null;
  private cameraInstance: SimCamera | null = null;
  private gantryInstance: SimGantry | null = null;

  constructor(
    private readonly config: SimConfig,
    private readonly deps: SimRigDeps,
  ) {}

  /**
   * The simulated rig a config describes: its `sim` section plus the `rig.profile` it emulates (any object
   * with those two slices, e.g. the whole root config).
   */
  static fromConfig(
    config: { sim: SimConfig; rig: { profile: string } },
    deps: Omit<SimRigDeps, "profile"> & { cwd: string },
  ): SimRig {
    return new SimRig(config.sim, { ...deps, profile: resolveRigProfile(config.rig.profile, deps.cwd) });
  }

  async start(): Promise<void> {
    const { config, deps } = this;
    const startMs = deps.clock.now();
    this.startedAtMs = startMs;
    const phone = new SimPhone({
      clock: deps.clock,
      fonts: deps.fonts ?? new FontBook(),
      locale: config.phone.locale,
      passcode: config.phone.passcode,
      geometry: IPHONE_61,
      autoLockMs: config.phone.autoLockSeconds * 1000,
      // The phone shows local time like a real one; the machine's zone unless the config pins it.
      utcOffsetMinutes: config.phone.utcOffsetMinutes ?? -new Date(startMs).getTimezoneOffset(),
      touchesUntil: (nowMs) => {
        const gantry = this.gantryInstance;
        if (!gantry) return nowMs;
        gantry.flush(nowMs);
        return gantry.settledUntil(nowMs);
      },
      notifications: config.phone.notifications.map((n) => ({
        atMs: startMs + n.afterSeconds * 1000,
        app: "messages" as const,
        from: n.from,
        text: n.text,
      })),
    });
    this.phoneInstance = phone;
    const { profile } = deps;
    const gantry = new SimGantry({
      clock: deps.clock,
      travelMm: profile.travelMm,
      // Parked by hand before power-on: exactly at the park spot unless the config says it was sloppy.
      initialPosition: {
        xMm: profile.park.xMm + config.gantry.startOffsetXMm,
        yMm: profile.park.yMm + config.gantry.startOffsetYMm,
      },
      contactDelayMs: profile.stylus.contactDelayMs,
      releaseDelayMs: profile.stylus.releaseDelayMs,
      surface: {
        frame: glassFrame(phone.geometry, this.pose()),
        glassMm: phone.geometry.glassMm,
        touch: (ev) => phone.touch(ev),
      },
      onLimit: (axis) => deps.log.warn("gantry ran into the frame", { axis }),
    });
    gantry.start();
    this.gantryInstance = gantry;
    this.cameraInstance = new SimCamera({
      source: phone,
      pose: this.pose(),
      camera: this.cameraOptions(),
      seed: config.seed,
      carriage: () => gantry.positionAt(),
    });
    deps.log.info("simulated rig ready", {
      phone: config.phone.model,
      locale: config.phone.locale,
      pose: config.pose,
      camera: `${config.camera.width}×${config.camera.height}@${config.camera.framerate}`,
      gantry: profile.name,
    });
  }

  async stop(): Promise<void> {
    this.gantryInstance?.stop();
    this.gantryInstance = null;
    this.phoneInstance = null;
    this.cameraInstance = null;
  }

  get phone(): SimPhone {
    if (!this.phoneInstance) throw new Error("SimRig not started");
    return this.phoneInstance;
  }

  /** Clock time of start(): the camera's start delay counts from here. */
  private startedAtMs = 0;

  get camera(): SimCamera {
    if (!this.cameraInstance) throw new Error("SimRig not started");
    return this.cameraInstance;
  }

  /** The phone's true pose on the bed (ground truth for calibration tests). */
  pose(): PhonePose {
    return { ...this.config.pose };
  }

  /** The rig profile whose mechanics the simulated gantry has. */
  get profile(): RigProfile {
    return this.deps.profile;
  }

  get gantry(): SimGantry {
    if (!this.gantryInstance) throw new Error("SimRig not started");
    return this.gantryInstance;
  }

  /** One camera frame; before `camera.startDelaySeconds` have passed since start, it waits until then. */
  async captureFrame(settings: CaptureSettings): Promise<Buffer> {
    await this.startDelay();
    return this.camera.capture(settings);
  }

  private async startDelay(): Promise<void> {
    const waitMs = this.startedAtMs + this.config.camera.startDelaySeconds * 1000 - this.deps.clock.now();
    if (waitMs > 0) await sleep(waitMs);
  }

  /**
   * What a camera renderer elsewhere needs for its next frame (see `SceneSnapshot`): the screen's pixels
   * only when `haveScreen` is not the current screen version, the setup when asked. Like `captureFrame`,
   * it waits out the camera's start delay. Cheap on this event loop: no camera rendering, no encoding.
   */
  async sceneSnapshot(query: { haveScreen: number | null; setup: boolean }): Promise<SceneSnapshot> {
    await this.startDelay();
    const phone = this.phone;
    const camera = this.camera;
    // The version is read before the pixels: if the screen changes in between, the pixels are newer
    // than their label and the next snapshot sends them again, never the other way round.
    const screenVersion = phone.version;
    const screen = query.haveScreen === screenVersion ? undefined : await phone.renderScreen();
    return {
      screenVersion,
      ...(screen ? { screen } : {}),
      carriage: this.gantry.positionAt(),
      pose: camera.pose,
      ...(query.setup
        ? { setup: { camera: this.cameraOptions(), seed: this.config.seed, geometry: phone.geometry } }
        : {}),
    };
  }

  screenshot(): Promise<Buffer> {
    return this.phone.screenshot();
  }

  truth(): PhoneTruth {
    return this.phone.truth();
  }

  /** Map the validated config onto the camera's plain options (positions are relative to the pose). */
  private cameraOptions(): SimCameraOptions {
    const c = this.config.camera;
    const d = DEFAULT_SIM_CAMERA_OPTIONS;
    return {
      ...d,
      placement: {
        ...d.placement,
        xMm: this.config.pose.centerXMm + c.offsetXMm,
        yMm: this.config.pose.centerYMm + c.offsetYMm,
        heightMm: c.heightMm,
        yawDeg: c.yawDeg,
        pitchDeg: c.pitchDeg,
        rollDeg: c.rollDeg,
      },
      sensor: { ...d.sensor, vignetting: c.vignetting },
      carriage: { ...d.carriage, parkMm: { xMm: c.parkXMm, yMm: c.parkYMm } },
      glare: c.glare.enabled
        ? {
            xFrac: c.glare.xFrac,
            yFrac: c.glare.yFrac,
            radiusXFrac: c.glare.radiusFrac,
            radiusYFrac: c.glare.radiusFrac,
            intensity: c.glare.strength,
          }
        : null,
      noise: c.noise,
    };
  }
}
