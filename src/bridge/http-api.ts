import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { readBody } from "../http/body.js";
import { bearerToken, cookieValue, originMatchesHost } from "../http/headers.js";
import { RateLimiter } from "../http/rate-limit.js";
import { jsonSender, type RawHandler } from "../http/server.js";
import { secureAttribute } from "../http/tls.js";
import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { checkImageSize } from "../util/image-header.js";
import type { BridgeConfig } from "./config.js";
import type { DeviceInfo, DeviceStore, PairCodeStore } from "./credentials.js";
import type { BridgePage } from "./page.js";
import type { BridgeState } from "./state.js";
import {
  ackRequestSchema,
  helloRequestSchema,
  imageTypeOf,
  type PageInfo,
  pairRequestSchema,
  parseJsonBody,
  parseWith,
  pollQuerySchema,
  touchesRequestSchema,
} from "./wire.js";

/**
 * The bridge's HTTP endpoints. Only `GET /` (the page) and `POST /api/pair` answer an unpaired client;
 * everything else needs the device credential (the HttpOnly cookie the page got when it paired, or
 * `Authorization: Bearer` for a Shortcut) and is refused with 401 before its body is read. Every
 * response is `no-store`; POSTs from a browser must come from the page's own origin.
 */

export const COOKIE_NAME = "piclaw_bridge";
/** Browsers cap cookie lifetimes at 400 days; the page refreshes it on every load. */
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;
const JSON_LIMIT = 16 * 1024;
const SCREENSHOT_TYPES = new Set(["image/png", "image/jpeg", "application/octet-stream", ""]);

const BASE_HEADERS = {
  "cache-control": "no-store",
  pragma: "no-cache",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
} as const;

const sendJson = jsonSender(BASE_HEADERS);

const STATUS: Record<string, number> = {
  BRIDGE_BAD_REQUEST: 400,
  BRIDGE_UNPAIRED: 401,
  BRIDGE_PAIR_REFUSED: 401,
  BRIDGE_FORBIDDEN_ORIGIN: 403,
  BRIDGE_METHOD_NOT_ALLOWED: 405,
  BODY_TOO_LARGE: 413,
  BRIDGE_UNSUPPORTED_MEDIA_TYPE: 415,
  BRIDGE_IMAGE_UNREADABLE: 400,
  BRIDGE_IMAGE_TOO_LARGE: 413,
  BRIDGE_RATE_LIMITED: 429,
};

export interface BridgeApiDeps {
  config: BridgeConfig;
  state: BridgeState;
  devices: DeviceStore;
  pairCodes: PairCodeStore;
  page: BridgePage;
  log: Logger;
  clock: Clock;
}

interface Route {
  method: "GET" | "POST";
  /** False only for the page and pairing. */
  auth: boolean;
  run(req: IncomingMessage, res: ServerResponse, url: URL, device: DeviceInfo | null): Promise<void>;
}

/** What the bridge knows about the page, for `status()`. */
export interface PageContact {
  info: PageInfo | null;
  lastSeenMs: number | null;
  activePolls: number;
}

export class BridgeApi {
  readonly contact: PageContact = { info: null, lastSeenMs: null, activePolls: 0 };
  private readonly pairPerClient: RateLimiter;
  private readonly pairOverall: RateLimiter;
  private readonly routes: Record<string, Route>;

  constructor(private readonly deps: BridgeApiDeps) {
    this.pairPerClient = new RateLimiter(deps.config.pairAttemptsPerMinute, deps.clock);
    this.pairOverall = new RateLimiter(deps.config.pairAttemptsPerMinute * 4, deps.clock);
    this.routes = {
      "/": { method: "GET", auth: false, run: async (_q, res) => this.sendPage(res) },
      "/api/pair": { method: "POST", auth: false, run: (q, res) => this.pair(q, res) },
      "/api/hello": { method: "POST", auth: true, run: (q, res, _u, d) => this.hello(q, res, d) },
      "/api/poll": { method: "GET", auth: true, run: (_q, res, url) => this.poll(res, url) },
      "/api/ack": { method: "POST", auth: true, run: (q, res) => this.ack(q, res) },
      "/api/touches": { method: "POST", auth: true, run: (q, res) => this.touches(q, res) },
      "/api/screenshot": { method: "POST", auth: true, run: (q, res) => this.screenshot(q, res) },
    };
  }

  /** Paths of every endpoint (the unpaired-refusal test walks them). */
  paths(): string[] {
    return Object.keys(this.routes);
  }

  /** One raw handler per path, for `HttpService`. */
  rawRoutes(): Record<string, RawHandler> {
    const out: Record<string, RawHandler> = {};
    for (const path of Object.keys(this.routes)) out[path] = (req, res) => this.handle(req, res);
    return out;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://bridge.invalid");
    const route = this.routes[url.pathname];
    try {
      if (!route) throw new PiclawError("BRIDGE_NOT_FOUND", "no such path");
      const method = req.method === "HEAD" && route.method === "GET" ? "GET" : req.method;
      if (method !== route.method)
        throw new PiclawError("BRIDGE_METHOD_NOT_ALLOWED", `${req.method} is not supported here`, {
          allow: route.method,
        });
      if (method === "POST") checkOrigin(req);
      const device = route.auth ? this.authenticate(req) : null;
      if (device) this.contact.lastSeenMs = this.deps.clock.now();
      await route.run(req, res, url, device);
    } catch (err) {
      this.sendError(req, res, err);
    }
  }

  private authenticate(req: IncomingMessage): DeviceInfo {
    const presented = credentialOf(req);
    const device = presented ? this.deps.devices.verify(presented) : null;
    if (!device)
      throw new PiclawError(
        "BRIDGE_UNPAIRED",
        "this device is not paired: open the bridge page and enter the code from `piclaw bridge pair`",
      );
    return device;
  }

  private sendPage(res: ServerResponse): void {
    const { html, csp } = this.deps.page;
    res.writeHead(200, {
      ...BASE_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp,
    });
    res.end(html);
  }

  private async pair(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const client = req.socket.remoteAddress ?? "unknown";
    const wait = this.pairPerClient.take(client) ?? this.pairOverall.take("*");
    if (wait !== null) {
      this.deps.log.warn("bridge pairing rate-limited", { client });
      throw new PiclawError("BRIDGE_RATE_LIMITED", `too many pairing attempts; try again in ${wait} s`, {
        retryAfterS: wait,
      });
    }
    const body = await readJson(req, pairRequestSchema);
    const result = this.deps.pairCodes.check(body.code);
    if (result !== "ok") {
      this.deps.log.warn("bridge pairing refused", { client, reason: result });
      throw new PiclawError(
        "BRIDGE_PAIR_REFUSED",
        "wrong or expired code: run `piclaw bridge pair` on the appliance for a new one",
      );
    }
    const { info, credential } = await this.deps.devices.add();
    this.deps.log.addSecret(credential);
    this.deps.log.addSecret(body.code);
    this.deps.log.info("bridge paired a phone", { device: info.id, client, deliver: body.deliver });
    if (body.deliver === "token") {
      sendJson(res, 200, { paired: true, device: info.id, credential });
      return;
    }
    sendJson(res, 200, { paired: true, device: info.id }, { "set-cookie": cookieFor(credential, req) });
  }

  private async hello(req: IncomingMessage, res: ServerResponse, device: DeviceInfo | null): Promise<void> {
    const info = await readJson(req, helloRequestSchema);
    this.contact.info = info;
    this.deps.log.debug("bridge page connected", {
      device: device?.id,
      screen: `${info.screen.width}×${info.screen.height}@${info.devicePixelRatio}`,
      fullScreen: info.fullScreen,
    });
    // Refresh the cookie's lifetime from the request's own credential (a Bearer caller has no cookie).
    const fromCookie = cookieValue(req.headers.cookie, COOKIE_NAME);
    sendJson(
      res,
      200,
      { ok: true, device: device?.id },
      fromCookie ? { "set-cookie": cookieFor(fromCookie, req) } : {},
    );
  }

  private async poll(res: ServerResponse, url: URL): Promise<void> {
    const query = parseWith(pollQuerySchema, Object.fromEntries(url.searchParams));
    const waitMs = Math.min(query.wait ?? this.deps.config.pollWaitMs, this.deps.config.pollWaitMs);
    this.contact.activePolls++;
    try {
      await this.deps.state.waitForChange(query.since, waitMs);
    } finally {
      this.contact.activePolls--;
      this.contact.lastSeenMs = this.deps.clock.now();
    }
    if (!res.destroyed) sendJson(res, 200, this.deps.state.view());
  }

  private async ack(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req, ackRequestSchema);
    const current =
      body.kind === "clipboard"
        ? this.deps.state.ackClipboard(body.id, body.state, body.how ?? null)
        : this.deps.state.ackDisplay(body.id);
    sendJson(res, 200, { ok: true, current });
  }

  private async touches(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req, touchesRequestSchema);
    // The page's clock is not ours: shift by (our now − its send time); network delay adds a few ms.
    const offset = this.deps.clock.now() - body.sentAtMs;
    const touches = body.touches.map((t) => ({
      x: t.x,
      y: t.y,
      tMs: Math.min(t.tMs, body.sentAtMs) + offset,
    }));
    this.deps.state.addTouches(touches);
    sendJson(res, 200, { ok: true, accepted: touches.length });
  }

  private async screenshot(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const declared = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!SCREENSHOT_TYPES.has(declared))
      throw new PiclawError(
        "BRIDGE_UNSUPPORTED_MEDIA_TYPE",
        `content-type: expected image/png or image/jpeg, got ${declared.slice(0, 60)}`,
        { field: "content-type" },
      );
    const bytes = await readBody(req, this.deps.config.maxUploadBytes);
    if (bytes.length === 0) throw new PiclawError("BRIDGE_BAD_REQUEST", "body: the upload is empty");
    const type = imageTypeOf(bytes);
    if (!type)
      throw new PiclawError("BRIDGE_UNSUPPORTED_MEDIA_TYPE", "body: not a PNG or JPEG image", {
        field: "body",
      });
    // Refuse a decompression bomb here, before it is stored for the screenshot tool to decode.
    const { width, height } = checkImageSize(bytes, "BRIDGE");
    const shot = this.deps.state.addScreenshot(bytes, type);
    this.deps.log.info("bridge screenshot received", { type, bytes: bytes.length, width, height });
    sendJson(res, 200, { ok: true, type, bytes: bytes.length, receivedAtMs: shot.receivedAtMs });
  }

  private sendError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    const known = err instanceof PiclawError;
    const code = known ? err.code : "INTERNAL";
    const status = known ? (STATUS[code] ?? (code === "BRIDGE_NOT_FOUND" ? 404 : 400)) : 500;
    if (status >= 500) this.deps.log.error("bridge request failed", { path: req.url, err });
    if (res.headersSent || res.destroyed) {
      res.end();
      return;
    }
    const headers: Record<string, string> = {};
    if (status === 401) headers["www-authenticate"] = 'Bearer realm="piclaw-bridge"';
    if (status === 405 && known) headers.allow = String(err.details.allow);
    if (status === 429 && known) headers["retry-after"] = String(err.details.retryAfterS);
    // A refused upload may still be arriving: close rather than read megabytes we will not use.
    if (!req.complete) headers.connection = "close";
    const message = known ? err.message : "internal error";
    sendJson(res, status, { error: { code, message } }, headers);
  }
}

/** A JSON body (content-type application/json, at most 16 KiB), validated by `schema`. */
async function readJson<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.output<S>> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json")
    throw new PiclawError("BRIDGE_UNSUPPORTED_MEDIA_TYPE", "content-type: expected application/json", {
      field: "content-type",
    });
  return parseJsonBody(schema, await readBody(req, JSON_LIMIT));
}

/** The device cookie; `Secure` when the page was served over TLS (the bridge has no proxy setting). */
function cookieFor(credential: string, req: IncomingMessage): string {
  return `${COOKIE_NAME}=${credential}; Max-Age=${COOKIE_MAX_AGE_S}; Path=/; HttpOnly; SameSite=Strict${secureAttribute(req, false)}`;
}

/** The device credential from the cookie, or from `Authorization: Bearer` (Shortcuts, curl). */
function credentialOf(req: IncomingMessage): string | null {
  return bearerToken(req.headers.authorization) ?? cookieValue(req.headers.cookie, COOKIE_NAME);
}

/** A browser's POST must come from the page's own origin (no other site may drive the bridge). */
function checkOrigin(req: IncomingMessage): void {
  // No Origin: not a browser (curl, a Shortcut), and the credential is the check.
  if (!originMatchesHost(req))
    throw new PiclawError("BRIDGE_FORBIDDEN_ORIGIN", "requests must come from the bridge page itself");
}
