import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../log/logger.js";
import { errorMessage, PiclawError } from "../util/errors.js";

/**
 * A small HTTP server with an exact-path route table, used both for the public server (TCP) and the
 * simulator's control socket (a Unix socket). Handlers return a body; failures become JSON errors with
 * the PiclawError code, and a handler that throws never takes the process down.
 */
export interface HttpReply {
  status?: number;
  contentType: string;
  body: Buffer | string;
}

export type Handler = (req: IncomingMessage, url: URL) => Promise<HttpReply>;
export type Routes = Record<string, Handler>;
/**
 * A route that owns the exchange (any method, streaming bodies): e.g. the MCP endpoint. It writes the
 * response itself and must not throw; if it does, a 500 is sent when nothing was written yet.
 */
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Why a request is refused before any route sees it: status, message and extra headers. */
export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * One request policy for every route of a server (raw routes included): Host and Origin against DNS
 * rebinding, auth where a path needs it. Returns the refusal, or null to let the route answer. It runs
 * before the route table, so a path added later cannot forget it.
 */
export type RequestPolicy = (req: IncomingMessage, url: URL) => Refusal | null;

export interface HttpServiceOptions {
  /** Checked before every route; default: none (the simulator's Unix socket, tests' servers). */
  policy?: RequestPolicy;
  /** Limits on slow clients; defaults in `DEFAULT_TIMEOUTS`. */
  timeouts?: Partial<HttpTimeouts>;
}

/**
 * How long a client may take to send a request: Node's defaults (60 s for headers, 300 s for the whole
 * request) let a slowloris hold sockets for minutes. `requestMs` ends when the request has been read,
 * so a long reply (a tool call, a calibration run) is not cut by it.
 */
export interface HttpTimeouts {
  /** From connection (or the previous request) to the end of the headers; then 408. */
  headersMs: number;
  /** From the start of a request to the end of its body; then 408. */
  requestMs: number;
  /** How often Node checks the two above (its default is 30 s, which would double them). */
  checkEveryMs: number;
  /**
   * How long an idle keep-alive connection stays open after a reply. A server that closes it just as the
   * client sends its next request on it fails that request ("other side closed"). Clients stop reusing a
   * socket before the `Keep-Alive: timeout=` we announce (undici: 2 s before), but when one event loop runs
   * both ends (tests, in-process callers) and stalls past this time, the client's next request and the
   * server's close fire in the same turn — seen with Node's 5 s default while a calibration kept a daemon
   * on a loaded machine (load ~30) busy. Idle sockets cost little next to a failed call.
   */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<HttpTimeouts> = {
  headersMs: 10_000,
  requestMs: 30_000,
  checkEveryMs: 1_000,
  keepAliveMs: 30_000,
};

/** Where to listen: a TCP host/port or a Unix socket path. */
export type ListenTarget = { host: string; port: number } | { socketPath: string };

export class HttpService {
  private server: Server | null = null;

  constructor(
    private readonly routes: Routes,
    private readonly log: Logger,
    private readonly rawRoutes: Record<string, RawHandler> = {},
    private readonly options: HttpServiceOptions = {},
  ) {}

  /** Listen; resolves with the bound address (`http://host:port` or the socket path). */
  async start(target: ListenTarget): Promise<string> {
    const t = { ...DEFAULT_TIMEOUTS, ...this.options.timeouts };
    const options = {
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      connectionsCheckingInterval: t.checkEveryMs,
    };
    const server = createServer(options, (req, res) => {
      void this.handle(req, res);
    });
    server.keepAliveTimeout = t.keepAliveMs;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if ("socketPath" in target) server.listen(target.socketPath, resolve);
      else server.listen(target.port, target.host, resolve);
    });
    if ("socketPath" in target) return target.socketPath;
    const addr = server.address() as AddressInfo;
    const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
    return `http://${host}:${addr.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const refusal = this.options.policy?.(req, url);
    if (refusal) {
      this.log.debug("request refused", {
        path: url.pathname,
        status: refusal.status,
        reason: refusal.message,
      });
      res.writeHead(refusal.status, {
        ...refusal.headers,
        "content-type": "application/json",
        "cache-control": "no-store",
      });
      res.end(jsonLine({ error: { code: "REFUSED", message: refusal.message } }));
      return;
    }
    const raw = this.rawRoutes[url.pathname];
    if (raw) {
      await raw(req, res).catch((err: unknown) => {
        // A client that went away mid-request is not our failure: debug, not error.
        if (req.destroyed) this.log.debug("client went away", { path: url.pathname, err });
        else this.log.error("request failed", { path: url.pathname, err });
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      });
      return;
    }
    const handler = this.routes[url.pathname];
    try {
      if (!handler)
        throw new PiclawError("NOT_FOUND", `no such path: ${url.pathname}`, { path: url.pathname });
      if (req.method !== "GET" && req.method !== "HEAD") {
        throw new PiclawError("METHOD_NOT_ALLOWED", `${req.method} is not supported on ${url.pathname}`);
      }
      const reply = await handler(req, url);
      res.writeHead(reply.status ?? 200, { "content-type": reply.contentType, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : reply.body);
    } catch (err) {
      const code = err instanceof PiclawError ? err.code : "INTERNAL";
      const status = STATUS[code] ?? (err instanceof PiclawError ? 400 : 500);
      if (status >= 500 && !req.destroyed) this.log.error("request failed", { path: url.pathname, err });
      else if (status >= 500) this.log.debug("client went away", { path: url.pathname, err });
      const allow: Record<string, string> = status === 405 ? { allow: "GET, HEAD" } : {};
      res.writeHead(status, { ...allow, "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code, message: errorMessage(err) } }));
    }
  }
}

const STATUS: Record<string, number> = { NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405, INTERNAL: 500 };

/** The daemon's base URL as reached from this machine: a wildcard bind is reached on loopback. */
export function localBaseUrl(host: string, port: number): string {
  const h =
    host === "0.0.0.0" || host === ""
      ? "127.0.0.1"
      : host === "::"
        ? "[::1]"
        : host.includes(":")
          ? `[${host}]`
          : host;
  return `http://${h}:${port}`;
}

/** A JSON reply for a route table: one line of JSON, as `sendJson` writes. */
export function json(value: unknown, status = 200): HttpReply {
  return { status, contentType: "application/json", body: jsonLine(value) };
}

/**
 * Write a JSON reply from a raw route: the caller's `headers` (its security and cache policy), then
 * `content-type: application/json`, and one line of JSON.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(jsonLine(value));
}

/** Writes a JSON reply; `headers` are added to those the sender was made with. */
export type JsonSender = (
  res: ServerResponse,
  status: number,
  value: unknown,
  headers?: Record<string, string>,
) => void;

/** A `sendJson` that puts `base` (a surface's security and cache headers) on every reply. */
export function jsonSender(base: Readonly<Record<string, string>>): JsonSender {
  return (res, status, value, headers = {}) => sendJson(res, status, value, { ...base, ...headers });
}

function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
