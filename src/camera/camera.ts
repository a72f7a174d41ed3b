import { PiclawError } from "../util/errors.js";

/**
 * The overhead camera as the rest of PiClaw sees it: a source of whole JPEG frames, each stamped with the
 * clock time it was complete. Implementations: `RpicamVidCamera` (one long-lived `rpicam-vid` MJPEG
 * stream, the normal mode), `RpicamStillCamera` (one `rpicam-still --immediate` per grab, the fallback)
 * and `FakeCamera` (frames from an injected JPEG source on an injected clock, for tests of code above
 * the camera). `createCamera()` in `index.ts` picks the real one a config asks for.
 */

/** One camera frame. Frames are shared between callers: treat `jpeg` as read-only. */
export interface CameraFrame {
  /** A complete JPEG (SOI … EOI). */
  jpeg: Buffer;
  /** Pixel size the JPEG declares. */
  width: number;
  height: number;
  /** Increases by at least 1 per new frame of this camera instance, across process restarts. */
  seq: number;
  /** Clock time (ms since the epoch, the injected Clock) at which the frame was complete. */
  atMs: number;
}

export interface GrabOptions {
  /**
   * Only a frame whose exposure began at or after this clock time will do (default: the clock's time at
   * the call). Pass the time a gesture ended to be sure the frame shows the screen after it.
   */
  newerThanMs?: number;
  /** Give up with `CAMERA_TIMEOUT` after this many milliseconds (default: the camera's grab timeout). */
  timeoutMs?: number;
}

/**
 * Contract of every camera:
 * - `start()` acquires the camera (spawns the capture process, if any). It rejects with
 *   `CAMERA_BINARY_MISSING` when the capture program cannot be found; calling it twice is harmless.
 * - `grab()` resolves with a frame that began after `newerThanMs` (default: the time of the call) and was
 *   complete no earlier than that, so a frame grabbed right after a tap never shows the screen from
 *   before it. Concurrent grabs may share a frame. It rejects with `CAMERA_NOT_STARTED` before `start()`
 *   or after `stop()`, `CAMERA_TIMEOUT` when no such frame comes in time (details say why, with the
 *   capture program's last stderr lines), `CAMERA_STOPPED` when `stop()` ends the wait, and
 *   `CAMERA_BINARY_MISSING` / `CAMERA_CAPTURE_FAILED` when capturing cannot work.
 * - `stop()` ends capture and leaves no child process behind; calling it twice is harmless.
 */
export interface Camera {
  start(): Promise<void>;
  stop(): Promise<void>;
  grab(opts?: GrabOptions): Promise<CameraFrame>;
}

/** Error codes the camera drivers use. */
export const CameraErrorCode = {
  binaryMissing: "CAMERA_BINARY_MISSING",
  spawnFailed: "CAMERA_SPAWN_FAILED",
  timeout: "CAMERA_TIMEOUT",
  captureFailed: "CAMERA_CAPTURE_FAILED",
  notStarted: "CAMERA_NOT_STARTED",
  stopped: "CAMERA_STOPPED",
} as const;

export function notStartedError(): PiclawError {
  return new PiclawError(CameraErrorCode.notStarted, "the camera is not started");
}

export function stoppedError(): PiclawError {
  return new PiclawError(CameraErrorCode.stopped, "the camera was stopped while waiting for a frame");
}
