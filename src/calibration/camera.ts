import {
  applyHomography,
  fitHomographyRobust,
  type Mat3,
  mat3Inverse,
  type PointPair,
} from "../shared/homography.js";
import { PiclawError } from "../util/errors.js";
import type { Random } from "../util/random.js";
import { decodeGray, findBlobs } from "./blobs.js";
import { type MarkerMatch, matchPattern } from "./markers.js";
import type { CalibrationPattern } from "./pattern.js";

/** Error statistics of a fit: root-mean-square and worst case. */
export interface Residual {
  rms: number;
  max: number;
}

export interface CameraFit {
  /** Screen fractions (0–1) → camera pixels (continuous: pixel (i, j) covers [i, i+1) × [j, j+1)). */
  screenToCamera: Mat3;
  width: number;
  height: number;
  markers: { expected: number; found: number; inliers: number };
  /** Over the inliers: distance between found and predicted dot centres, in pixels and in glass mm. */
  reprojection: { rmsPx: number; maxPx: number; rmsMm: number; maxMm: number };
}

export interface CameraFitInput {
  /** One camera frame (JPEG or PNG) showing the pattern; the carriage should be parked out of view. */
  grabFrame: () => Promise<Buffer>;
  pattern: CalibrationPattern;
  glassMm: { width: number; height: number };
  random: Random;
  ransacThresholdPx: number;
  minMarkers: number;
}

/**
 * Fit the camera↔screen homography: grab a frame of the pattern, find the dots, fit robustly.
 * Throws CALIBRATION_PATTERN_NOT_FOUND when the pattern is not in the frame (or fewer than `minMarkers`
 * of its dots) and CALIBRATION_CAMERA_FIT when too few dots agree with one homography.
 */
export async function calibrateCamera(input: CameraFitInput): Promise<CameraFit> {
  const frame = await input.grabFrame();
  const gray = await decodeGray(frame);
  const found = matchPattern(findBlobs(gray), input.pattern, input.glassMm);
  const fit = fitCameraMatches(found.matches, input);
  return { ...fit, width: gray.width, height: gray.height };
}

/** The robust fit and its statistics for matched dots (exported for re-checking a stored map). */
export function fitCameraMatches(
  matches: readonly MarkerMatch[],
  input: Pick<CameraFitInput, "pattern" | "glassMm" | "random" | "ransacThresholdPx" | "minMarkers">,
): Omit<CameraFit, "width" | "height"> {
  const expected = input.pattern.dots.length;
  const pairs: PointPair[] = matches.map((m) => ({ from: { x: m.dot.x, y: m.dot.y }, to: m.px }));
  if (pairs.length < input.minMarkers)
    throw new PiclawError(
      "CALIBRATION_PATTERN_NOT_FOUND",
      `only ${pairs.length} of ${expected} pattern dots found (need ${input.minMarkers})`,
      { found: pairs.length, expected },
    );
  const robust = fitHomographyRobust(pairs, {
    threshold: input.ransacThresholdPx,
    random: input.random,
    iterations: 200,
  });
  if (robust.inliers.length < input.minMarkers)
    throw new PiclawError(
      "CALIBRATION_CAMERA_FIT",
      `only ${robust.inliers.length} dots agree with one homography within ${input.ransacThresholdPx} px`,
      { inliers: robust.inliers.length, found: pairs.length },
    );
  const inlierPairs = robust.inliers.map((i) => pairs[i] as PointPair);
  return {
    screenToCamera: robust.h,
    markers: { expected, found: pairs.length, inliers: robust.inliers.length },
    reprojection: reprojection(robust.h, inlierPairs, input.glassMm),
  };
}

/** Reprojection error of `h` on screen-fraction → pixel pairs, in pixels and in glass millimetres. */
export function reprojection(
  h: Mat3,
  pairs: readonly PointPair[],
  glassMm: { width: number; height: number },
): CameraFit["reprojection"] {
  const inv = mat3Inverse(h);
  const px: number[] = [];
  const mm: number[] = [];
  for (const { from, to } of pairs) {
    const p = applyHomography(h, from.x, from.y);
    px.push(Math.hypot(p.x - to.x, p.y - to.y));
    // The same miss measured on the glass: where the found centre lies on the screen vs. the dot.
    const back = applyHomography(inv, to.x, to.y);
    mm.push(Math.hypot((back.x - from.x) * glassMm.width, (back.y - from.y) * glassMm.height));
  }
  const a = stats(px);
  const b = stats(mm);
  return { rmsPx: a.rms, maxPx: a.max, rmsMm: b.rms, maxMm: b.max };
}

export function stats(values: readonly number[]): Residual {
  if (values.length === 0) return { rms: 0, max: 0 };
  let sq = 0;
  let max = 0;
  for (const v of values) {
    sq += v * v;
    if (v > max) max = v;
  }
  return { rms: Math.sqrt(sq / values.length), max };
}
