import { createHmac, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { bearerToken, cookieValue, originMatchesHost } from "../http/headers.js";
import { HostGuard } from "../http/host-guard.js";
import { secureAttribute } from "../http/tls.js";
import { isLoopbackHost, type McpConfig } from "../mcp/config.js";
import type { TokenInfo } from "../mcp/tokens.js";
import type { Clock } from "../util/clock.js";

/**
 * The dashboard's access rules, the MCP endpoint's applied to a browser:
 * - Host and Origin are checked against the same names as `/mcp` (DNS rebinding → 403);
 * - on a loopback bind (and `mcp.requireToken: auto`) nothing else is needed;
 * - otherwise every request needs a live MCP token: as `Authorization: Bearer …` (scripts), or — for a
 *   browser — entered once in the login form, which sets an HttpOnly, SameSite=Strict cookie holding
 *   an HMAC of the token under a per-process key (never the token). The cookie dies with the token
 *   (`piclaw token revoke` ends it on the next request), after `loginHours`, or when the daemon restarts;
 * - requests that change anything are POSTs that must carry `x-piclaw-dashboard: 1` (a header a
 *   cross-site page cannot send without a CORS preflight, which is never granted) and, when the browser
 *   sends an Origin, one equal to the Host the request was made to.
 */

export const SESSION_COOKIE = "piclaw_dashboard";
/** The header state-changing requests must carry (forces a preflight for any cross-site sender). */
export const ACTION_HEADER = "x-piclaw-dashboard";
const MAX_LOGINS = 64;

export interface DashboardAuthOptions {
  /** `server.host`: any non-loopback address requires a token. */
  bindHost: string;
  mcp: Pick<McpConfig, "requireToken" | "allowedHosts" | "allowedOrigins">;
  tokens: { verify(presented: string): TokenInfo | null; list(): TokenInfo[] };
  /** Names and addresses this machine answers to (the MCP endpoint's list). */
  localNames: readonly string[];
  clock: Clock;
  /** How long a login lasts (ms). */
  loginMs: number;
  /** Key for the cookie's HMAC; default: 32 random bytes (logins end when the process does). */
  key?: Buffer;
  /** `dashboard.trustProxy`: believe `X-Forwarded-Proto: https` when deciding on `Secure`; default false. */
  trustProxy?: boolean;
}

export type AuthVerdict =
  | { ok: true; who: string }
  | { ok: false; status: 401 | 403; message: string; loginPage: boolean };

interface Login {
  tokenId: string;
  label: string;
  expiresAt: number;
}

export class DashboardAuth {
  readonly tokenRequired: boolean;
  private readonly guard: HostGuard;
  private readonly key: Buffer;
  private readonly logins = new Map<string, Login>();

  constructor(private readonly options: DashboardAuthOptions) {
    const { mcp } = options;
    this.tokenRequired = mcp.requireToken === "always" || !isLoopbackHost(options.bindHost);
    this.guard = new HostGuard({
      bindHost: options.bindHost,
      localNames: options.localNames,
      allowedHosts: mcp.allowedHosts,
      allowedOrigins: mcp.allowedOrigins,
    });
    this.key = options.key ?? randomBytes(32);
  }

  /** May this request read the dashboard? */
  check(req: IncomingMessage): AuthVerdict {
    const misdirected = this.guard.refusal(req);
    if (misdirected) return deny(403, misdirected);
    const presented = bearerToken(req.headers.authorization);
    if (presented) {
      const info = this.options.tokens.verify(presented);
      return info ? { ok: true, who: info.label } : deny(401, "invalid or revoked token");
    }
    const login = this.loginOf(req);
    if (login) return { ok: true, who: login.label };
    if (!this.tokenRequired) return { ok: true, who: "local" };
    return {
      ok: false,
      status: 401,
      message: "log in with an MCP token (piclaw token create)",
      loginPage: true,
    };
  }

  /** `check`, plus the rules for requests that change something (see the class comment). */
  checkAction(req: IncomingMessage): AuthVerdict {
    const verdict = this.check(req);
    if (!verdict.ok) return verdict;
    return this.sameOrigin(req) ? verdict : deny(403, "cross-site request refused");
  }

  /** POST /login: a same-origin form post with a live token → the Set-Cookie value, else null. */
  login(req: IncomingMessage, token: string): string | null {
    if (this.guard.hostRefusal(req) || !this.sameOriginForm(req)) return null;
    const info = this.options.tokens.verify(token);
    if (!info) return null;
    const value = this.sessionValue(token);
    this.logins.delete(value);
    this.logins.set(value, {
      tokenId: info.id,
      label: info.label,
      expiresAt: this.options.clock.now() + this.options.loginMs,
    });
    // Oldest logins go first when a stranger's many valid logins would grow the map without bound.
    for (const old of this.logins.keys()) {
      if (this.logins.size <= MAX_LOGINS) break;
      this.logins.delete(old);
    }
    const maxAge = Math.floor(this.options.loginMs / 1000);
    return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${this.secure(req)}`;
  }

  /** End the request's login; returns the Set-Cookie value that clears the cookie. */
  logout(req: IncomingMessage): string {
    const value = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (value) this.logins.delete(value);
    return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${this.secure(req)}`;
  }

  /** Over TLS the cookie must never travel in clear text (issue 19): `; Secure`, else nothing. */
  private secure(req: IncomingMessage): string {
    return secureAttribute(req, this.options.trustProxy ?? false);
  }

  private loginOf(req: IncomingMessage): Login | null {
    const value = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (!value) return null;
    const login = this.logins.get(value);
    if (!login) return null;
    const live = this.options.tokens.list().some((t) => t.id === login.tokenId);
    if (!live || login.expiresAt <= this.options.clock.now()) {
      this.logins.delete(value);
      return null;
    }
    return login;
  }

  private sessionValue(token: string): string {
    return createHmac("sha256", this.key).update(token, "utf8").digest("base64url");
  }

  /** A fetch from the page itself: the action header, and an Origin (if sent) naming the Host. */
  private sameOrigin(req: IncomingMessage): boolean {
    if (req.headers[ACTION_HEADER] !== "1") return false;
    return originMatchesHost(req);
  }

  /** The login form posts without custom headers: browsers always send Origin on a form POST. */
  private sameOriginForm(req: IncomingMessage): boolean {
    return req.headers.origin !== undefined && originMatchesHost(req);
  }
}

function deny(status: 401 | 403, message: string): AuthVerdict {
  return { ok: false, status, message, loginPage: false };
}
