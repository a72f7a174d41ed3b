import { localBaseUrl } from "../../http/server.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { readCliToken } from "../agent-api.js";
import type { LoadedConfig } from "../config/load.js";
import { REFERENCE_PARKED_API_PATH } from "../rig-api.js";

export interface RemoteReferenceDeps {
  write: (text: string) => void;
  fetch?: typeof fetch;
}

/**
 * `piclaw rig reference --parked` while a daemon (PID `pid`) runs on this state directory and holds the
 * serial port: the daemon references at park (`POST /api/rig/reference-parked`, the local CLI token),
 * waiting for the arm like any caller and clearing a latched e-stop. Returns 0 once it did; a refusal
 * throws the daemon's PiclawError (its code and message say what to do), and a daemon that does not
 * answer throws DAEMON_UNREACHABLE (this never opens the port the daemon holds).
 */
export async function referenceParkedThroughDaemon(
  loaded: LoadedConfig,
  pid: number,
  deps: RemoteReferenceDeps,
): Promise<number> {
  const base = localBaseUrl(loaded.config.server.host, loaded.config.server.port);
  const url = `${base}${REFERENCE_PARKED_API_PATH}`;
  const headers: Record<string, string> = {};
  const token = readCliToken(loaded.stateDir);
  if (token) headers.authorization = `Bearer ${token}`;
  deps.write(`the PiClaw daemon (PID ${pid}) holds the board: it references at park (${base})\n`);
  let response: Response;
  try {
    response = await (deps.fetch ?? fetch)(url, { method: "POST", headers });
  } catch (err) {
    throw new PiclawError(
      "DAEMON_UNREACHABLE",
      `the PiClaw daemon (PID ${pid}) does not answer at ${url} (${errorMessage(err)}): wait until it has ` +
        "started (piclaw doctor), or stop it (sudo systemctl stop piclaw) and run " +
        "`piclaw rig reference --parked` again",
      { pid, url },
    );
  }
  const body = (await response.json().catch(() => ({}))) as {
    message?: string;
    error?: string;
    code?: string;
  };
  if (!response.ok) {
    const hint =
      response.status === 401 || response.status === 403
        ? " (run this as root or the piclaw user: they can read the daemon's CLI token)"
        : "";
    throw new PiclawError(
      body.code ?? "DAEMON_REFUSED",
      `${body.error ?? `HTTP ${response.status}: refused`}${hint}`,
    );
  }
  deps.write(`${body.message ?? "referenced at the park spot"}\n`);
  return 0;
}
