import { dirname } from "node:path";
import { bundlePaths, readBundle } from "../../calibration/bundle.js";
import type { CalibrationOptions } from "../../calibration/config.js";
import type { Logger } from "../../log/logger.js";
import type { Clock } from "../../util/clock.js";
import { seededRandom } from "../../util/random.js";
import { sleep } from "../../util/sleep.js";
import { calibrateSteps } from "../calibrate-steps.js";
import {
  type CalibrationRigDeps,
  startHardwareCalibrationRig,
  startSimCalibrationRig,
} from "../calibration-rig.js";
import type { LoadedConfig } from "../config/load.js";
import { daemonLockPath, InstanceLock } from "../instance-lock.js";
import { calibrateThroughDaemon } from "./calibrate-remote.js";

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
  /** The PID of a daemon running on the state directory, or null; default: its lock file's live holder. */
  daemonPid?: () => number | null;
  /** HTTP client for the daemon's API (tests). */
  fetch?: typeof fetch;
}

/**
 * `piclaw calibrate [--check]`. With a daemon running on the state directory, the daemon calibrates
 * (through its API, see calibrate-remote.ts) and uses the new bundle at once. Otherwise in this process,
 * against the configured rig: the simulated one (a SimRigStack with a real motion driver), or the real
 * one (`rig.backend: hardware`: motion board, camera, and the phone's bridge page showing the pattern).
 * Prints one line per step; returns the exit code (0 = PASS, 1 = FAIL).
 * Calibrate writes `<stateDir>/calibration/bundle.json` on PASS (the old one kept as bundle.prev.json)
 * and `bundle.failed.json` on FAIL; `--check` re-validates the stored bundle and writes nothing.
 */
export async function calibrateCommand(
  loaded: LoadedConfig,
  check: boolean,
  deps: CalibrateCommandDeps,
): Promise<number> {
  const { config, stateDir } = loaded;
  // A daemon on this state directory holds the camera, the port and the phone side: it calibrates.
  const daemonPid = (deps.daemonPid ?? (() => new InstanceLock(daemonLockPath(stateDir)).liveHolder()))();
  if (daemonPid !== null)
    return calibrateThroughDaemon(loaded, check, daemonPid, {
      write: deps.write,
      ...(deps.seed !== undefined ? { seed: deps.seed } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
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
    say(`rig ready: ${rig.transport}; random seed ${seed}`);
    const { passed } = await calibrateSteps({
      run: {
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
      },
      options,
      stateDir,
      stored,
      say,
      clock: deps.clock,
      started,
    });
    return passed ? 0 : 1;
  } finally {
    await rig.stop();
  }
}
