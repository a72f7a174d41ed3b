import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readJsonBody } from "../http/body.js";
import type { RawHandler } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { DashboardAuth } from "../web/auth.js";
import { refusal, send } from "./agent-api.js";
import type { DaemonCalibration } from "./daemon-calibration.js";

/** The path `piclaw calibrate` posts to when a daemon runs. */
export const CALIBRATE_API_PATH = "/api/calibrate";

const calibrateBody = z.strictObject({
  check: z.boolean().default(false),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional(),
});

export interface CalibrationApiDeps {
  /** The phone stack's calibration, or null while it is not started. */
  calibration: () => DaemonCalibration | null;
  auth: DashboardAuth;
  cliToken: string;
  log: Logger;
}

/**
 * `POST /api/calibrate {check?, seed?}` → NDJSON: `{"type":"line","text"}` per step (the lines the
 * in-process `piclaw calibrate` prints), then `{"type":"result","passed"}` or `{"type":"error","code",
 * "message"}`. Refusals before the run starts are plain JSON `{error, code}`: 409 while one runs (or the
 * check has no usable bundle), 503 before the phone tools are up. The client going away stops the run
 * (like Ctrl-C on the in-process command): the arm parks and the bundle in use stays. Access as the
 * agent API (the local CLI token, or a dashboard login with its action header).
 */
export function calibrationApiRoutes(deps: CalibrationApiDeps): Record<string, RawHandler> {
  return {
    [CALIBRATE_API_PATH]: async (req, res) => {
      if (req.method !== "POST")
        return send(res, 405, { error: "use POST", code: "METHOD_NOT_ALLOWED" }, { allow: "POST" });
      const denied = refusal(req, "POST", deps);
      if (denied) return send(res, denied.status, { error: denied.message, code: "UNAUTHORIZED" });
      let body: z.infer<typeof calibrateBody>;
      try {
        body = await parseBody(req);
      } catch (err) {
        return send(res, 400, { error: errorMessage(err), code: "BAD_REQUEST" });
      }
      const calibration = deps.calibration();
      if (!calibration)
        return send(res, 503, { error: "the phone tools are not started yet", code: "TOOLS_NOT_STARTED" });
      await stream(calibration, body, req, res, deps.log);
    },
  };
}

async function stream(
  calibration: DaemonCalibration,
  body: z.infer<typeof calibrateBody>,
  req: IncomingMessage,
  res: ServerResponse,
  log: Logger,
): Promise<void> {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  const line = (value: unknown) => {
    if (!res.headersSent)
      res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
    if (!res.writableEnded) res.write(`${JSON.stringify(value)}\n`);
  };
  const by = req.headers.authorization ? "piclaw calibrate" : "dashboard";
  try {
    const { passed } = await calibration.run({
      check: body.check,
      ...(body.seed !== undefined ? { seed: body.seed } : {}),
      by,
      say: (text) => line({ type: "line", text }),
      signal: gone.signal,
    });
    line({ type: "result", passed });
  } catch (err) {
    const code = err instanceof PiclawError ? err.code : "INTERNAL";
    // Refused before the first line (one already runs, no bundle to check): a plain JSON answer.
    if (!res.headersSent) return send(res, 409, { error: errorMessage(err), code });
    log.warn("calibration through the API failed", { code, error: errorMessage(err) });
    line({ type: "error", code, message: errorMessage(err) });
  } finally {
    if (!res.writableEnded) res.end();
  }
}

function parseBody(req: IncomingMessage): Promise<z.infer<typeof calibrateBody>> {
  return readJsonBody(req, 4096, calibrateBody, '{"check": false}', { emptyAs: {} });
}
