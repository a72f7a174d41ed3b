import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../http/body.js";
import { jsonSender, type RawHandler } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { type AuthVerdict, DashboardAuth, type DashboardAuthOptions } from "./auth.js";
import type { DashboardConfig } from "./config.js";
import { FrameCache } from "./frames.js";
import { type DashboardAssets, loadDashboardAssets } from "./page.js";
import type { DashboardSources } from "./sources.js";
import { gatherStatus } from "./status.js";

/** Paths the dashboard answers (exact; HttpService routes them here). */
export const DASHBOARD_PATHS = {
  page: "/",
  script: "/dashboard/app.js",
  style: "/dashboard/style.css",
  status: "/dashboard/status.json",
  frame: "/dashboard/frame.jpg",
  sessionImage: "/dashboard/session-image",
  login: "/dashboard/login",
  logout: "/dashboard/logout",
  peek: "/dashboard/peek",
  park: "/dashboard/park",
  estop: "/dashboard/estop",
  estopReset: "/dashboard/estop-reset",
  confirmParked: "/dashboard/confirm-parked",
  calibrate: "/dashboard/calibrate",
} as const;

export interface DashboardOptions {
  config: DashboardConfig;
  sources: DashboardSources;
  /** Access rules: the MCP endpoint's bind address, config and token store. */
  auth: Omit<DashboardAuthOptions, "clock" | "loginMs">;
  clock: Clock;
  log: Logger;
  /** Folder of the page's files; default: `assets/web`. */
  assetDir?: string;
}

type Action = (who: string, signal: AbortSignal) => Promise<Record<string, unknown>>;

/**
 * The daemon's own web page: a live annotated view of the phone, the arm, its owner and queue, the
 * calibration, jobs and recent sessions, with Peek, Park, E-stop, E-stop reset and "Carriage at park"
 * (the operator's confirmation that re-references a rig that cannot vouch for its origin). The page polls
 * `status.json` (see `DashboardStatus`) and fetches the JPEG when the frame id changes. Moves go
 * through the PhoneOwner like every other caller; looking never takes the arm.
 */
export class Dashboard {
  /** Its access rules (the daemon's agent API shares them, so a dashboard login works there too). */
  readonly auth: DashboardAuth;
  private readonly frames: FrameCache;
  private assets: DashboardAssets | null = null;
  /** The calibration (createdAt) the last status showed; undefined before the first. */
  private seenCalibration: string | null | undefined = undefined;

  constructor(private readonly options: DashboardOptions) {
    const { config, clock, log } = options;
    this.auth = new DashboardAuth({
      ...options.auth,
      clock,
      loginMs: config.loginHours * 3_600_000,
      trustProxy: config.trustProxy,
    });
    this.frames = new FrameCache((signal) => options.sources.look(signal), clock, log, config.frameRefreshMs);
  }

  /** Read the page's files. */
  async start(): Promise<void> {
    this.assets = await loadDashboardAssets(this.options.assetDir);
  }

  /** Abandon a view in progress. */
  async stop(): Promise<void> {
    await this.frames.close();
  }

  /** What is served, for the daemon's start-up log line. */
  describe(): { path: string; auth: string } {
    return {
      path: "/",
      auth: this.auth.tokenRequired ? "MCP token (login form or bearer)" : "none (loopback)",
    };
  }

  /** The route table to mount on the HttpService (raw routes: the dashboard answers every method). */
  routes(): Record<string, RawHandler> {
    const handler: RawHandler = (req, res) => this.handle(req, res);
    return Object.fromEntries(Object.values(DASHBOARD_PATHS).map((path) => [path, handler]));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const isRead = method === "GET" || method === "HEAD";
    if (url.pathname === DASHBOARD_PATHS.login && method === "POST") return this.login(req, res);
    const verdict = isRead ? this.auth.check(req) : this.auth.checkAction(req);
    // The script and style carry no data; the login form needs the style before anyone logs in.
    const publicFile =
      isRead && (url.pathname === DASHBOARD_PATHS.style || url.pathname === DASHBOARD_PATHS.script);
    if (!verdict.ok && !(publicFile && verdict.status === 401))
      return this.refuse(res, verdict, url.pathname === DASHBOARD_PATHS.page && isRead);
    const who = verdict.ok ? verdict.who : "anonymous";
    if (isRead) return this.read(url, req, res, who);
    if (method !== "POST")
      return sendJson(res, 405, { error: { code: "METHOD_NOT_ALLOWED", message: method } });
    const action = this.action(url.pathname, res);
    if (!action) return sendJson(res, 404, { error: { code: "NOT_FOUND", message: url.pathname } });
    await this.run(url.pathname, action, who, req, res);
  }

  private async read(url: URL, req: IncomingMessage, res: ServerResponse, who: string): Promise<void> {
    const assets = this.assets;
    if (!assets) throw new PiclawError("DASHBOARD_NOT_STARTED", "the dashboard is not started");
    const head = req.method === "HEAD";
    switch (url.pathname) {
      case DASHBOARD_PATHS.page:
        if (this.options.config.openSetupFirst && this.options.sources.rig?.().setupDone === false) {
          res.writeHead(303, { ...PAGE_HEADERS, location: "/setup" });
          return void res.end();
        }
        return send(res, 200, "text/html; charset=utf-8", assets.page, head);
      case DASHBOARD_PATHS.script:
        return send(res, 200, "text/javascript; charset=utf-8", assets.script, head);
      case DASHBOARD_PATHS.style:
        return send(res, 200, "text/css; charset=utf-8", assets.style, head);
      case DASHBOARD_PATHS.status: {
        this.frames.touch();
        const { config, clock } = this.options;
        const status = await gatherStatus(this.options.sources, this.frames.current, {
          clock,
          pollMs: config.pollMs,
          recentSessions: config.recentSessions,
          who,
          tokenRequired: this.auth.tokenRequired,
        });
        this.onCalibration(status.calibration.present ? status.calibration.createdAt : null);
        return sendJson(res, 200, status);
      }
      case DASHBOARD_PATHS.frame: {
        const frame = this.frames.current.frame;
        if (!frame) return sendJson(res, 404, { error: { code: "NO_FRAME", message: "no view yet" } });
        res.setHeader("x-frame-id", String(frame.id));
        return send(res, 200, "image/jpeg", frame.jpeg, head);
      }
      case DASHBOARD_PATHS.sessionImage: {
        const image = await this.options.sources.sessionImage(
          url.searchParams.get("session") ?? "",
          url.searchParams.get("name") ?? "",
        );
        if (!image) return sendJson(res, 404, { error: { code: "NOT_FOUND", message: "no such image" } });
        return send(res, 200, image.contentType, image.body, head);
      }
      default:
        return sendJson(
          res,
          405,
          { error: { code: "METHOD_NOT_ALLOWED", message: "use POST" } },
          { allow: "POST" },
        );
    }
  }

  /**
   * A new calibration in use makes the view stale (taken through the old map, or a "not calibrated"
   * error): look again now rather than after `frameRefreshMs`, so the page agrees with itself sooner.
   */
  private onCalibration(createdAt: string | null): void {
    const before = this.seenCalibration;
    this.seenCalibration = createdAt;
    const watching = this.options.config.frameRefreshMs > 0; // 0: the user looks only with Peek
    if (watching && before !== undefined && createdAt !== null && createdAt !== before)
      void this.frames.refresh();
  }

  private action(path: string, res: ServerResponse): Action | null {
    const { sources, config } = this.options;
    const underLease = async (who: string, label: string, signal: AbortSignal, work: () => Promise<void>) => {
      const lease = await sources.owner.acquire({
        priority: config.priority,
        label: `dashboard:${label}`,
        signal,
        waitLimitMs: config.waitLimitMs,
      });
      try {
        this.options.log.info(`dashboard: ${label}`, { who, waitedMs: lease.waitedMs });
        await work();
      } finally {
        lease.release();
      }
    };
    switch (path) {
      case DASHBOARD_PATHS.peek:
        return async () => {
          const state = await this.frames.refresh();
          if (state.error !== null) throw new PiclawError("DASHBOARD_PEEK_FAILED", state.error);
          return { frame: state.frame ? { id: state.frame.id, takenAt: state.frame.takenAt } : null };
        };
      case DASHBOARD_PATHS.park:
        return async (who, signal) => {
          await underLease(who, "park", signal, () => sources.arm.park());
          return { message: "parked" };
        };
      case DASHBOARD_PATHS.estop:
        // An emergency does not wait for the arm's holder.
        return async (who) => {
          this.options.log.warn("dashboard: emergency stop", { who });
          await sources.arm.estop(`dashboard (${who})`);
          return { message: "emergency stop latched" };
        };
      case DASHBOARD_PATHS.estopReset:
        return async (who, signal) => {
          await underLease(who, "e-stop reset", signal, async () => {
            sources.arm.resetEstop();
            await sources.arm.reference();
          });
          return { message: "e-stop reset; the arm is referenced again" };
        };
      case DASHBOARD_PATHS.confirmParked:
        // The page asked "the carriage is at the park spot — I checked" before posting this.
        return async (who, signal) => {
          await underLease(who, "confirm parked", signal, () => sources.arm.confirmParked());
          return { message: "confirmed at the park spot; the arm is referenced and may move" };
        };
      case DASHBOARD_PATHS.calibrate:
        // Runs in the daemon in the background (a minute or more); the page follows it in the readiness.
        return async (who) => {
          if (!sources.calibrator)
            throw new PiclawError(
              "CALIBRATION_UNAVAILABLE",
              "this server does not calibrate; run `piclaw calibrate`",
            );
          sources.calibrator.start(`dashboard:${who}`);
          this.options.log.info("dashboard: calibrate", { who });
          return { message: "calibrating: the progress shows in the banner" };
        };
      case DASHBOARD_PATHS.logout:
        return async () => {
          res.setHeader("set-cookie", this.auth.logout(res.req));
          return { message: "logged out" };
        };
      default:
        return null;
    }
  }

  private async run(
    path: string,
    action: Action,
    who: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    // A caller that goes away stops waiting for the arm.
    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    req.resume();
    try {
      const result = await action(who, abort.signal);
      sendJson(res, 200, { ok: true, ...result });
    } catch (err) {
      const code = err instanceof PiclawError ? err.code : "INTERNAL";
      if (code === "INTERNAL") this.options.log.error("dashboard action failed", { path, err });
      else this.options.log.info("dashboard action refused", { path, code });
      const message = code === "INTERNAL" ? "internal error; see the PiClaw log" : errorMessage(err);
      sendJson(res, code === "INTERNAL" ? 500 : 409, { ok: false, error: { code, message } });
    }
  }

  private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let token = "";
    try {
      const body = await readBody(req, 4096);
      token = new URLSearchParams(body.toString("utf8")).get("token")?.trim() ?? "";
    } catch {
      // An oversized body is simply a failed login.
    }
    const cookie = token ? this.auth.login(req, token) : null;
    if (!cookie) {
      this.options.log.info("dashboard login refused", { address: req.socket.remoteAddress });
      return this.sendLogin(res, 401, "That token was not accepted.");
    }
    // Like /mcp: a live token that shows up anywhere in a later log line is scrubbed.
    this.options.log.addSecret(token);
    this.options.log.info("dashboard login");
    res.writeHead(303, { location: "/", "set-cookie": cookie, "cache-control": "no-store" });
    res.end();
  }

  private refuse(res: ServerResponse, verdict: Exclude<AuthVerdict, { ok: true }>, page: boolean): void {
    if (page && verdict.loginPage) {
      this.sendLogin(res, 401, null);
      return;
    }
    const headers: Record<string, string> =
      verdict.status === 401 ? { "www-authenticate": 'Bearer realm="piclaw"' } : {};
    sendJson(res, verdict.status, { error: { code: "UNAUTHORIZED", message: verdict.message } }, headers);
  }

  private sendLogin(res: ServerResponse, status: number, problem: string | null): void {
    const assets = this.assets;
    if (!assets) {
      sendJson(res, 503, { error: { code: "DASHBOARD_NOT_STARTED", message: "starting" } });
      return;
    }
    res.setHeader("www-authenticate", 'Bearer realm="piclaw"');
    send(res, status, "text/html; charset=utf-8", assets.loginPage(problem), false);
  }
}

/** Security headers on every reply: the page loads only its own files, in no frame. */
const PAGE_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  // Not no-referrer: under it Chromium sends `Origin: null` on the login form's POST.
  "referrer-policy": "same-origin",
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; "),
};

const sendJson = jsonSender(PAGE_HEADERS);

function send(res: ServerResponse, status: number, type: string, body: Buffer | string, head: boolean): void {
  res.writeHead(status, { ...PAGE_HEADERS, "content-type": type });
  res.end(head ? undefined : body);
}
