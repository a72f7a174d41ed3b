import { statSync } from "node:fs";
import type { SessionStore } from "../agent/session-store.js";
import { bundlePaths, type CalibrationBundle, readBundle } from "../calibration/bundle.js";
import { machineNames } from "../http/host-guard.js";
import type { Logger } from "../log/logger.js";
import type { TokenStore } from "../mcp/tokens.js";
import type { MotionController } from "../rig/controller.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { Clock } from "../util/clock.js";
import type { ScreenView } from "../vision/pipeline.js";
import { Dashboard } from "../web/dashboard.js";
import { type DashboardSession, type DashboardSources, emptyJobsAndSessions } from "../web/sources.js";
import type { PiclawConfig } from "./config/schema.js";

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
    },
    calibration: bundleReader(parts.stateDir),
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
