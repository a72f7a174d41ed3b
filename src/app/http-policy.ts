import type { IncomingMessage } from "node:http";
import { HostGuard } from "../http/host-guard.js";
import type { RequestPolicy } from "../http/server.js";
import type { McpConfig } from "../mcp/config.js";

/**
 * The daemon's one request policy (issue 19 item 3), run before every route of its public server:
 * - every path: Host and Origin name this machine (the names `/mcp` and the dashboard accept), so a
 *   DNS-rebinding page reads nothing — `/healthz` included, though it needs no token;
 * - `/sim/*` (the screen, the camera frame, the simulator's truth): the `/mcp` token rule, as the
 *   dashboard applies it (bearer token or dashboard login; none needed on loopback under `auto`).
 * Raw routes (`/mcp`, the dashboard, the agent API) keep their own checks on top; the Host check is
 * the same list, so it refuses nothing they would have let through.
 */
export interface DaemonPolicyOptions {
  /** `server.host`. */
  bindHost: string;
  mcp: Pick<McpConfig, "allowedHosts" | "allowedOrigins">;
  /** Names and addresses this machine answers to (`machineNames()`). */
  localNames: readonly string[];
  /** Who may read: the dashboard's rules (`DashboardAuth.check`). */
  auth: { check(req: IncomingMessage): { ok: true } | { ok: false; status: number; message: string } };
}

/** The prefix of the simulated rig's read-only routes. */
export const SIM_PREFIX = "/sim/";

export function daemonRequestPolicy(options: DaemonPolicyOptions): RequestPolicy {
  const guard = new HostGuard({
    bindHost: options.bindHost,
    localNames: options.localNames,
    allowedHosts: options.mcp.allowedHosts,
    allowedOrigins: options.mcp.allowedOrigins,
  });
  return (req, url) => {
    // 403, as `/mcp` answers a misdirected Host.
    const misdirected = guard.refusal(req);
    if (misdirected) return { status: 403, message: misdirected };
    if (!url.pathname.startsWith(SIM_PREFIX)) return null;
    const verdict = options.auth.check(req);
    if (verdict.ok) return null;
    return {
      status: verdict.status,
      message: verdict.message,
      ...(verdict.status === 401 ? { headers: { "www-authenticate": 'Bearer realm="piclaw"' } } : {}),
    };
  };
}
