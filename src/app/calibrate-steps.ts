import {
  bundlePaths,
  type CalibrationBundle,
  writeBundle,
  writeFailedBundle,
} from "../calibration/bundle.js";
import type { CalibrationOptions } from "../calibration/config.js";
import { type CalibrationRunDeps, checkCalibration, runCalibration } from "../calibration/run.js";
import { fmtMm } from "../calibration/taps.js";
import type { Clock } from "../util/clock.js";

export interface CalibrateStepsRequest {
  /** The rig's side of the run (motion, phone agent, camera); its `report` prints the step lines. */
  run: CalibrationRunDeps;
  options: CalibrationOptions;
  stateDir: string;
  /** The stored bundle to re-validate (`--check`), or null to make a new calibration. */
  stored: CalibrationBundle | null;
  /** One printed line per step (the same lines whether the CLI or the daemon runs them). */
  say: (line: string) => void;
  clock: Clock;
  /** Clock time the command started (the PASS/FAIL line shows the elapsed time). */
  started: number;
}

export interface CalibrateStepsResult {
  passed: boolean;
  /** The new bundle, written to `bundle.json`, when a calibration (not a check) passed; else null. */
  written: CalibrationBundle | null;
}

/**
 * The body of `piclaw calibrate [--check]`, shared by the CLI's in-process run and the daemon's
 * (`POST /api/calibrate`, the dashboard's button), so both print the same lines and write the same files:
 * a passing calibration → `bundle.json` (the old one kept as `bundle.prev.json`); a failing one →
 * `bundle.failed.json`, `bundle.json` unchanged; a check writes nothing. Throws what the steps throw.
 */
export async function calibrateSteps(req: CalibrateStepsRequest): Promise<CalibrateStepsResult> {
  const { say, stateDir, stored, options } = req;
  if (stored) {
    say(`checking ${bundlePaths(stateDir).current} (created ${stored.createdAt})`);
    const result = await checkCalibration(req.run, stored, options);
    for (const f of result.failures) say(`failure: ${f}`);
    say(
      `${result.passed ? "PASS" : "FAIL"}: worst validation tap ${fmtMm(result.validation.maxErrorMm)} (${elapsed(req.clock, req.started)})`,
    );
    return { passed: result.passed, written: null };
  }
  const result = await runCalibration(req.run, options);
  for (const f of result.failures) say(`failure: ${f}`);
  const v = result.bundle.validation;
  say(
    `${result.passed ? "PASS" : "FAIL"}: worst validation tap ${fmtMm(v.maxErrorMm)} (limit ${fmtMm(v.thresholdMm)}; ${elapsed(req.clock, req.started)})`,
  );
  if (result.passed) {
    say(`calibration written to ${writeBundle(stateDir, result.bundle)}`);
    return { passed: true, written: result.bundle };
  }
  say(
    `failed calibration kept for diagnosis at ${writeFailedBundle(stateDir, result.bundle)}; bundle.json unchanged`,
  );
  return { passed: false, written: null };
}

function elapsed(clock: Clock, since: number): string {
  return `${((clock.now() - since) / 1000).toFixed(1)} s`;
}
