import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Mat3 } from "../shared/homography.js";
import { writeFileAtomic, writeJsonAtomic } from "../util/atomic-file.js";
import { PiclawError } from "../util/errors.js";

/**
 * The calibration bundle: both maps, how well they fit and how validation went, written by
 * `piclaw calibrate` to `<stateDir>/calibration/bundle.json` and read by everything that turns screen
 * fractions into pixels or bed millimetres. Versioned: a reader refuses versions it does not know.
 */
export const BUNDLE_VERSION = 1;

const finite = z.number().refine(Number.isFinite, "must be a finite number");
const nonNegative = finite.refine((v) => v >= 0, "must be ≥ 0");
const mat3 = z
  .array(finite)
  .length(9, "must be 9 numbers (a row-major 3×3 matrix)")
  .transform((m) => m as Mat3);
const point = z.strictObject({ x: finite, y: finite });
const bedPoint = z.strictObject({ xMm: finite, yMm: finite });
const count = z.number().int().min(0);

export const calibrationBundleSchema = z.strictObject({
  version: z.literal(BUNDLE_VERSION),
  createdAt: z.iso.datetime(),
  rigProfile: z.string().min(1),
  phone: z.strictObject({
    model: z.string().min(1),
    glassMm: z.strictObject({ width: finite.refine((v) => v > 0), height: finite.refine((v) => v > 0) }),
  }),
  camera: z.strictObject({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** Screen fractions → camera pixels (continuous pixel coordinates). */
    screenToCamera: mat3,
    markers: z.strictObject({ expected: count, found: count, inliers: count }),
    reprojection: z.strictObject({
      rmsPx: nonNegative,
      maxPx: nonNegative,
      rmsMm: nonNegative,
      maxMm: nonNegative,
    }),
  }),
  arm: z.strictObject({
    /** Screen fractions → bed millimetres. */
    screenToBed: mat3,
    pairs: count,
    inliers: count,
    residual: z.strictObject({ rmsMm: nonNegative, maxMm: nonNegative }),
    allowedArea: z.strictObject({ minXMm: finite, minYMm: finite, maxXMm: finite, maxYMm: finite }),
  }),
  validation: z.strictObject({
    passed: z.boolean(),
    thresholdMm: nonNegative,
    taps: z.array(
      z.strictObject({
        target: point,
        aimedBed: bedPoint,
        reported: point.nullable(),
        errorMm: nonNegative.nullable(),
        passed: z.boolean(),
      }),
    ),
    maxErrorMm: nonNegative,
  }),
});

export type CalibrationBundle = z.infer<typeof calibrationBundleSchema>;

/** Where bundles live under the state directory. */
export function bundlePaths(stateDir: string): { current: string; previous: string; failed: string } {
  const dir = join(stateDir, "calibration");
  return {
    current: join(dir, "bundle.json"),
    previous: join(dir, "bundle.prev.json"),
    failed: join(dir, "bundle.failed.json"),
  };
}

/** Validate a parsed document. Throws CALIBRATION_BUNDLE_INVALID naming the first bad field. */
export function parseBundle(doc: unknown, source = "calibration bundle"): CalibrationBundle {
  const version = (doc as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version !== BUNDLE_VERSION)
    throw new PiclawError(
      "CALIBRATION_BUNDLE_INVALID",
      `${source}: version ${version} is not supported (this piclaw reads version ${BUNDLE_VERSION}); recalibrate`,
      { field: "version" },
    );
  const result = calibrationBundleSchema.safeParse(doc);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    field:
      i.path
        .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
        .join(".")
        .replace(/\.\[/g, "[") || "(root)",
    reason: i.message,
  }));
  const first = issues[0];
  throw new PiclawError(
    "CALIBRATION_BUNDLE_INVALID",
    `${source}: invalid calibration bundle: ${issues
      .slice(0, 5)
      .map((i) => `${i.field}: ${i.reason}`)
      .join("; ")}`,
    { field: first?.field, issues },
  );
}

/** Read and validate a bundle file. Throws CALIBRATION_BUNDLE_MISSING or CALIBRATION_BUNDLE_INVALID. */
export function readBundle(path: string): CalibrationBundle {
  if (!existsSync(path))
    throw new PiclawError(
      "CALIBRATION_BUNDLE_MISSING",
      `no calibration at ${path}; run \`piclaw calibrate\``,
      {
        path,
      },
    );
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new PiclawError(
      "CALIBRATION_BUNDLE_INVALID",
      `${path}: not valid JSON: ${(err as Error).message}`,
      {
        path,
      },
    );
  }
  return parseBundle(doc, path);
}

/** Validate and write a bundle as the current one, keeping the old one as `bundle.prev.json`. */
export function writeBundle(stateDir: string, bundle: CalibrationBundle): string {
  const checked = parseBundle(bundle, "new calibration bundle");
  const paths = bundlePaths(stateDir);
  // The old bundle is copied aside first (atomically too), so `current` is never missing or half-written.
  if (existsSync(paths.current)) writeFileAtomic(paths.previous, readFileSync(paths.current));
  writeJsonAtomic(paths.current, checked);
  return paths.current;
}

/** Keep a failed calibration for diagnosis without replacing the working one. */
export function writeFailedBundle(stateDir: string, bundle: CalibrationBundle): string {
  const paths = bundlePaths(stateDir);
  writeJsonAtomic(paths.failed, bundle);
  return paths.failed;
}
