import type { IncomingMessage } from "node:http";

/**
 * Did the client reach us over TLS? True when the socket itself is TLS, or — only with `trustProxy` —
 * when the reverse proxy in front says so with `X-Forwarded-Proto: https` (the first value of the
 * list: the proto the client used at the outermost proxy). Without `trustProxy` the header is
 * ignored: any client can send it, and a Secure cookie set over plain HTTP is simply never returned.
 */
export function cameOverTls(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean } | undefined)?.encrypted === true) return true;
  if (!trustProxy) return false;
  const header = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

/** `; Secure` for a Set-Cookie value when the request came over TLS (see `cameOverTls`), else "". */
export function secureAttribute(req: IncomingMessage, trustProxy: boolean): string {
  return cameOverTls(req, trustProxy) ? "; Secure" : "";
}
