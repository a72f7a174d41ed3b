/**
 * The simulated overhead camera (Camera Module 3 over the bed) and its rpicam-vid/rpicam-still
 * stand-ins. See `sim-camera.ts` for the renderer, `optics.ts` for the projective model.
 */

export { FrameWorker } from "./frame-worker-host.js";
export { type CaptureSettings, DEFAULT_SIM_CAMERA_OPTIONS, type SimCameraOptions } from "./options.js";
export { type FrameSource, runRpicam } from "./rpicam-cli.js";
export {
  decodeSnapshot,
  encodeSnapshot,
  type SceneSnapshot,
  SnapshotFrameSource,
} from "./scene-snapshot.js";
export { SimCamera } from "./sim-camera.js";
