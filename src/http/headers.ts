import type { IncomingMessage } from "node:http";

/**
 * Request headers every endpoint reads the same way: the bearer credential, a cookie, and whether a
 * browser's Origin names the Host it sent the request to.
 */

/** The credential of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? null;
}

/** One cookie's value from a Cookie header (null when absent; an empty value stays ""). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Same-origin check for requests that change something: true when no Origin was sent (not a
 * browser, e.g. curl or a Shortcut) or when the Origin's host:port is the Host header (host names
 * compared case-insensitively); false for any other or an unparsable Origin.
 */
export function originMatchesHost(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === (req.headers.host ?? "").toLowerCase();
  } catch {
    return false;
  }
}
