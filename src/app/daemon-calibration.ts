import { type BridgeHandle, BridgePhoneAgent } from "../bridge/adapters.js";
import type { PhoneAgent } from "../calibration/agent.js";
import { bundlePaths, type CalibrationBundle, readBundle } from "../calibration/bundle.js";
import type { CalibrationOptions } from "../calibration/config.js";
import type { ArmMotion } from "../calibration/taps.js";
import type { Logger } from "../log/logger.js";
import type { MotionController } from "../rig/controller.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { RigSession } from "../tools/rig-session.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { seededRandom } from "../util/random.js";
import { calibrateSteps } from "./calibrate-steps.js";
import type { Readiness } from "./readiness.js";

export interface DaemonCalibrationDeps {
  options: CalibrationOptions;
  stateDir: string;
  /** The owner class the calibration asks the arm with (the most urgent one: a person is waiting). */
  priority: string;
  owner: PhoneOwner;
  motion: MotionController;
  /** The phone tools' session: it gets the new bundle (no restart), or keeps its old one. */
  session: RigSession;
  /** The phone side (the simulated phone, or the bridge page); throws when it cannot show the pattern. */
  agent: () => PhoneAgent;
  /** One frame of the daemon's own camera (JPEG). */
  grabFrame: () => Promise<Buffer>;
  glassMm: { width: number; height: number };
  rigProfile: string;
  phoneModel: string;
  /** What the progress line says about the rig, e.g. `sim, profile corexy-fluidnc`. */
  describeRig: string;
  readiness?: Readiness;
  /** Fires when the daemon stops: a calibration in progress ends (the arm lifts and parks). */
  stopping: AbortSignal;
  /** The phone side's clock: the taps' touch times are on it; also times the run. */
  clock: Clock;
  /** Dates stored or shown (the bundle's `createdAt`, the last run's `finishedAt`); default `clock`. */
  wallClock?: Clock;
  log: Logger;
  sleep: (ms: number) => Promise<void>;
}

export interface CalibrationRequest {
  check: boolean;
  /** Seed of the validation taps; default from the clock (printed, so a run can be repeated). */
  seed?: number;
  /** Who asked (`piclaw calibrate`, `dashboard:laptop`), for the arm's queue and the log. */
  by: string;
  /** Progress lines, the same as the in-process `piclaw calibrate` prints. */
  say: (line: string) => void;
  /** Ends the run (e.g. the CLI went away); the bundle in use stays. */
  signal?: AbortSignal;
}

/** The last finished run, for the dashboard. */
export interface CalibrationRunSummary {
  by: string;
  check: boolean;
  passed: boolean;
  /** The last line (PASS/FAIL …, or the error). */
  summary: string;
  finishedAt: number;
}

/**
 * `piclaw calibrate [--check]` inside the running daemon, with its camera, motion board and phone side, so
 * the CLI and the dashboard never fight the daemon for them. One run at a time, under the arm's lease
 * (never overlapping a tool call or an agent session). While it runs the readiness is `calibrating` (its
 * detail the latest line) and the tools and looks wait; afterwards the session uses the new bundle on PASS
 * and keeps the one it had otherwise, and the readiness is `ready` with a bundle in use, else `degraded`.
 */
export class DaemonCalibration {
  private current: { by: string; done: Promise<void> } | null = null;
  private lastRun: CalibrationRunSummary | null = null;

  constructor(private readonly deps: DaemonCalibrationDeps) {}

  /** Who runs a calibration now, or null. */
  get running(): string | null {
    return this.current?.by ?? null;
  }

  /** Resolves once no calibration runs (the daemon waits for this before stopping the camera). */
  async idle(): Promise<void> {
    await this.current?.done;
  }

  get last(): CalibrationRunSummary | null {
    return this.lastRun;
  }

  /**
   * Run one calibration (or check). Resolves with the verdict; throws CALIBRATION_RUNNING when one is
   * under way, CALIBRATION_BUNDLE_MISSING/INVALID for a check without a usable bundle and the phone side's
   * refusal (bridge off, page not open) before taking the arm, and whatever a step throws (the run is then over and the old bundle still in use).
   */
  async run(req: CalibrationRequest): Promise<{ passed: boolean }> {
    const { deps } = this;
    if (this.current)
      throw new PiclawError(
        "CALIBRATION_RUNNING",
        `a calibration is already running (asked by ${this.current.by})`,
      );
    const stored = req.check ? readBundle(bundlePaths(deps.stateDir).current) : null;
    // Before the arm and the readiness change: a phone side that cannot show the pattern refuses at once.
    const agent = deps.agent();
    let ended = (): void => {};
    this.current = { by: req.by, done: new Promise<void>((resolve) => (ended = resolve)) };
    const signal = req.signal ? AbortSignal.any([req.signal, deps.stopping]) : deps.stopping;
    const started = deps.clock.now();
    let last = "";
    let passed = false;
    const say = (line: string) => {
      last = line;
      req.say(line);
      deps.log.info(`calibration: ${line}`);
      deps.readiness?.progress(line);
    };
    try {
      const holder = deps.owner.status().holder;
      // Not a readiness detail: the tools can still act until the calibration has the arm.
      if (holder) {
        req.say(`waiting for the arm (in use by ${holder.label})`);
        deps.log.info("calibration waits for the arm", { holder: holder.label });
      }
      const lease = await deps.owner.acquire({
        priority: deps.priority,
        label: `calibration (${req.by})`,
        signal,
        waitLimitMs: 600_000,
      });
      try {
        const result = await this.underLease(req, { stored, agent }, signal, say, started);
        passed = result.passed;
        return result;
      } finally {
        lease.release();
      }
    } catch (err) {
      last = `error: ${errorMessage(err)}`;
      throw err;
    } finally {
      this.current = null;
      ended();
      this.lastRun = {
        by: req.by,
        check: req.check,
        passed,
        summary: last,
        finishedAt: (deps.wallClock ?? deps.clock).now(),
      };
    }
  }

  private async underLease(
    req: CalibrationRequest,
    { stored, agent }: { stored: CalibrationBundle | null; agent: PhoneAgent },
    signal: AbortSignal,
    say: (line: string) => void,
    started: number,
  ): Promise<{ passed: boolean }> {
    const { deps } = this;
    const { session, readiness } = deps;
    const before = session.currentBundle;
    readiness?.set("calibrating", `piclaw calibrate${req.check ? " --check" : ""} (asked by ${req.by})`);
    // Tools and looks wait for the run: the phone shows the pattern, and the soft limits change under it.
    let finish = (): void => {};
    session.setCalibrating(new Promise<void>((resolve) => (finish = resolve)));
    let written: CalibrationBundle | null = null;
    try {
      const seed = req.seed ?? deps.clock.now() % 2 ** 31;
      say(`rig ready: the daemon's (${deps.describeRig}); random seed ${seed}`);
      const result = await calibrateSteps({
        run: {
          motion: abortableMotion(deps.motion, signal, "the calibration was stopped"),
          agent,
          clock: deps.clock,
          sleep: deps.sleep,
          random: seededRandom(seed),
          glassMm: deps.glassMm,
          report: say,
          grabFrame: deps.grabFrame,
          rigProfile: deps.rigProfile,
          phoneModel: deps.phoneModel,
          ...(deps.wallClock ? { wallClock: deps.wallClock } : {}),
        },
        options: deps.options,
        stateDir: deps.stateDir,
        stored,
        say,
        clock: deps.clock,
        started,
      });
      written = result.written;
      return { passed: result.passed };
    } finally {
      // The steps change the soft limits: put back those of the bundle in use (the new one on PASS).
      const inUse = written ?? before;
      // With none in use, the tools and the readiness say the same thing.
      const missing = `not calibrated: the calibration asked by ${req.by} did not pass; run \`piclaw calibrate\``;
      if (inUse) session.setCalibration(inUse);
      else session.setUncalibrated(missing);
      finish();
      session.markRested();
      if (inUse) readiness?.set("ready");
      else readiness?.set("degraded", missing);
    }
  }
}

/** The motion controller for calibration, refusing new moves once `signal` fires (parking still works). */
export function abortableMotion(motion: MotionController, signal: AbortSignal, why: string): ArmMotion {
  return {
    gestures: motion.gestures,
    get allowedArea() {
      return motion.allowedArea;
    },
    run: (program) =>
      signal.aborted ? Promise.reject(new PiclawError("ABORTED", why)) : motion.run(program, signal),
    setAllowedArea: (area) => motion.setAllowedArea(area),
    park: () => motion.park(),
  };
}

/** The real phone's side of a calibration: the bridge page shows the pattern and reports the touches. */
export function bridgePatternAgent(bridge: BridgeHandle | null): PhoneAgent {
  if (!bridge)
    throw new PiclawError(
      "CALIBRATE_BRIDGE_DISABLED",
      "bridge.enabled: calibrating the real rig shows its pattern on the phone's bridge page: set bridge.enabled: true, " +
        "pair the phone (`piclaw bridge pair`), open the bridge page on it and restart the daemon",
      { key: "bridge.enabled" },
    );
  const s = bridge.status();
  if (s.pairedDevices.length === 0 || !s.page.connected || s.page.info === null)
    throw new PiclawError(
      "CALIBRATE_PAGE_NOT_OPEN",
      "the bridge page is not open on a paired phone: open it (full screen, screen on) and run `piclaw calibrate` again",
    );
  return new BridgePhoneAgent(bridge);
}
