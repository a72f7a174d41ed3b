import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { z } from "zod";
import type { AgentEvent } from "../agent/events.js";
import type { Trigger } from "../agent/ports.js";
import { readJsonBody } from "../http/body.js";
import { bearerToken } from "../http/headers.js";
import { keepAliveLines } from "../http/json-lines.js";
import { type RawHandler, sendJson } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { DashboardAuth } from "../web/auth.js";
import type { AgentStack } from "./agent-stack.js";

/**
 * The daemon's small agent API, for `piclaw run`, `piclaw say` and scripts:
 * - `POST /api/agent/run {text}` → NDJSON: `{"type":"started",…}`, one line per note and tool result of
 *   that session, then `{"type":"outcome",…}`; the session keeps running if the client goes away;
 * - `POST /api/agent/say {text}` → steer the running session;
 * - `POST /api/agent/abort` → abort it (the arm lifts and parks; status ABORTED);
 * - `GET /api/agent/status`.
 * Access: the dashboard's rules (an MCP token as bearer, or a dashboard login plus its action header
 * for POSTs), or the local CLI token the daemon writes to `<stateDir>/run/cli-token` (mode 0600), so a
 * shell on the appliance (root or the `piclaw` user) needs no MCP token.
 */

const textBody = z.strictObject({
  text: z.string().trim().min(1, "text: must not be empty").max(4000, "text: at most 4000 characters"),
});

/** Where the daemon keeps the local CLI token. */
export function cliTokenPath(stateDir: string): string {
  return join(stateDir, "run", "cli-token");
}

/** The local CLI token the running daemon wrote, or null (none, or not readable by this user). */
export function readCliToken(stateDir: string): string | null {
  try {
    return readFileSync(cliTokenPath(stateDir), "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** Make a fresh local CLI token (once per daemon start) and store it for the CLI. */
export function writeCliToken(stateDir: string): string {
  const token = randomBytes(32).toString("base64url");
  mkdirSync(join(stateDir, "run"), { recursive: true, mode: 0o700 });
  writeFileAtomic(cliTokenPath(stateDir), `${token}\n`, { mode: 0o600 });
  return token;
}

export interface AgentApiDeps {
  agent: AgentStack;
  auth: DashboardAuth;
  cliToken: string;
  log: Logger;
  /** How often `/api/agent/run` writes a keep-alive line while a session runs. Default 15 s. */
  keepAliveMs?: number;
}

/** Keep-alive period of the run stream; the CLI gives up after four missed ones (RUN_STREAM_IDLE_MS). */
export const RUN_KEEP_ALIVE_MS = 15_000;
export const RUN_STREAM_IDLE_MS = 4 * RUN_KEEP_ALIVE_MS;

export function agentApiRoutes(deps: AgentApiDeps): Record<string, RawHandler> {
  const { agent } = deps;
  const guard =
    (
      method: "GET" | "POST",
      handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
    ): RawHandler =>
    async (req, res) => {
      if (req.method !== method) return send(res, 405, { error: `use ${method}` }, { allow: method });
      const denied = refusal(req, method, deps);
      if (denied) return send(res, denied.status, { error: denied.message });
      try {
        await handler(req, res);
      } catch (err) {
        const status = err instanceof PiclawError && err.code === "AGENT_OFF" ? 503 : 400;
        if (!res.headersSent) send(res, status, { error: errorMessage(err) });
        else res.end();
      }
    };
  return {
    "/api/agent/status": guard("GET", async (_req, res) => send(res, 200, agent.status())),
    "/api/agent/say": guard("POST", async (req, res) => {
      const { text } = await parseText(req);
      const delivered = agent.say(text);
      send(res, delivered ? 200 : 409, delivered ? { delivered } : { error: "no session is running" });
    }),
    "/api/agent/abort": guard("POST", async (_req, res) => {
      const aborted = agent.abort("aborted by the user");
      send(res, aborted ? 200 : 409, aborted ? { aborted } : { error: "no session is running" });
    }),
    "/api/agent/run": guard("POST", async (req, res) => {
      const { text } = await parseText(req);
      await streamRun(agent, text, res, deps.log, deps.keepAliveMs ?? RUN_KEEP_ALIVE_MS);
    }),
  };
}

async function streamRun(
  agent: AgentStack,
  text: string,
  res: ServerResponse,
  log: Logger,
  keepAliveMs: number,
): Promise<void> {
  const trigger: Trigger = { kind: "manual", text, from: "piclaw run" };
  let sessionId: string | null = null;
  // The stream leaves the daemon redacted: the client may not know every secret (the API key).
  const line = (value: unknown) => {
    if (!res.writableEnded) res.write(`${log.redact(JSON.stringify(value))}\n`);
  };
  const unsubscribe = agent.events.on((event: AgentEvent) => {
    if (event.type === "session_start" && sessionId === null) {
      const ours = event.wake.triggers.some(
        (t) => t === trigger || (t.kind === "manual" && t.text === text && t.from === trigger.from),
      );
      if (ours) sessionId = event.sessionId;
    }
    if (event.sessionId !== sessionId) return;
    const value = runLine(event);
    if (value) line(value);
  });
  const outcome = agent.run(text, trigger.from);
  res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
  line({ type: "queued", status: agent.status().runtime?.state ?? null });
  const stopKeepAlive = keepAliveLines(res, keepAliveMs);
  try {
    line({ type: "outcome", ...(await outcome) });
  } catch (err) {
    log.warn("piclaw run failed", { error: errorMessage(err) });
    line({ type: "error", message: errorMessage(err) });
  } finally {
    stopKeepAlive();
    unsubscribe();
    res.end();
  }
}

/** What `piclaw run` shows of a session's event (one NDJSON line of `/api/agent/run`), or null. */
export function runLine(event: AgentEvent): Record<string, unknown> | null {
  switch (event.type) {
    case "session_start":
      return { type: "started", sessionId: event.sessionId, model: event.model };
    case "note":
      return { type: "note", turn: event.turn, summary: event.summary };
    case "tool_end":
      return { type: "tool", name: event.name, isError: event.isError, verdict: event.verdict ?? null };
    case "retry":
      return { type: "retry", reason: event.reason, delayMs: event.delayMs };
    case "attempt_end":
      return { type: "attempt_end", attempt: event.attempt, status: event.status };
    default:
      return null;
  }
}

/**
 * Why a request to the daemon's API is refused, or null: the local CLI token as bearer passes; else the
 * dashboard's rules (a POST from a dashboard login needs its action header). Shared by /api/calibrate.
 */
export function refusal(
  req: IncomingMessage,
  method: "GET" | "POST",
  deps: Pick<AgentApiDeps, "auth" | "cliToken">,
): { status: number; message: string } | null {
  const presented = bearerToken(req.headers.authorization);
  if (presented && sameSecret(presented, deps.cliToken)) return null;
  // A dashboard login (cookie) may only POST with the action header; a bearer MCP token is a script.
  const verdict = method === "POST" && !presented ? deps.auth.checkAction(req) : deps.auth.check(req);
  return verdict.ok ? null : { status: verdict.status, message: verdict.message };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseText(req: IncomingMessage): Promise<{ text: string }> {
  return readJsonBody(req, 16_384, textBody, '{"text": "…"}');
}

/** A JSON reply of the daemon's APIs (never cached). */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, body, { ...headers, "cache-control": "no-store" });
}
