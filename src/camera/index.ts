/**
 * The overhead camera driver. `Camera` (camera.ts) is the contract; `RpicamVidCamera` streams MJPEG from
 * one long-lived `rpicam-vid` (restarted with backoff when it exits or stalls), `RpicamStillCamera`
 * runs `rpicam-still --immediate` per grab (the test double is `FakeCamera` in test/fakes/camera.ts).
 * Config section: `cameraConfigSchema` (options.ts). This file exports only what the composition root
 * uses: the contract and `createCamera`. On the simulated rig, point `vidBinary` /
 * `stillBinary` at `bin/sim/rpicam-vid` / `bin/sim/rpicam-still` and pass `PICLAW_SIM_SOCKET` in `env`.
 */
import type { Camera } from "./camera.js";
import type { CameraConfig } from "./options.js";
import type { RpicamCameraDeps } from "./rpicam-deps.js";
import { RpicamStillCamera } from "./rpicam-still.js";
import { RpicamVidCamera } from "./rpicam-vid.js";

export type { Camera } from "./camera.js";
export type { CameraConfig } from "./options.js";
export type { RpicamCameraDeps } from "./rpicam-deps.js";

/** The real camera a config asks for (`mode: vid` or `still`). */
export function createCamera(config: CameraConfig, deps: RpicamCameraDeps): Camera {
  return config.mode === "still" ? new RpicamStillCamera(config, deps) : new RpicamVidCamera(config, deps);
}
