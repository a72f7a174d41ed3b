/**
 * The overhead camera driver. `Camera` (camera.ts) is the contract; `RpicamVidCamera` streams MJPEG from
 * one long-lived `rpicam-vid` (restarted with backoff when it exits or stalls), `RpicamStillCamera`
 * runs `rpicam-still --immediate` per grab, `FakeCamera` serves frames from an injected source.
 * Config section: `cameraConfigSchema` (options.ts). On the simulated rig, point `vidBinary` /
 * `stillBinary` at `bin/sim/rpicam-vid` / `bin/sim/rpicam-still` and pass `PICLAW_SIM_SOCKET` in `env`.
 */
import type { Camera } from "./camera.js";
import type { CameraConfig } from "./options.js";
import { RpicamStillCamera } from "./rpicam-still.js";
import { type RpicamCameraDeps, RpicamVidCamera } from "./rpicam-vid.js";

export {
  type Camera,
  CameraErrorCode,
  type CameraFrame,
  type GrabOptions,
} from "./camera.js";
export { jpegSize, MjpegSplitter, type SplitFrame } from "./mjpeg.js";
export { type CameraConfig, cameraConfigSchema, rpicamStillArgs, rpicamVidArgs } from "./options.js";
export { RpicamStillCamera } from "./rpicam-still.js";
export { type RpicamCameraDeps, RpicamVidCamera, type RpicamVidStatus } from "./rpicam-vid.js";

/** The real camera a config asks for (`mode: vid` or `still`). */
export function createCamera(config: CameraConfig, deps: RpicamCameraDeps): Camera {
  return config.mode === "still" ? new RpicamStillCamera(config, deps) : new RpicamVidCamera(config, deps);
}
