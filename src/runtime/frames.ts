import type { CalibrationBundle } from "../calibration/bundle.js";
import type { Camera } from "../camera/camera.js";
import type { RgbImage } from "../shared/image.js";
import { cameraMap } from "../tools/rig-session.js";
import { decodeRgb, warpToScreen } from "../vision/rectify.js";

/** A rectified screen image and when it was taken. */
export interface ScreenFrame {
  image: RgbImage;
  /** Clock time the picture was taken (ms since epoch). */
  atMs: number;
}

/**
 * Where the poll hook gets its pictures of the screen. Contract: `grab` returns a rectified image of
 * the whole screen (top = status bar, any size, the aspect of the screen), or null when none can be
 * had right now (no calibration yet); it may throw for a camera failure.
 */
export interface ScreenFrameSource {
  grab(): Promise<ScreenFrame | null>;
}

export interface CameraScreenFramesDeps {
  camera: Camera;
  /** The current calibration bundle, null while uncalibrated. */
  bundle: () => CalibrationBundle | null;
  /** The phone's screen size in pixels (for the aspect of the rectified image). */
  screenPx: { width: number; height: number };
  /** Width of the rectified image (px). The watcher reduces it to ~48 px anyway, so keep it small. */
  width: number;
}

/**
 * Rectified screen frames from the overhead camera through the calibration's screen→camera map: the
 * same warp the tools use, at a small size, so a poll sample costs one JPEG decode and a tiny warp.
 */
export function cameraScreenFrames(deps: CameraScreenFramesDeps): ScreenFrameSource {
  return {
    async grab() {
      const bundle = deps.bundle();
      if (!bundle) return null;
      const frame = await deps.camera.grab();
      const width = deps.width;
      const height = Math.round((width * deps.screenPx.height) / deps.screenPx.width);
      const decoded = await decodeRgb(frame.jpeg);
      // No contrast stretch: exposure is locked, and stretching a dark (off) screen would amplify noise.
      const image = warpToScreen(decoded, cameraMap(bundle, frame), width, height);
      return { image, atMs: frame.atMs };
    },
  };
}
