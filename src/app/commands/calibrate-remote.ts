import { jsonLines } from "../../http/json-lines.js";
import { localBaseUrl } from "../../http/server.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { readCliToken } from "../agent-api.js";
import { CALIBRATE_API_PATH } from "../calibration-api.js";
import type { LoadedConfig } from "../config/load.js";

export interface RemoteCalibrateDeps {
  write: (text: string) => void;
  seed?: number;
  fetch?: typeof fetch;
}

/**
 * `piclaw calibrate [--check]` while a daemon (PID `pid`) runs on this state directory: the daemon
 * calibrates with its own camera, arm and phone side (`POST /api/calibrate`, the local CLI token) and
 * streams the same lines the in-process run prints; the daemon then uses the new bundle. Returns the exit
 * code (0 = PASS, 1 = FAIL); a refusal (no bundle to check, a calibration already running) throws its
 * PiclawError, and a daemon that does not answer throws DAEMON_UNREACHABLE (never falls back to opening
 * the camera and port the daemon holds).
 */
export async function calibrateThroughDaemon(
  loaded: LoadedConfig,
  check: boolean,
  pid: number,
  deps: RemoteCalibrateDeps,
): Promise<number> {
  const base = localBaseUrl(loaded.config.server.host, loaded.config.server.port);
  const url = `${base}${CALIBRATE_API_PATH}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = readCliToken(loaded.stateDir);
  if (token) headers.authorization = `Bearer ${token}`;
  const body = JSON.stringify({ check, ...(deps.seed !== undefined ? { seed: deps.seed } : {}) });
  deps.write(`the PiClaw daemon (PID ${pid}) runs on this state directory: it calibrates (${base})\n`);
  let response: Response;
  try {
    response = await (deps.fetch ?? fetch)(url, { method: "POST", headers, body });
  } catch (err) {
    throw new PiclawError(
      "DAEMON_UNREACHABLE",
      `the PiClaw daemon (PID ${pid}) does not answer at ${url} (${errorMessage(err)}): wait until it has ` +
        "started (piclaw doctor), or stop it and run `piclaw calibrate` again",
      { pid, url },
    );
  }
  if (!response.ok || !response.body) {
    const refused = (await response.json().catch(() => ({}))) as { error?: string; code?: string };
    throw new PiclawError(refused.code ?? "DAEMON_REFUSED", refused.error ?? `${response.status}: refused`);
  }
  let passed: boolean | null = null;
  for await (const value of jsonLines(response.body)) {
    if (value.type === "line") deps.write(`${String(value.text)}\n`);
    else if (value.type === "result") passed = value.passed === true;
    else if (value.type === "error")
      throw new PiclawError(String(value.code ?? "CALIBRATION_FAILED"), String(value.message));
  }
  if (passed === null)
    throw new PiclawError(
      "DAEMON_UNREACHABLE",
      `the daemon (PID ${pid}) ended the calibration without a verdict`,
    );
  return passed ? 0 : 1;
}
