import type { RawHandler } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import type { PhoneOwner } from "../rig/owner.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { DashboardAuth } from "../web/auth.js";
import { refusal, send } from "./agent-api.js";

/** The path `piclaw rig reference --parked` posts to when a daemon runs. */
export const REFERENCE_PARKED_API_PATH = "/api/rig/reference-parked";

export interface RigApiDeps {
  /** `MotionController.confirmParked`, plus whatever the daemon does once the origin is confirmed. */
  confirmParked: () => Promise<void>;
  owner: PhoneOwner;
  /** The priority class the confirmation waits for the arm with (the dashboard's). */
  priority: string;
  /** How long it may wait for the arm's holder (ms). */
  waitLimitMs: number;
  auth: DashboardAuth;
  cliToken: string;
  log: Logger;
}

/**
 * `POST /api/rig/reference-parked` (no body): the operator's word that the carriage is at the park spot,
 * given while the daemon holds the serial port — `piclaw rig reference --parked` on the appliance, or a
 * script. Waits for the arm like every caller, clears a latched e-stop and references at park
 * (`MotionController.confirmParked`), even where the driver refused with MOTION_ORIGIN_UNCONFIRMED.
 * Answers `200 {ok, message}`, or `{error, code}`: 409 when the rig refuses (its code and message say
 * what to do). Access as the agent API (the local CLI token, or a dashboard
 * login with its action header).
 */
export function rigApiRoutes(deps: RigApiDeps): Record<string, RawHandler> {
  return {
    [REFERENCE_PARKED_API_PATH]: async (req, res) => {
      if (req.method !== "POST")
        return send(res, 405, { error: "use POST", code: "METHOD_NOT_ALLOWED" }, { allow: "POST" });
      const denied = refusal(req, "POST", deps);
      if (denied) return send(res, denied.status, { error: denied.message, code: "UNAUTHORIZED" });
      req.resume();
      const gone = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      const by = req.headers.authorization ? "piclaw rig reference --parked" : "dashboard login";
      try {
        const lease = await deps.owner.acquire({
          priority: deps.priority,
          label: "confirm parked",
          signal: gone.signal,
          waitLimitMs: deps.waitLimitMs,
        });
        try {
          deps.log.warn("the operator confirmed the carriage at the park spot", { by });
          await deps.confirmParked();
        } finally {
          lease.release();
        }
        send(res, 200, { ok: true, message: "referenced at the park spot; the arm may move" });
      } catch (err) {
        const code = err instanceof PiclawError ? err.code : "INTERNAL";
        deps.log.warn("confirming the carriage at park failed", { code, error: errorMessage(err) });
        send(res, code === "INTERNAL" ? 500 : 409, { error: errorMessage(err), code });
      }
    },
  };
}
