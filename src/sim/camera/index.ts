/**
 * The simulated overhead camera (Camera Module 3 over the bed) and its rpicam-vid/rpicam-still
 * stand-ins. See `sim-camera.ts` for the renderer, `optics.ts` for the projective model.
 */
export {
  applyHomography,
  type CameraView,
  type CameraViewInput,
  cameraView,
  focalLengthPx,
  glassToPixelHomography,
  type Mat3,
  mat3Inverse,
  type PixelPoint,
  projectGlassPoint,
} from "./optics.js";
export {
  type BedLook,
  type CameraLens,
  type CameraPlacement,
  type CaptureSettings,
  type CarriageLook,
  DEFAULT_SIM_CAMERA_OPTIONS,
  type GlareSpot,
  type PhoneLook,
  type Rgb,
  type SensorModel,
  type SimCameraOptions,
} from "./options.js";
export { parseRpicamArgs, type RpicamMode, type RpicamOptions, RpicamUsageError } from "./rpicam-args.js";
export { type FrameSource, type RpicamDeps, runRpicam } from "./rpicam-cli.js";
export {
  type CarriagePosition,
  SimCamera,
  type SimCameraInit,
  type VersionedScreenSource,
} from "./sim-camera.js";
