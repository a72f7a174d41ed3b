import { dirname } from "node:path";
import { bundlePaths, readBundle, writeBundle, writeFailedBundle } from "../../calibration/bundle.js";
import type { CalibrationOptions } from "../../calibration/config.js";
import { type CalibrationRunDeps, checkCalibration, runCalibration } from "../../calibration/run.js";
import { fmtMm } from "../../calibration/taps.js";
import type { Logger } from "../../log/logger.js";
import type { Clock } from "../../util/clock.js";
import { seededRandom } from "../../util/random.js";
import {
  type CalibrationRigDeps,
  startHardwareCalibrationRig,
  startSimCalibrationRig,
} from "../calibration-rig.js";
import type { LoadedConfig } from "../config/load.js";

export interface CalibrateCommandDeps {
  clock: Clock;
  log: Logger;
  /** Progress lines go here (stdout). */
  write: (text: string) => void;
  /** Options; default: the config's `calibration` section. */
  options?: CalibrationOptions;
  /** Seed of the validation targets; default from the clock, printed so a run can be repeated. */
  seed?: number;
  /** Environment of the real camera's capture program (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Real rig: how long to wait for a paired phone with the bridge page open (default 120 s). */
  pageWaitMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `piclaw calibrate [--check]` against the configured rig: the simulated one (a SimRigStack with a real
 * motion driver), or the real one (`rig.backend: hardware`: motion board, camera, and the phone's bridge
 * page showing the pattern; the daemon must not be running). Prints one line per step; returns the exit code (0 = PASS, 1 = FAIL).
 * Calibrate writes `<stateDir>/calibration/bundle.json` on PASS (the old one kept as bundle.prev.json)
 * and `bundle.failed.json` on FAIL; `--check` re-validates the stored bundle and writes nothing.
 */
export async function calibrateCommand(
  loaded: LoadedConfig,
  check: boolean,
  deps: CalibrateCommandDeps,
): Promise<number> {
  const { config, stateDir } = loaded;
  const options = deps.options ?? config.calibration;
  const say = (line: string): void => deps.write(`${line}\n`);
  const started = deps.clock.now();
  const seed = deps.seed ?? deps.clock.now() % 2 ** 31;
  // Read the bundle before starting the rig, so a missing or corrupt one fails fast.
  const stored = check ? readBundle(bundlePaths(stateDir).current) : null;
  const baseDir = loaded.path ? dirname(loaded.path) : process.cwd();
  say(`starting the rig (${config.rig.backend}, profile ${config.rig.profile})`);
  const rigDeps: CalibrationRigDeps = {
    clock: deps.clock,
    log: deps.log,
    cwd: baseDir,
    stateDir,
    sleep,
    say,
    ...(deps.env ? { env: deps.env } : {}),
    ...(deps.pageWaitMs !== undefined ? { pageWaitMs: deps.pageWaitMs } : {}),
  };
  const rig =
    config.rig.backend === "hardware"
      ? await startHardwareCalibrationRig(config, rigDeps)
      : await startSimCalibrationRig(config, rigDeps);
  try {
    const runDeps: CalibrationRunDeps = {
      motion: rig.motion,
      agent: rig.agent,
      clock: deps.clock,
      sleep,
      random: seededRandom(seed),
      glassMm: rig.glassMm,
      report: say,
      grabFrame: rig.grabFrame,
      rigProfile: rig.rigProfile,
      phoneModel: rig.phoneModel,
    };
    say(`rig ready: ${rig.transport}; random seed ${seed}`);
    if (stored) {
      say(`checking ${bundlePaths(stateDir).current} (created ${stored.createdAt})`);
      const result = await checkCalibration(runDeps, stored, options);
      for (const f of result.failures) say(`failure: ${f}`);
      say(
        `${result.passed ? "PASS" : "FAIL"}: worst validation tap ${fmtMm(result.validation.maxErrorMm)} (${elapsed(deps.clock, started)})`,
      );
      return result.passed ? 0 : 1;
    }
    const result = await runCalibration(runDeps, options);
    for (const f of result.failures) say(`failure: ${f}`);
    const v = result.bundle.validation;
    say(
      `${result.passed ? "PASS" : "FAIL"}: worst validation tap ${fmtMm(v.maxErrorMm)} (limit ${fmtMm(v.thresholdMm)}; ${elapsed(deps.clock, started)})`,
    );
    if (result.passed) say(`calibration written to ${writeBundle(stateDir, result.bundle)}`);
    else
      say(
        `failed calibration kept for diagnosis at ${writeFailedBundle(stateDir, result.bundle)}; bundle.json unchanged`,
      );
    return result.passed ? 0 : 1;
  } finally {
    await rig.stop();
  }
}

function elapsed(clock: Clock, since: number): string {
  return `${((clock.now() - since) / 1000).toFixed(1)} s`;
}
