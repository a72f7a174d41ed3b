import type { CalibrationBundle } from "../calibration/bundle.js";
import type { Camera, CameraFrame } from "../camera/camera.js";
import type { Logger } from "../log/logger.js";
import type { BedArea } from "../rig/controller.js";
import type { GesturePlanner, SwipeSpeed } from "../rig/gestures.js";
import type { BedPoint, MotionStep } from "../rig/motion.js";
import { applyHomography, type Mat3, mat3Mul } from "../shared/homography.js";
import type { RgbImage } from "../shared/image.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { ScreenView, VisionPipeline } from "../vision/pipeline.js";
import { decodeRgb, warpToScreen } from "../vision/rectify.js";
import { compareScreens, type VerdictResult } from "../vision/verdict.js";
import type { GlassSize, ScreenPoint } from "./screen-geometry.js";

/**
 * What the phone tools share: the camera, the vision pipeline, the motion controller and the calibration
 * that ties them together. It turns screen fractions into gestures in bed millimetres, looks at the
 * screen, and runs gestures the one way they run: a frame before, the motion, the carriage parked out of
 * the camera's view, a settled frame after, the change verdict between the two rectified frames.
 * It does not take the arm: callers hold the PhoneOwner lease (invokeTool does for `needsArm` tools).
 */

/** The part of the MotionController the tools use (MotionController has it). */
export interface SessionMotion {
  readonly gestures: GesturePlanner;
  run(program: readonly MotionStep[], signal?: AbortSignal): Promise<void>;
  /** Throws MOTION_* naming the step when the program may not run (soft limits, stylus time). */
  validate(program: readonly MotionStep[]): void;
  /** Move the carriage out of the camera's view of the phone. */
  park(): Promise<void>;
  setAllowedArea(area: BedArea | null): void;
}

export interface RigSessionDeps {
  camera: Camera;
  vision: VisionPipeline;
  motion: SessionMotion;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  /** A gesture's after-frame is taken at least this long after its last motion ended (ms). */
  settleMs: number;
  log: Logger;
}

/** A frame before a gesture may be this old (ms) when nothing moved since it was taken. */
const BEFORE_FRAME_MAX_AGE_MS = 500;

/** Gesture programs in screen fractions, mapped through the calibration (no motion happens here). */
export interface GestureBuilder {
  tap(p: ScreenPoint): MotionStep[];
  doubleTap(p: ScreenPoint): MotionStep[];
  longPress(p: ScreenPoint): MotionStep[];
  swipe(from: ScreenPoint, to: ScreenPoint, speed: SwipeSpeed): MotionStep[];
  dragAndHold(from: ScreenPoint, to: ScreenPoint, speed: SwipeSpeed): MotionStep[];
  /** Wait in place with the stylus up (lets the phone finish an animation between strokes). */
  pause(ms: number): MotionStep[];
  swipeLengthMm: GesturePlanner["swipeLengthMm"];
  glassMm: GlassSize;
}

/** What a gesture body gets: motion that counts as part of this gesture. */
export interface ArmAccess {
  run(program: readonly MotionStep[]): Promise<void>;
}

export interface Acted<T> {
  /** What the body returned (undefined when it threw). */
  value: T | undefined;
  /** What the body threw, if it did. */
  error: unknown;
  /** The screen after the gesture and whether it changed; null when no after-frame could be had. */
  after: { view: ScreenView; verdict: VerdictResult } | null;
  /** Why `after` is null, or why the verdict is unknown. */
  afterProblem: string | null;
  /** Milliseconds: before-frame, motion (parking included), settle + after-frame, reading it, total. */
  timings: { beforeMs: number; motionMs: number; frameMs: number; visionMs: number; totalMs: number };
}

type CalibrationState =
  | { kind: "ready"; bundle: CalibrationBundle }
  | { kind: "pending"; done: Promise<void> }
  | { kind: "missing"; message: string };

export class RigSession {
  private state: CalibrationState = {
    kind: "missing",
    message: "not calibrated: run `piclaw calibrate`",
  };
  /** Clock time the carriage last came to rest out of view (a before-frame must be newer). */
  private restedAt = 0;

  constructor(private readonly deps: RigSessionDeps) {}

  get vision(): VisionPipeline {
    return this.deps.vision;
  }

  /** Use `bundle`: its maps, and its allowed area as the soft limits. */
  setCalibration(bundle: CalibrationBundle): void {
    this.deps.motion.setAllowedArea(bundle.arm.allowedArea);
    this.state = { kind: "ready", bundle };
  }

  /** No usable calibration: every tool that needs one fails with `message`. */
  setUncalibrated(message: string): void {
    this.state = { kind: "missing", message };
  }

  /** A calibration is being made: tools wait for `done`, then use whatever state it left. */
  setCalibrating(done: Promise<void>): void {
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.state = { kind: "pending", done: settled };
    void settled.then(() => {
      if (this.state.kind === "pending" && this.state.done === settled)
        this.setUncalibrated(
          "not calibrated: the start-up calibration failed (see the log); run `piclaw calibrate`",
        );
    });
  }

  /** Note that the carriage is parked out of view now (e.g. after a calibration parked it). */
  markRested(): void {
    this.restedAt = this.deps.clock.now();
  }

  /** The calibration in use now, or null while there is none (or one is being made). Never waits. */
  get currentBundle(): CalibrationBundle | null {
    return this.state.kind === "ready" ? this.state.bundle : null;
  }

  /** The calibration, waiting for one in progress. Throws NOT_CALIBRATED when there is none. */
  async calibration(signal?: AbortSignal): Promise<CalibrationBundle> {
    while (this.state.kind === "pending") await abortable(this.state.done, signal);
    if (this.state.kind === "missing") throw new PiclawError("NOT_CALIBRATED", this.state.message);
    return this.state.bundle;
  }

  /** Gesture programs through the calibration's screen→bed map. */
  async builder(signal?: AbortSignal): Promise<GestureBuilder> {
    const bundle = await this.calibration(signal);
    const g = this.deps.motion.gestures;
    const bed = (p: ScreenPoint): BedPoint => {
      const q = applyHomography(bundle.arm.screenToBed as Mat3, p.x, p.y);
      return { xMm: q.x, yMm: q.y };
    };
    return {
      tap: (p) => g.tap(bed(p)),
      doubleTap: (p) => g.doubleTap(bed(p)),
      longPress: (p) => g.longPress(bed(p)),
      swipe: (from, to, speed) => g.swipe(bed(from), bed(to), speed),
      dragAndHold: (from, to, speed) => g.dragAndHold(bed(from), bed(to), speed),
      pause: (ms) => [{ kind: "dwell", ms }],
      swipeLengthMm: (size) => g.swipeLengthMm(size),
      glassMm: { ...bundle.phone.glassMm },
    };
  }

  /** Throws (MOTION_SOFT_LIMIT, …) when `program` may not run; nothing moves either way. */
  check(program: readonly MotionStep[]): void {
    this.deps.motion.validate(program);
  }

  /** The screen as the overhead camera sees it now: rectified, read, annotated. */
  async look(signal?: AbortSignal): Promise<ScreenView> {
    const bundle = await this.calibration(signal);
    const frame = await this.deps.camera.grab();
    return this.deps.vision.fromCamera(frame.jpeg, cameraMap(bundle, frame));
  }

  /** The phone's own screenshot (PNG/JPEG bytes), read and annotated. */
  describeScreenshot(image: Buffer): Promise<ScreenView> {
    return this.deps.vision.fromScreenshot(image);
  }

  /**
   * Run a gesture: grab a before-frame, run `body` (its motion through `arm`), park out of view, wait
   * for the screen to settle, grab and read the after-frame and compare it with the before-frame.
   * Body failures are returned, not thrown; the carriage is parked whatever happened.
   */
  async act<T>(signal: AbortSignal, body: (arm: ArmAccess) => Promise<T>): Promise<Acted<T>> {
    const { clock, camera, motion, log } = this.deps;
    const bundle = await this.calibration(signal);
    const t0 = clock.now();
    let beforeProblem: string | null = null;
    // Motion starts once the before-frame is in hand; rectifying it overlaps the motion.
    const beforeFrame = await camera
      .grab({ newerThanMs: Math.max(this.restedAt, t0 - BEFORE_FRAME_MAX_AGE_MS) })
      .catch((err: unknown) => {
        beforeProblem = `no camera frame before the gesture (${errorMessage(err)})`;
        return null;
      });
    const before: Promise<RgbImage | null> = beforeFrame
      ? this.rectify(beforeFrame, bundle).catch((err: unknown) => {
          beforeProblem = `the frame before the gesture could not be read (${errorMessage(err)})`;
          return null;
        })
      : Promise.resolve(null);
    const t1 = clock.now();
    let lastMotionEnd = t1;
    let moved = false;
    let value: T | undefined;
    let error: unknown;
    try {
      value = await body({
        run: async (program) => {
          moved = true;
          try {
            await motion.run(program, signal);
          } finally {
            lastMotionEnd = clock.now();
          }
        },
      });
    } catch (err) {
      error = err;
    }
    if (moved) {
      try {
        await motion.park();
      } catch (err) {
        log.warn("could not park after a gesture", { err });
        error ??= err;
      }
    }
    this.restedAt = clock.now();
    const t2 = clock.now();
    let after: Acted<T>["after"] = null;
    let afterProblem: string | null = null;
    let t3 = t2;
    try {
      const settleUntil = lastMotionEnd + this.deps.settleMs;
      const wait = settleUntil - clock.now();
      if (wait > 0) await this.deps.sleep(wait);
      const frame = await camera.grab({ newerThanMs: Math.max(clock.now(), settleUntil) });
      t3 = clock.now();
      const view = await this.deps.vision.fromCamera(frame.jpeg, cameraMap(bundle, frame));
      const beforeScreen = await before;
      const verdict: VerdictResult = beforeScreen
        ? compareScreens(beforeScreen, view.screen)
        : unknownVerdict(beforeProblem ?? "no frame before the gesture");
      after = { view, verdict };
      if (verdict.verdict === "unknown") afterProblem = verdict.reason;
    } catch (err) {
      afterProblem = `no camera view after the gesture (${errorMessage(err)})`;
    }
    const t4 = clock.now();
    const timings = {
      beforeMs: t1 - t0,
      motionMs: t2 - t1,
      frameMs: t3 - t2,
      visionMs: t4 - t3,
      totalMs: t4 - t0,
    };
    log.debug("gesture done", { ...timings, verdict: after?.verdict.verdict ?? "none" });
    return { value, error, after, afterProblem, timings };
  }

  private async rectify(frame: CameraFrame, bundle: CalibrationBundle): Promise<RgbImage> {
    const { width, height } = this.deps.vision.rectifiedSize;
    return warpToScreen(await decodeRgb(frame.jpeg), cameraMap(bundle, frame), width, height);
  }
}

/**
 * The bundle's screen→camera map for `frame`. A frame of another size than the calibration's (the same
 * sensor area scaled, as rpicam does) scales the map; another aspect ratio means the map cannot hold.
 */
export function cameraMap(bundle: CalibrationBundle, frame: Pick<CameraFrame, "width" | "height">): Mat3 {
  const { width, height } = bundle.camera;
  const h = bundle.camera.screenToCamera as Mat3;
  if (frame.width === width && frame.height === height) return h;
  const sx = frame.width / width;
  const sy = frame.height / height;
  if (Math.abs(sx / sy - 1) > 0.01)
    throw new PiclawError(
      "CALIBRATION_CAMERA_SIZE",
      `camera frames are ${frame.width}×${frame.height} but the calibration was made at ${width}×${height} (another aspect ratio): run \`piclaw calibrate\``,
      { frame: { width: frame.width, height: frame.height }, calibration: { width, height } },
    );
  return mat3Mul([sx, 0, 0, 0, sy, 0, 0, 0, 1], h);
}

function unknownVerdict(reason: string): VerdictResult {
  return { verdict: "unknown", changedFraction: 0, maxBlockDiff: 0, shift: { dx: 0, dy: 0 }, reason };
}

/** Wait for `promise`, or reject with ABORTED when the caller gives up. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new PiclawError("ABORTED", "cancelled"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new PiclawError("ABORTED", "cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
