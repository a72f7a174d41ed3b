import { join } from "node:path";
import type { BridgeHandle } from "../bridge/adapters.js";
import {
  bundlePaths,
  type CalibrationBundle,
  readBundle,
  writeBundle,
  writeFailedBundle,
} from "../calibration/bundle.js";
import { runCalibration } from "../calibration/run.js";
import { CameraErrorCode } from "../camera/camera.js";
import { type Camera, createCamera } from "../camera/index.js";
import type { Logger } from "../log/logger.js";
import type { MotionController } from "../rig/controller.js";
import type { PhoneOwner } from "../rig/owner.js";
import { cameraScreenFrames, type ScreenFrameSource } from "../runtime/frames.js";
import { FontBook } from "../shared/fonts.js";
import { SimPhoneAgent } from "../sim/calibration-agent.js";
import type { WakeStep } from "../tools/context.js";
import { resolvePasscode } from "../tools/passcode.js";
import { type PhoneIo, SimPhoneIo } from "../tools/phone-io.js";
import { createPhoneTools } from "../tools/phone-tools.js";
import { RigSession } from "../tools/rig-session.js";
import type { AnyPhoneTool } from "../tools/types.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { projectRoot } from "../util/paths.js";
import { seededRandom } from "../util/random.js";
import { sleep, sleepUnlessAborted } from "../util/sleep.js";
import { createVision, type VisionStack } from "../vision/create.js";
import { IconMemory } from "../vision/icon-memory.js";
import type { ScreenView } from "../vision/pipeline.js";
import type { PiclawConfig } from "./config/schema.js";
import { abortableMotion, bridgePatternAgent, DaemonCalibration } from "./daemon-calibration.js";
import { hardwarePhoneIo } from "./hardware-phone.js";
import type { Readiness } from "./readiness.js";
import type { RigStack } from "./rig-stack.js";

export interface PhoneStackDeps {
  config: PiclawConfig;
  stateDir: string;
  /** Folder relative paths in the config are resolved against (the config file's). */
  baseDir: string;
  /** The started rig (simulated or real): its profile, phone geometry and, on the sim, the SimRig. */
  rig: RigStack;
  motion: MotionController;
  owner: PhoneOwner;
  /** The simulator's control socket: the rpicam stand-ins read frames of the live rig through it (sim only). */
  simSocket: string | null;
  /** The phone-side bridge when `bridge.enabled` (a real phone's clipboard and screenshots); else null. */
  bridge?: BridgeHandle | null;
  /**
   * The rig's clock, a steady one (see `steadyClock`): camera frames, the tools' settle times, the
   * start-up calibration's taps and durations. A wall-clock step must not reach them.
   */
  clock: Clock;
  /** Dates stored or shown (a bundle's `createdAt`), and the bridge's touch times; default `clock`. */
  wallClock?: Clock;
  log: Logger;
  env: NodeJS.ProcessEnv;
  /** Clipboard and screenshots on the phone; default: the simulated phone's, or the bridge on hardware. */
  phoneIo?: PhoneIo;
  /** What send_to_clipboard tells the model about pasting, when `phoneIo` needs another way. */
  pasteHint?: string;
  /** The daemon's readiness: set to calibrating / ready / degraded as the calibration goes. */
  readiness?: Readiness;
}

/**
 * The simulated camera renders every changed frame in the rpicam stand-in (≈0.1–0.2 s of CPU per
 * 2304×1296 frame), so its stream is capped: a Pi's ISP does this work for free, the simulator cannot.
 */
export const SIM_CAMERA_MAX_FPS = 10;

/**
 * The phone tools with everything under them: the camera (rpicam-vid; on the simulated rig its
 * stand-in, reading the live rig through the control socket), the vision models, the calibration
 * bundle and the passcode. A simulated rig without a bundle calibrates once in the background at start
 * (holding the arm; tools wait for it); a real rig without one answers "not calibrated".
 */
export class PhoneToolStack {
  private camera: Camera | null = null;
  private vision: VisionStack | null = null;
  private calibrating: Promise<void> | null = null;
  private session: RigSession | null = null;
  private readonly abort = new AbortController();
  /** The 12 tools, once started. */
  tools: AnyPhoneTool[] = [];
  /** `piclaw calibrate` and the dashboard's button run here, once started. */
  calibration: DaemonCalibration | null = null;

  constructor(private readonly deps: PhoneStackDeps) {}

  async start(): Promise<void> {
    const { config, rig, clock, env } = this.deps;
    const log = this.deps.log.child("tools");
    const passcode = resolvePasscode(config, { env, baseDir: this.deps.baseDir });
    this.deps.log.addSecret(passcode.value);
    const sim = rig.sim;
    const bin = join(projectRoot(), "bin", "sim");
    const cameraConfig = sim
      ? {
          ...config.camera,
          vidBinary: join(bin, "rpicam-vid"),
          stillBinary: join(bin, "rpicam-still"),
          framerate: Math.min(config.camera.framerate, SIM_CAMERA_MAX_FPS),
        }
      : config.camera;
    if (cameraConfig.framerate !== config.camera.framerate)
      log.info("simulated camera stream capped", {
        fps: cameraConfig.framerate,
        configured: config.camera.framerate,
      });
    const camera = createCamera(cameraConfig, {
      clock,
      log: this.deps.log.child("camera"),
      // The real rpicam binaries get the daemon's environment; the stand-ins the simulator's socket.
      env: sim ? { PICLAW_SIM_SOCKET: this.deps.simSocket ?? "" } : env,
    });
    this.camera = camera;
    const [vision] = await Promise.all([
      // One icon memory per phone: dock icons take names seen on its home screens and switcher.
      createVision(config, {
        fonts: new FontBook(),
        clock,
        screenPx: rig.phoneGeometry.screenPx,
        iconMemory: new IconMemory(),
      }),
      camera.start(),
    ]);
    this.vision = vision;
    const session = new RigSession({
      camera,
      vision: vision.pipeline,
      motion: this.deps.motion,
      clock,
      sleep,
      settleMs: config.tools.settleMs,
      log,
    });
    session.markRested();
    this.session = session;
    const wake: WakeStep | null = sim
      ? {
          description: "pressed the side button, the simulated rig's stand-in for tap to wake",
          wake: async () => sim.phone.pressSideButton(),
        }
      : null;
    const motion = this.deps.motion;
    const io = sim
      ? { phoneIo: new SimPhoneIo(sim) }
      : hardwarePhoneIo({
          bridge: this.deps.bridge ?? null,
          phone: config.phone,
          log,
          arm: {
            builder: () => session.builder(this.abort.signal),
            check: (program) => session.check(program),
            run: (program) => motion.run(program, this.abort.signal),
            park: async () => {
              await motion.park();
              session.markRested();
            },
          },
        });
    const pasteHint = this.deps.pasteHint ?? io.pasteHint;
    this.tools = createPhoneTools({
      session,
      phoneIo: this.deps.phoneIo ?? io.phoneIo,
      passcode: () => passcode.value,
      wake,
      sleep,
      settleMs: config.tools.settleMs,
      ...(pasteHint ? { pasteHint } : {}),
    });
    this.calibration = this.daemonCalibration(session, camera);
    const problem = this.loadBundle(session);
    if (problem === null) {
      log.info("phone tools ready", { tools: this.tools.length, passcodeFrom: passcode.source });
    } else if (sim) {
      log.info(`${problem}: calibrating the simulated rig once, in the background (tools wait for it)`);
      this.deps.readiness?.set("calibrating", `${problem}: calibrating the simulated rig`);
      this.calibrating = this.calibrate(session, log);
      session.setCalibrating(this.calibrating);
    } else {
      session.setUncalibrated(`not calibrated: ${problem}; run \`piclaw calibrate\``);
      this.deps.readiness?.set("degraded", `not calibrated: ${problem}; run \`piclaw calibrate\``);
      log.warn("phone tools up without a calibration: run `piclaw calibrate`", { problem });
    }
  }

  /** The screen as the camera sees it now, read and annotated. Never takes the arm; waits for a calibration. */
  look(signal?: AbortSignal): Promise<ScreenView> {
    if (!this.session)
      return Promise.reject(new PiclawError("TOOLS_NOT_STARTED", "the phone tools are not started"));
    return this.session.look(signal);
  }

  /**
   * Small rectified screen frames for the runtime's poll hook: one JPEG decode and a tiny warp per
   * sample, no model run, no arm. Null before start.
   */
  screenFrames(width: number): ScreenFrameSource | null {
    const camera = this.camera;
    if (!camera) return null;
    return cameraScreenFrames({
      camera,
      bundle: () => this.session?.currentBundle ?? null,
      screenPx: this.deps.rig.phoneGeometry.screenPx,
      width,
    });
  }

  /** The calibration the tools use now (what the dashboard shows), or null while there is none. */
  /** One raw camera frame (JPEG), for the setup wizard's view of the bed. */
  async grabJpeg(): Promise<Buffer> {
    if (!this.camera) throw new PiclawError("TOOLS_NOT_STARTED", "the camera is not started yet");
    return (await this.camera.grab()).jpeg;
  }

  get currentBundle(): CalibrationBundle | null {
    return this.session?.currentBundle ?? null;
  }

  /** Calibration on request (CLI, dashboard) with this stack's camera, arm and phone side. */
  private daemonCalibration(session: RigSession, camera: Camera): DaemonCalibration {
    const { config, rig, bridge } = this.deps;
    const sim = rig.sim;
    return new DaemonCalibration({
      options: config.calibration,
      stateDir: this.deps.stateDir,
      priority: config.arm.classes[0] ?? "local",
      owner: this.deps.owner,
      motion: this.deps.motion,
      session,
      agent: () => (sim ? new SimPhoneAgent(sim.phone) : bridgePatternAgent(bridge ?? null)),
      grabFrame: async () => (await camera.grab()).jpeg,
      glassMm: rig.phoneGeometry.glassMm,
      rigProfile: rig.profile.name,
      phoneModel: rig.phoneGeometry.name,
      describeRig: `${config.rig.backend}, profile ${rig.profile.name}; ${rig.transport}`,
      ...(this.deps.readiness ? { readiness: this.deps.readiness } : {}),
      stopping: this.abort.signal,
      // The simulated phone reports touches on the rig's clock, the bridge page on the wall clock.
      clock: sim ? this.deps.clock : (this.deps.wallClock ?? this.deps.clock),
      ...(this.deps.wallClock ? { wallClock: this.deps.wallClock } : {}),
      log: this.deps.log.child("calibration"),
      sleep,
    });
  }

  /** Stop a running calibration, the camera process and the model sessions. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.calibrating?.catch(() => undefined);
    this.calibrating = null;
    await this.calibration?.idle(); // one asked for by the CLI or the dashboard ends on the same abort
    await this.camera?.stop();
    this.camera = null;
    await this.vision?.close();
    this.vision = null;
  }

  /** Use the stored bundle; returns why it cannot be used, or null. */
  private loadBundle(session: RigSession): string | null {
    const { rig } = this.deps;
    let bundle: CalibrationBundle;
    try {
      bundle = readBundle(bundlePaths(this.deps.stateDir).current);
    } catch (err) {
      return err instanceof PiclawError && err.code === "CALIBRATION_BUNDLE_MISSING"
        ? "no calibration bundle"
        : `the calibration bundle is unusable (${errorMessage(err)})`;
    }
    const phoneModel = rig.phoneGeometry.name;
    if (bundle.rigProfile !== rig.profile.name || bundle.phone.model !== phoneModel)
      return `the calibration bundle is for ${bundle.rigProfile} / ${bundle.phone.model}, not ${rig.profile.name} / ${phoneModel}`;
    session.setCalibration(bundle);
    return null;
  }

  /**
   * The first-start calibration of the simulated rig, under the arm's lease. A transient camera fault
   * (a grab timing out, the camera process restarting) retries with backoff; a failed fit or validation
   * is final until `piclaw calibrate`. Either way the readiness state says where it stands.
   */
  private async calibrate(session: RigSession, log: Logger): Promise<void> {
    const { config, clock, owner, stateDir, readiness } = this.deps;
    const rig = this.deps.rig.sim;
    const camera = this.camera;
    if (!camera) throw new PiclawError("TOOLS_NOT_STARTED", "the camera is not started");
    if (!rig) throw new PiclawError("NOT_CALIBRATED", "only the simulated rig calibrates at start");
    const signal = this.abort.signal;
    const lease = await owner.acquire({
      priority: config.arm.classes[0] ?? "local",
      label: "start-up calibration",
      signal,
      waitLimitMs: 3_600_000,
    });
    const degrade = (message: string) => {
      session.setUncalibrated(message);
      readiness?.set("degraded", message);
    };
    try {
      for (let attempt = 1; ; attempt++) {
        const started = clock.now();
        try {
          const outcome = await runCalibration(
            {
              motion: abortableMotion(this.deps.motion, signal, "the daemon is stopping"),
              agent: new SimPhoneAgent(rig.phone),
              clock,
              sleep,
              random: seededRandom(started % 2 ** 31),
              glassMm: rig.phone.geometry.glassMm,
              report: (line) => {
                log.info(`calibration: ${line}`);
                readiness?.progress(line);
              },
              grabFrame: async () => (await camera.grab()).jpeg,
              rigProfile: rig.profile.name,
              phoneModel: rig.phone.geometry.name,
              ...(this.deps.wallClock ? { wallClock: this.deps.wallClock } : {}),
            },
            config.calibration,
          );
          const seconds = ((clock.now() - started) / 1000).toFixed(1);
          if (outcome.passed) {
            const path = writeBundle(stateDir, outcome.bundle);
            session.setCalibration(outcome.bundle);
            readiness?.set("ready");
            log.info("calibration written; phone tools ready", {
              path,
              seconds,
              attempt,
              worstTapMm: outcome.bundle.validation.maxErrorMm,
            });
          } else {
            const path = writeFailedBundle(stateDir, outcome.bundle);
            degrade(
              `not calibrated: the start-up calibration failed (${outcome.failures.join("; ")}); run \`piclaw calibrate\``,
            );
            log.error("start-up calibration failed; phone tools answer 'not calibrated'", {
              failures: outcome.failures,
              path,
            });
          }
          return;
        } catch (err) {
          if (signal.aborted) {
            log.info("start-up calibration stopped");
            degrade("not calibrated: the start-up calibration was stopped");
            return;
          }
          const code = err instanceof PiclawError ? err.code : "";
          if (!TRANSIENT_CALIBRATION_FAULTS.has(code) || attempt >= CALIBRATION_ATTEMPTS) {
            log.error("start-up calibration failed", { err, attempt });
            degrade(
              `not calibrated: the start-up calibration did not finish (${errorMessage(err)}); run \`piclaw calibrate\``,
            );
            return;
          }
          const waitMs = CALIBRATION_BACKOFF_MS * 2 ** (attempt - 1);
          log.warn("start-up calibration: transient fault, retrying", { err, attempt, waitMs });
          readiness?.progress(
            `attempt ${attempt}/${CALIBRATION_ATTEMPTS} failed (${code}); retrying in ${Math.round(waitMs / 1000)} s`,
          );
          await sleepUnlessAborted(waitMs, signal);
          session.markRested();
        }
      }
    } finally {
      session.markRested();
      lease.release();
    }
  }
}

/** Faults a start-up calibration waits out and retries: the camera came up late or restarted. */
const TRANSIENT_CALIBRATION_FAULTS: ReadonlySet<string> = new Set([
  CameraErrorCode.timeout,
  CameraErrorCode.captureFailed,
  CameraErrorCode.spawnFailed,
]);
/** Attempts of the start-up calibration, and the first wait between them (doubling: 2, 4, 8, 16 s). */
const CALIBRATION_ATTEMPTS = 5;
const CALIBRATION_BACKOFF_MS = 2_000;
