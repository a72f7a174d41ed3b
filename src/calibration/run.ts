import type { PointPair } from "../shared/homography.js";
import type { Clock } from "../util/clock.js";
import { type ArmFit, calibrateArm } from "./arm.js";
import { decodeGray, findBlobs } from "./blobs.js";
import type { CalibrationBundle } from "./bundle.js";
import { BUNDLE_VERSION } from "./bundle.js";
import { type CameraFit, calibrateCamera, reprojection } from "./camera.js";
import type { CalibrationOptions } from "./config.js";
import { matchPattern } from "./markers.js";
import { type CalibrationPattern, dotGridPattern } from "./pattern.js";
import { fmtMm, type TapDeps } from "./taps.js";
import { type Validation, validateArm } from "./validate.js";

export interface CalibrationRunDeps extends TapDeps {
  /** One camera frame (JPEG) at the resolution the vision pipeline uses. */
  grabFrame: () => Promise<Buffer>;
  /** Recorded in the bundle. */
  rigProfile: string;
  phoneModel: string;
  /**
   * The date recorded in the bundle (`createdAt`); default `clock`. Give the wall clock here when `clock`
   * is a steady one (the taps' times are on `clock`, the phone side's).
   */
  wallClock?: Clock;
}

export interface CalibrationOutcome {
  /** Validation passed and the camera fit is within its limit. */
  passed: boolean;
  /** Why it did not pass (empty when it did). */
  failures: string[];
  bundle: CalibrationBundle;
}

const px = (v: number): string => `${v.toFixed(3)} px`;

/**
 * The whole calibration: park, show the pattern, fit camera↔screen from one frame, fit screen↔arm from
 * taps, restrict the soft limits to the screen plus a margin, validate with random taps, clear the
 * pattern and park. Returns the bundle whether or not it passed (the caller decides where to write it);
 * throws a PiclawError when a step cannot complete at all (pattern not found, screen not found, …).
 */
export async function runCalibration(
  deps: CalibrationRunDeps,
  options: CalibrationOptions,
): Promise<CalibrationOutcome> {
  const pattern = dotGridPattern({ cols: options.pattern.cols, rows: options.pattern.rows });
  const { motion, report } = deps;
  motion.setAllowedArea(null);
  await motion.park();
  report("carriage parked (whole travel allowed until calibrated)");
  await deps.agent.showPattern(pattern);
  report(`pattern shown: ${pattern.cols}×${pattern.rows} dots`);
  let camera: CameraFit;
  let arm: ArmFit;
  let validation: Validation;
  try {
    camera = await calibrateCamera({
      grabFrame: deps.grabFrame,
      pattern,
      glassMm: deps.glassMm,
      random: deps.random,
      ransacThresholdPx: options.camera.ransacThresholdPx,
      minMarkers: options.camera.minMarkers,
    });
    const r = camera.reprojection;
    report(
      `${camera.markers.found}/${camera.markers.expected} markers found, ${camera.markers.inliers} inliers`,
    );
    report(
      `camera reprojection error: rms ${px(r.rmsPx)} (${fmtMm(r.rmsMm)}), max ${px(r.maxPx)} (${fmtMm(r.maxMm)})`,
    );
    arm = await calibrateArm(deps, options.arm);
    report(
      `arm fit: ${arm.inliers}/${arm.pairs} taps inliers, residual rms ${fmtMm(arm.residual.rms)}, max ${fmtMm(arm.residual.max)}`,
    );
    motion.setAllowedArea(arm.allowedArea);
    const a = motion.allowedArea;
    report(
      `soft limits: x ${a.minXMm.toFixed(1)}…${a.maxXMm.toFixed(1)}, y ${a.minYMm.toFixed(1)}…${a.maxYMm.toFixed(1)} mm`,
    );
    validation = await validateArm(deps, arm.screenToBed, { ...options.validation, ...options.arm });
  } finally {
    await deps.agent.clearPattern();
    await motion.park();
  }
  const failures: string[] = [];
  if (camera.reprojection.rmsPx > options.camera.maxRmsPx)
    failures.push(
      `camera reprojection rms ${px(camera.reprojection.rmsPx)} > ${px(options.camera.maxRmsPx)}`,
    );
  if (!validation.passed) failures.push(validationFailure(validation));
  if (failures.length > 0) motion.setAllowedArea(null); // do not leave soft limits from a map that failed
  return { passed: failures.length === 0, failures, bundle: assemble(deps, camera, arm, validation) };
}

function validationFailure(v: Validation): string {
  const bad = v.taps.filter((t) => !t.passed).length;
  return `validation: ${bad} of ${v.taps.length} taps outside ${fmtMm(v.thresholdMm)} (worst ${fmtMm(v.maxErrorMm)})`;
}

function assemble(
  deps: CalibrationRunDeps,
  camera: CameraFit,
  arm: ArmFit,
  validation: Validation,
): CalibrationBundle {
  return {
    version: BUNDLE_VERSION,
    createdAt: new Date((deps.wallClock ?? deps.clock).now()).toISOString(),
    rigProfile: deps.rigProfile,
    phone: { model: deps.phoneModel, glassMm: { ...deps.glassMm } },
    camera: {
      width: camera.width,
      height: camera.height,
      screenToCamera: camera.screenToCamera,
      markers: camera.markers,
      reprojection: camera.reprojection,
    },
    arm: {
      screenToBed: arm.screenToBed,
      pairs: arm.pairs,
      inliers: arm.inliers,
      residual: { rmsMm: arm.residual.rms, maxMm: arm.residual.max },
      allowedArea: arm.allowedArea,
    },
    validation,
  };
}

export interface CheckOutcome {
  passed: boolean;
  failures: string[];
  /** The stored camera map against dots found in a fresh frame. */
  camera: CameraFit["reprojection"] & { markers: number };
  validation: Validation;
}

/**
 * Re-validate a stored bundle without refitting: the stored camera map against a fresh frame of the
 * pattern, and fresh random taps through the stored arm map under the stored soft limits.
 */
export async function checkCalibration(
  deps: CalibrationRunDeps,
  bundle: CalibrationBundle,
  options: CalibrationOptions,
): Promise<CheckOutcome> {
  const failures: string[] = [];
  const g = bundle.phone.glassMm;
  if (Math.abs(g.width - deps.glassMm.width) > 0.01 || Math.abs(g.height - deps.glassMm.height) > 0.01)
    failures.push(
      `the bundle is for a ${g.width.toFixed(1)}×${g.height.toFixed(1)} mm screen, not this phone`,
    );
  const pattern: CalibrationPattern = dotGridPattern({
    cols: options.pattern.cols,
    rows: options.pattern.rows,
  });
  const { motion, report } = deps;
  motion.setAllowedArea(bundle.arm.allowedArea);
  await motion.park();
  await deps.agent.showPattern(pattern);
  report(`pattern shown: ${pattern.cols}×${pattern.rows} dots`);
  let camera: CheckOutcome["camera"];
  let validation: Validation;
  try {
    const gray = await decodeGray(await deps.grabFrame());
    const found = matchPattern(findBlobs(gray), pattern, deps.glassMm);
    const pairs: PointPair[] = found.matches.map((m) => ({ from: { x: m.dot.x, y: m.dot.y }, to: m.px }));
    camera = { ...reprojection(bundle.camera.screenToCamera, pairs, deps.glassMm), markers: pairs.length };
    report(`${pairs.length}/${pattern.dots.length} markers found`);
    report(
      `stored camera map vs fresh markers: rms ${px(camera.rmsPx)} (${fmtMm(camera.rmsMm)}), max ${px(camera.maxPx)}`,
    );
    if (gray.width !== bundle.camera.width || gray.height !== bundle.camera.height)
      failures.push(
        `camera frame is ${gray.width}×${gray.height}, the bundle's map is for ${bundle.camera.width}×${bundle.camera.height}`,
      );
    else if (camera.rmsPx > options.camera.maxRmsPx)
      failures.push(
        `camera map off by rms ${px(camera.rmsPx)} > ${px(options.camera.maxRmsPx)}: the phone or camera moved`,
      );
    validation = await validateArm(deps, bundle.arm.screenToBed, { ...options.validation, ...options.arm });
  } finally {
    await deps.agent.clearPattern();
    await motion.park();
  }
  if (!validation.passed) failures.push(validationFailure(validation));
  return { passed: failures.length === 0, failures, camera, validation };
}
