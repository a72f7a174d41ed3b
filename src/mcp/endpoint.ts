import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { type AuthInfo, createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import { readBody } from "../http/body.js";
import { bearerToken } from "../http/headers.js";
import { HostGuard, machineNames } from "../http/host-guard.js";
import { sendWebResponse, toWebRequest } from "../http/node-http.js";
import { RateLimiter } from "../http/rate-limit.js";
import type { Logger } from "../log/logger.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { AnyPhoneTool, ToolCaller } from "../tools/types.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { projectRoot } from "../util/paths.js";
import { isLoopbackHost, type McpConfig } from "./config.js";
import { type RawToolArguments, rawToolArguments } from "./raw-arguments.js";
import { buildMcpServer, checkToolList } from "./server.js";
import type { TokenStore } from "./tokens.js";

/** The protocol revisions served: 2026-07-28 (stateless per-request envelope) and 2025-era clients. */
export const SERVED_PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18"] as const;
export const MCP_PATH = "/mcp";

export interface McpEndpointOptions {
  config: McpConfig;
  /** The address the HTTP server binds (`server.host`): any non-loopback address requires tokens. */
  bindHost: string;
  tokens: TokenStore;
  tools: readonly AnyPhoneTool[];
  owner: PhoneOwner;
  log: Logger;
  clock: Clock;
  /** Server version reported to clients; default: package.json's. */
  version?: string;
  /** Names and addresses this machine answers to; default: its hostname (+ `.local`) and interface addresses. */
  localNames?: readonly string[];
}

export interface McpEndpoint {
  /** Serve one HTTP request to `/mcp` (any method). Never throws. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Abort in-flight exchanges. */
  close(): Promise<void>;
  /** What is served, for the daemon's start-up log line. */
  describe(): { path: string; auth: string; tools: string[]; protocolVersions: readonly string[] };
}

/**
 * The MCP endpoint: request guards (Host and Origin against DNS rebinding → 403, bearer token → 401,
 * rate limit → 429, body size → 413), then the SDK's stateless Streamable HTTP handler serving both
 * protocol eras from one server factory. Guards run before the SDK sees anything.
 */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { config, tokens, log, clock } = options;
  checkToolList(options.tools);
  const tokenRequired = config.requireToken === "always" || !isLoopbackHost(options.bindHost);
  const guard = new HostGuard({
    bindHost: options.bindHost,
    localNames: options.localNames ?? machineNames(),
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
  });
  const limiter = new RateLimiter(config.rateLimitPerMinute, clock);
  const deps = {
    tools: options.tools,
    owner: options.owner,
    priority: config.priority,
    waitLimitMs: config.waitLimitMs,
    log: log.child("tools"),
    version: options.version ?? packageVersion(),
  };
  const handler: McpHttpHandler = createMcpHandler(
    (ctx) =>
      buildMcpServer(deps, callerOf(ctx.authInfo), ctx.authInfo?.extra?.rawToolArguments as RawToolArguments),
    {
      legacy: "stateless",
      maxRequestBodySize: config.maxBodyBytes,
      onerror: (err) => log.debug("mcp exchange error", { err }),
    },
  );
  if (tokenRequired && tokens.isEmpty()) {
    log.warn(
      "MCP needs a bearer token on this address but none exists: create one with `piclaw token create`",
      {
        tokenFile: tokens.path,
      },
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const presented = bearerToken(req.headers.authorization);
    const misdirected = guard.refusal(req);
    if (misdirected) return refuse(res, 403, misdirected);
    // Streamable HTTP uses these three; others (TRACE, CONNECT…) cannot even become a web Request and
    // used to surface as a 500 and an error log line.
    if (!MCP_METHODS.includes(req.method ?? "")) {
      return refuse(res, 405, `${req.method} is not supported on ${MCP_PATH}`, {
        allow: MCP_METHODS.join(", "),
      });
    }

    let authInfo: AuthInfo = { token: "local", clientId: "local", scopes: [] };
    if (presented) {
      const info = tokens.verify(presented);
      if (!info) {
        return refuse(res, 401, "invalid or revoked token", {
          "www-authenticate": 'Bearer realm="piclaw", error="invalid_token"',
        });
      }
      // Headers are never logged; registering live tokens also scrubs one that shows up elsewhere.
      // (Only live ones: registering every presented value would let strangers grow the set.)
      log.addSecret(presented);
      authInfo = { token: `id:${info.id}`, clientId: info.label, scopes: [] };
    } else if (tokenRequired) {
      return refuse(res, 401, "a bearer token is required (piclaw token create)", {
        "www-authenticate": 'Bearer realm="piclaw"',
      });
    }
    // Every request costs one before its body is read (a throttled client cannot make us read bodies);
    // each further tool call in a batch costs one more once the body is parsed.
    const limitKey = presented ? authInfo.token : `addr:${req.socket.remoteAddress ?? "?"}`;
    const retryAfter = limiter.take(limitKey);
    if (retryAfter !== null) return refuseRateLimited(res, retryAfter);

    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      const body = req.method === "POST" ? await readBody(req, config.maxBodyBytes) : Buffer.alloc(0);
      const calls = rawToolArguments(body);
      // All or nothing: a batch with more calls than are left is refused whole, none of it runs.
      const batchWait = calls && calls.calls > 1 ? limiter.take(limitKey, calls.calls - 1) : null;
      if (batchWait !== null) return refuseRateLimited(res, batchWait);
      const rawArgs = calls?.arguments;
      const response = await handler.fetch(toWebRequest(req, body, abort.signal), {
        authInfo: rawArgs ? { ...authInfo, extra: { rawToolArguments: rawArgs } } : authInfo,
      });
      log.debug("mcp request", { method: req.method, status: response.status, caller: authInfo.clientId });
      await sendWebResponse(res, response);
    } catch (err) {
      if (err instanceof PiclawError && err.code === "BODY_TOO_LARGE") return refuse(res, 413, err.message);
      // The client went away (mid-upload, or before the reply): nothing is wrong on our side.
      if (req.destroyed || abort.signal.aborted) {
        log.debug("mcp client went away", { err });
        res.destroy();
        return;
      }
      log.error("mcp request failed", { err });
      if (!res.headersSent) refuse(res, 500, "internal error");
      else res.end();
    }
  }

  function refuseRateLimited(res: ServerResponse, retryAfter: number): void {
    refuse(res, 429, `rate limit of ${config.rateLimitPerMinute} tool calls or requests per minute`, {
      "retry-after": String(retryAfter),
    });
  }

  function refuse(
    res: ServerResponse,
    status: number,
    message: string,
    headers?: Record<string, string>,
  ): void {
    log.debug("mcp request refused", { status, message });
    // A JSON-RPC error without an id: the request was refused before it was read.
    const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
    res.end(body);
  }

  return {
    handle,
    close: () => handler.close(),
    describe: () => ({
      path: MCP_PATH,
      auth: tokenRequired ? "bearer token required" : "none (loopback only)",
      tools: options.tools.map((t) => t.name),
      protocolVersions: SERVED_PROTOCOL_VERSIONS,
    }),
  };
}

/** The methods Streamable HTTP defines; anything else is a 405 with this list in `Allow`. */
const MCP_METHODS: readonly string[] = ["GET", "POST", "DELETE"];

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

function callerOf(authInfo: AuthInfo | undefined): ToolCaller {
  return { kind: "mcp", label: authInfo?.clientId ?? "local" };
}
