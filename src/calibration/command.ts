import { dirname } from "node:path";
import type { LoadedConfig } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import { SimRigStack } from "../service/rig-stack.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { seededRandom } from "../util/random.js";
import { bundlePaths, readBundle, writeBundle, writeFailedBundle } from "./bundle.js";
import type { CalibrationOptions } from "./config.js";
import { type CalibrationRunDeps, checkCalibration, runCalibration } from "./run.js";
import { SimPhoneAgent } from "./sim-agent.js";
import { fmtMm } from "./taps.js";

export interface CalibrateCommandDeps {
  clock: Clock;
  log: Logger;
  /** Progress lines go here (stdout). */
  write: (text: string) => void;
  /** Options; default: the config's `calibration` section. */
  options?: CalibrationOptions;
  /** Seed of the validation targets; default from the clock, printed so a run can be repeated. */
  seed?: number;
}

/**
 * `piclaw calibrate [--check]` against the configured rig (the simulated rig today: a SimRigStack with a
 * real motion driver). Prints one line per step; returns the exit code (0 = PASS, 1 = FAIL).
 * Calibrate writes `<stateDir>/calibration/bundle.json` on PASS (the old one kept as bundle.prev.json)
 * and `bundle.failed.json` on FAIL; `--check` re-validates the stored bundle and writes nothing.
 */
export async function calibrateCommand(
  loaded: LoadedConfig,
  check: boolean,
  deps: CalibrateCommandDeps,
): Promise<number> {
  const { config, stateDir } = loaded;
  // Only the simulated rig calibrates from the CLI today; on a real rig this would calibrate a simulated
  // one and write a bundle the real rig would then trust (same profile and phone names).
  if (config.rig.backend !== "sim")
    throw new PiclawError(
      "CALIBRATE_UNSUPPORTED",
      "rig.backend: hardware: `piclaw calibrate` only drives the simulated rig so far (real-rig calibration through the bridge page is not wired yet)",
      { key: "rig.backend" },
    );
  const options = deps.options ?? config.calibration;
  const say = (line: string): void => deps.write(`${line}\n`);
  const started = deps.clock.now();
  const seed = deps.seed ?? deps.clock.now() % 2 ** 31;
  // Read the bundle before starting the rig, so a missing or corrupt one fails fast.
  const stored = check ? readBundle(bundlePaths(stateDir).current) : null;
  const baseDir = loaded.path ? dirname(loaded.path) : process.cwd();
  const stack = new SimRigStack(config, { clock: deps.clock, log: deps.log, cwd: baseDir });
  say(`starting the rig (${config.rig.backend}, profile ${config.rig.profile})`);
  await stack.start();
  try {
    const rig = stack.rig;
    const cam = config.sim.camera;
    const runDeps: CalibrationRunDeps = {
      motion: stack.motion,
      agent: new SimPhoneAgent(rig.phone),
      clock: deps.clock,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: seededRandom(seed),
      glassMm: rig.phone.geometry.glassMm,
      report: say,
      grabFrame: () => rig.captureFrame({ width: cam.width, height: cam.height }),
      rigProfile: rig.profile.name,
      phoneModel: rig.phone.geometry.name,
    };
    say(`rig ready: ${stack.transport}; random seed ${seed}`);
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
    await stack.stop();
  }
}

function elapsed(clock: Clock, since: number): string {
  return `${((clock.now() - since) / 1000).toFixed(1)} s`;
}
