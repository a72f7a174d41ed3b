import { machineNames } from "../http/host-guard.js";
import { type Handler, json, type RawHandler } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import type { TokenStore } from "../mcp/tokens.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { Clock } from "../util/clock.js";
import { DashboardAuth } from "../web/auth.js";
import type { Dashboard } from "../web/dashboard.js";
import { agentApiRoutes, writeCliToken } from "./agent-api.js";
import type { AgentStack } from "./agent-stack.js";
import { bootStatusApiRoutes } from "./boot-status-api.js";
import { calibrationApiRoutes } from "./calibration-api.js";
import type { PiclawConfig } from "./config/schema.js";
import type { DaemonCalibration } from "./daemon-calibration.js";
import type { Readiness } from "./readiness.js";
import { rigApiRoutes } from "./rig-api.js";
import { setupRoutes } from "./setup/routes.js";
import type { SetupWizard } from "./setup/wizard.js";

/** Who may use the daemon's API: the dashboard's rules (login, MCP tokens, loopback), or the CLI token. */
export interface ApiAccess {
  auth: DashboardAuth;
  cliToken: string;
}

/**
 * The access rules of the daemon's API (`piclaw run`, `piclaw calibrate`, the wizard): the dashboard's
 * own when it runs, else the same rules built from the config; and a fresh CLI token in the state dir.
 */
export function daemonApiAccess(deps: {
  config: PiclawConfig;
  stateDir: string;
  dashboard: Dashboard | null;
  tokens: TokenStore;
  clock: Clock;
}): ApiAccess {
  const { config } = deps;
  return {
    auth:
      deps.dashboard?.auth ??
      new DashboardAuth({
        bindHost: config.server.host,
        mcp: config.mcp,
        tokens: deps.tokens,
        localNames: machineNames(),
        clock: deps.clock,
        loginMs: config.dashboard.loginHours * 3_600_000,
        trustProxy: config.dashboard.trustProxy,
      }),
    cliToken: writeCliToken(deps.stateDir),
  };
}

/** Every `/api/…` route of the daemon (agent, rig, boot status, calibration, setup wizard). */
export function daemonApiRoutes(deps: {
  config: PiclawConfig;
  access: ApiAccess;
  agent: AgentStack;
  owner: PhoneOwner;
  confirmParked: () => Promise<void>;
  calibration: () => DaemonCalibration | null;
  wizard: SetupWizard | null;
  log: Logger;
}): Record<string, RawHandler> {
  const { access, config } = deps;
  const log = deps.log.child("api");
  return {
    ...agentApiRoutes({ agent: deps.agent, ...access, log }),
    ...rigApiRoutes({
      confirmParked: deps.confirmParked,
      owner: deps.owner,
      priority: config.dashboard.priority,
      waitLimitMs: config.dashboard.waitLimitMs,
      ...access,
      log,
    }),
    ...bootStatusApiRoutes(access),
    ...calibrationApiRoutes({ calibration: deps.calibration, ...access, log }),
    ...(deps.wizard ? setupRoutes({ wizard: deps.wizard, ...access, log: deps.log.child("setup") }) : {}),
  };
}

/** `GET /healthz`: 200 only when the tools can act; the state and its reason either way. */
export function healthz(deps: { readiness: Readiness; backend: string; uptimeS: () => number }): Handler {
  return async () => {
    const r = deps.readiness.snapshot;
    return json(
      {
        status: r.state,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.detail ? { detail: r.detail } : {}),
        rig: deps.backend,
        uptimeS: deps.uptimeS(),
      },
      r.state === "ready" ? 200 : 503,
    );
  };
}

/** The degraded reason of a daemon whose rig waits for the operator to confirm the carriage at park. */
export function originReason(why: string): string {
  return `motion refused until the carriage is confirmed at park: ${why}`;
}
