import type { BedPoint } from "../rig/motion.js";
import { applyHomography, type Mat3, type Point } from "../shared/homography.js";
import type { CalibrationOptions } from "./config.js";
import { fmtBed, fmtFrac, fmtMm, glassDistanceMm, randomTarget, type TapDeps, tapAndRead } from "./taps.js";

export interface ValidationTap {
  /** Where we aimed, screen fractions. */
  target: Point;
  /** Where the map sent the stylus, bed mm. */
  aimedBed: BedPoint;
  /** Where the phone says it was touched (screen fractions); null when it reported nothing. */
  reported: Point | null;
  /** Distance on the glass between target and report (mm); null for a tap that was not reported. */
  errorMm: number | null;
  passed: boolean;
}

export interface Validation {
  /** True only when every tap was reported within `thresholdMm` of its target. */
  passed: boolean;
  thresholdMm: number;
  taps: ValidationTap[];
  /** Largest error among reported taps (mm). */
  maxErrorMm: number;
}

export type ValidationOptions = CalibrationOptions["validation"] &
  Pick<CalibrationOptions["arm"], "marginX" | "marginTop" | "marginBottom" | "touchTimeoutMs">;

/**
 * Tap `taps` random targets through `screenToBed` and compare each with where the phone says it was
 * touched. Passes only when ALL are reported and within `passMm` on the glass — no "2 of 5". Motion
 * runs under whatever soft limits are set (after calibration: the screen plus a margin).
 */
export async function validateArm(
  deps: TapDeps,
  screenToBed: Mat3,
  o: ValidationOptions,
): Promise<Validation> {
  const taps: ValidationTap[] = [];
  for (let i = 0; i < o.taps; i++) {
    const target = randomTarget(deps.random, o);
    const p = applyHomography(screenToBed, target.x, target.y);
    const aimedBed = { xMm: p.x, yMm: p.y };
    const touch = await tapAndRead(deps, aimedBed, o.touchTimeoutMs);
    const reported = touch ? { x: touch.x, y: touch.y } : null;
    const errorMm = reported ? glassDistanceMm(target, reported, deps.glassMm) : null;
    const passed = errorMm !== null && errorMm <= o.passMm;
    taps.push({ target, aimedBed, reported, errorMm, passed });
    deps.report(
      `validation tap ${i + 1}/${o.taps} target ${fmtFrac(target)} at ${fmtBed(aimedBed)}: ` +
        (errorMm === null ? "no touch reported" : `error ${fmtMm(errorMm)}`) +
        (passed ? " ok" : " MISS"),
    );
  }
  const errors = taps.map((t) => t.errorMm ?? 0);
  return {
    passed: taps.every((t) => t.passed),
    thresholdMm: o.passMm,
    taps,
    maxErrorMm: Math.max(0, ...errors),
  };
}
