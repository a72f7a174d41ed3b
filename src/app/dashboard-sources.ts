import { statSync } from "node:fs";
import type { SessionStore } from "../agent/session-store.js";
import { bundlePaths, type CalibrationBundle, readBundle } from "../calibration/bundle.js";
import { machineNames } from "../http/host-guard.js";
import type { Logger } from "../log/logger.js";
import type { TokenStore } from "../mcp/tokens.js";
import type { MotionController } from "../rig/controller.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { ScreenView } from "../vision/pipeline.js";
import { Dashboard } from "../web/dashboard.js";
import {
  type DashboardCalibrator,
  type DashboardSession,
  type DashboardSources,
  emptyJobsAndSessions,
} from "../web/sources.js";
import type { PiclawConfig } from "./config/schema.js";
import type { DaemonCalibration } from "./daemon-calibration.js";
import type { Readiness } from "./readiness.js";
import { setupDone } from "./setup/wizard.js";

/** What the daemon has that the dashboard shows. */
export interface DaemonDashboardParts {
  config: PiclawConfig;
  stateDir: string;
  motion: MotionController;
  /** The rig profile's travel (mm). */
  travelMm: { x: number; y: number };
  owner: PhoneOwner;
  /** The phone tools' look (PhoneToolStack.look): rectified, read, annotated. */
  look(signal: AbortSignal): Promise<ScreenView>;
  tokens: TokenStore;
  clock: Clock;
  log: Logger;
  /** Jobs and sessions; default: empty lists (until the real stores are connected). */
  extra?: Partial<Pick<DashboardSources, "jobs" | "sessions" | "sessionImage">>;
  /**
   * The bundle the phone tools use now (PhoneToolStack.currentBundle), so the calibration part agrees
   * with the phone view; default: the file on disk.
   */
  bundleInUse?: () => CalibrationBundle | null;
  /** The daemon's readiness, for the banner. */
  readiness?: Readiness;
  /** Calibration on request (the phone stack's), for the Calibrate button. */
  calibration?: () => DaemonCalibration | null;
  /** The rig in words for the header (`rigLabel`). */
  rigLabel?: () => string;
  /** "Carriage at park"; default: `motion.confirmParked()`. */
  confirmParked?: () => Promise<void>;
}

/** The dashboard on the daemon's real parts, with the MCP endpoint's access rules. */
export function createDaemonDashboard(parts: DaemonDashboardParts): Dashboard {
  const { config, motion } = parts;
  const sources: DashboardSources = {
    owner: parts.owner,
    arm: {
      status: () => motion.status(),
      get estopLatched() {
        return motion.estopLatched;
      },
      get allowedArea() {
        return motion.allowedArea;
      },
      travelMm: parts.travelMm,
      park: () => motion.park(),
      estop: (reason) => motion.estop(reason),
      resetEstop: () => motion.resetEstop(),
      reference: () => motion.reference(),
      confirmParked: parts.confirmParked ?? (() => motion.confirmParked()),
    },
    calibration: parts.bundleInUse ? async () => parts.bundleInUse?.() ?? null : bundleReader(parts.stateDir),
    ...(parts.readiness
      ? { readiness: () => parts.readiness?.snapshot ?? { state: "starting", since: 0 } }
      : {}),
    ...(parts.calibration ? { calibrator: dashboardCalibrator(parts.calibration, parts.log) } : {}),
    ...(parts.rigLabel
      ? {
          rig: () => ({
            label: parts.rigLabel?.() ?? "",
            simulated: config.rig.backend === "sim",
            setupDone: setupDone(parts.stateDir),
          }),
        }
      : {}),
    look: async (signal) => {
      const view = await parts.look(signal);
      return { jpeg: view.image, listing: view.listing };
    },
    ...emptyJobsAndSessions,
    ...parts.extra,
  };
  return new Dashboard({
    config: config.dashboard,
    sources,
    auth: {
      bindHost: config.server.host,
      mcp: config.mcp,
      tokens: parts.tokens,
      localNames: machineNames(),
    },
    clock: parts.clock,
    log: parts.log,
  });
}

/** The Calibrate button: a calibration in the daemon, in the background (its lines go to the log). */
function dashboardCalibrator(calibration: () => DaemonCalibration | null, log: Logger): DashboardCalibrator {
  return {
    start: (by) => {
      const cal = calibration();
      if (!cal) throw new PiclawError("TOOLS_NOT_STARTED", "the phone tools are not started yet");
      if (cal.running)
        throw new PiclawError(
          "CALIBRATION_RUNNING",
          `a calibration is already running (asked by ${cal.running})`,
        );
      cal.run({ check: false, by, say: () => undefined }).catch((err: unknown) => {
        log.warn("calibration from the dashboard failed", { error: errorMessage(err) });
      });
    },
    status: () => {
      const cal = calibration();
      return { running: cal?.running ?? null, last: cal?.last ?? null };
    },
  };
}

/** The current bundle, re-read only when the file changes (the page polls every second or so). */
export function bundleReader(stateDir: string): () => Promise<CalibrationBundle | null> {
  const path = bundlePaths(stateDir).current;
  let cached: { key: string; bundle: CalibrationBundle } | null = null;
  return async () => {
    let key: string;
    try {
      const st = statSync(path);
      key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      cached = null;
      return null;
    }
    if (cached?.key !== key) cached = { key, bundle: readBundle(path) };
    return cached.bundle;
  };
}

/** The dashboard's view of the traces (`DashboardSources.sessions` / `sessionImage` in src/web/sources.ts). */
export function dashboardSessionSources(
  store: SessionStore,
): Pick<DashboardSources, "sessions" | "sessionImage"> {
  return {
    sessions: async (limit) =>
      (await store.list(limit)).map(
        (s): DashboardSession => ({
          id: s.sessionId,
          startedAt: s.startedAt,
          endedAt: s.endedAt,
          status: s.status,
          recap: s.recap,
          notes: s.notes.map((n) => n.summary),
          images: s.images,
        }),
      ),
    sessionImage: async (sessionId, name) => {
      const body = await store.image(sessionId, name).catch(() => null);
      return body ? { contentType: "image/jpeg", body } : null;
    },
  };
}
