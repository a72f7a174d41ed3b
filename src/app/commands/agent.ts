import { readFileSync } from "node:fs";
import { jsonLines } from "../../http/json-lines.js";
import { localBaseUrl } from "../../http/server.js";
import type { Logger } from "../../log/logger.js";
import { terminalSafe } from "../../log/terminal.js";
import type { Clock } from "../../util/clock.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { cliTokenPath, RUN_STREAM_IDLE_MS, runLine } from "../agent-api.js";
import type { LoadedConfig } from "../config/load.js";
import { Daemon } from "../daemon.js";
import { abortOnSignals, type SignalSource } from "./run-signals.js";

/**
 * `piclaw run "task"` and `piclaw say "text"`. Both talk to the running daemon over its agent API
 * (`/api/agent/*`, with the local CLI token). When no daemon answers, `run` starts the appliance in this
 * process (the configured rig and provider, triggers off, an ephemeral port), runs the one session,
 * streams it the same way and stops again.
 */

export interface AgentCommandDeps {
  clock: Clock;
  log: Logger;
  write: (text: string) => void;
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** SIGINT/SIGTERM for an in-process run; default `process`. */
  signals?: SignalSource;
}

/** The daemon's base URL as seen from this machine (a wildcard bind is reached on loopback). */
export function daemonUrl(loaded: LoadedConfig): string {
  return localBaseUrl(loaded.config.server.host, loaded.config.server.port);
}

function cliToken(loaded: LoadedConfig): string | null {
  try {
    return readFileSync(cliTokenPath(loaded.stateDir), "utf8").trim() || null;
  } catch {
    return null;
  }
}

/**
 * One NDJSON line of `/api/agent/run` as a person reads it (null = print nothing). Every field is
 * printed through `terminalSafe` (issue 18: model text must not drive the terminal nor print a fake
 * outcome line); an outcome line comes only from the `outcome` event.
 */
export function describeRunLine(value: Record<string, unknown>): string | null {
  const f = (v: unknown) => terminalSafe(String(v));
  switch (value.type) {
    case "started":
      return `session ${f(value.sessionId)} (${f(value.model)})\n`;
    case "note":
      return `  ${f(value.turn).padStart(3)}  ${f(value.summary)}\n`;
    case "tool":
      return value.isError ? `       ${f(value.name)} failed\n` : null;
    case "retry":
      return `       provider retry in ${Math.round(Number(value.delayMs) / 1000)} s: ${f(value.reason)}\n`;
    case "attempt_end":
      return value.status === "STUCK" ? `       attempt ${f(value.attempt)} STUCK\n` : null;
    case "outcome":
      return `${f(value.status)}: ${f(value.recap)}\n`;
    case "error":
      return `error: ${f(value.message)}\n`;
    default:
      return null;
  }
}

const OK_STATUSES = new Set(["DONE", "IDLE", "WAIT"]);

export async function agentCommand(
  command: "run" | "say" | "abort",
  text: string | undefined,
  loaded: LoadedConfig,
  deps: AgentCommandDeps,
): Promise<number> {
  // Everything printed goes through the same redactor as the logs (secrets the CLI knows; the daemon
  // redacts its stream with all of its own before sending).
  const rawWrite = deps.write;
  deps = { ...deps, write: (t) => rawWrite(deps.log.redact(t)) };
  if (command !== "abort" && !text?.trim())
    throw new PiclawError("USAGE", `piclaw ${command} needs the text in quotes, e.g. piclaw ${command} "…"`);
  const doFetch = deps.fetch ?? fetch;
  const token = cliToken(loaded);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const url = `${daemonUrl(loaded)}/api/agent/${command}`;
  let response: Response;
  try {
    response = await doFetch(url, { method: "POST", headers, body: JSON.stringify({ text: text ?? "" }) });
  } catch (err) {
    if (command === "run") return runInProcess(text ?? "", loaded, deps);
    throw new PiclawError("DAEMON_UNREACHABLE", `no PiClaw daemon answers at ${url} (${errorMessage(err)})`);
  }
  if (command !== "run" || !response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    if (!response.ok)
      throw new PiclawError("DAEMON_REFUSED", `${response.status}: ${body.error ?? "refused"}`);
    deps.write(command === "say" ? "delivered\n" : "aborted\n");
    return 0;
  }
  let status: string | null = null;
  try {
    for await (const value of jsonLines(response.body, { idleTimeoutMs: RUN_STREAM_IDLE_MS })) {
      if (value.type === "outcome") status = String(value.status);
      const line = describeRunLine(value);
      if (line) deps.write(line);
    }
  } catch (err) {
    // The session lives in the daemon, not in this client: losing the stream does not end it.
    deps.write(
      `error: lost the daemon's stream (${errorMessage(err)}); the session may still be running: piclaw sessions, piclaw abort\n`,
    );
    return 1;
  }
  return status !== null && OK_STATUSES.has(status) ? 0 : 1;
}

async function runInProcess(text: string, loaded: LoadedConfig, deps: AgentCommandDeps): Promise<number> {
  deps.write(
    "no daemon running: starting the appliance in this process for one session (Ctrl-C aborts it; piclaw abort cannot reach it)\n",
  );
  const config = {
    ...loaded.config,
    server: { ...loaded.config.server, port: 0 },
    runtime: { ...loaded.config.runtime, enabled: false },
  };
  const daemon = new Daemon({ ...loaded, config }, deps.log, deps.clock, deps.env);
  try {
    await daemon.start();
    const agent = daemon.agent;
    if (!agent) throw new PiclawError("AGENT_OFF", "the agent did not start");
    let sessionId: string | null = null;
    const unsubscribe = agent.events.on((event) => {
      if (event.type === "session_start") sessionId = event.sessionId;
      if (event.sessionId !== sessionId) return;
      const value = runLine(event);
      const line = value ? describeRunLine(value) : null;
      if (line) deps.write(line);
    });
    const releaseSignals = abortOnSignals((r) => agent.abort(r), deps.write, deps.signals ?? process);
    try {
      const outcome = await agent.run(text, "piclaw run");
      deps.write(describeRunLine({ type: "outcome", ...outcome }) ?? "");
      return OK_STATUSES.has(outcome.status) ? 0 : 1;
    } finally {
      releaseSignals();
      unsubscribe();
    }
  } finally {
    await daemon.stop();
  }
}
