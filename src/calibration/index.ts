/** Public surface of calibration: camera↔screen and screen↔arm maps, the bundle, the phone-side agent. */

export type { PhoneAgent, ScreenTouch } from "./agent.js";
export { type ArmFit, type ArmOptions, calibrateArm, screenArea } from "./arm.js";
export {
  BUNDLE_VERSION,
  bundlePaths,
  type CalibrationBundle,
  calibrationBundleSchema,
  parseBundle,
  readBundle,
  writeBundle,
  writeFailedBundle,
} from "./bundle.js";
export { type CameraFit, type CameraFitInput, calibrateCamera, type Residual } from "./camera.js";
export { type CalibrationOptions, calibrationConfigSchema } from "./config.js";
export { type CalibrationPattern, dotGridPattern, type PatternDot, patternSvg } from "./pattern.js";
export {
  type CalibrationOutcome,
  type CalibrationRunDeps,
  type CheckOutcome,
  checkCalibration,
  runCalibration,
} from "./run.js";
export type { ArmMotion, TapDeps } from "./taps.js";
export { type Validation, type ValidationTap, validateArm } from "./validate.js";
