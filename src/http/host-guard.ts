import type { IncomingMessage } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";

/**
 * DNS-rebinding guard shared by `/mcp` and the dashboard (and so the agent API): the Host header must
 * name this machine (its bind address, names and interface addresses, or `allowedHosts`), and an
 * Origin, when a browser sends one, must name one of those or `allowedOrigins`.
 */
export interface HostGuardOptions {
  /** `server.host`. */
  bindHost: string;
  /** Names and addresses this machine answers to (see `machineNames`). */
  localNames: readonly string[];
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

export class HostGuard {
  private readonly hosts: string[];
  private readonly origins: string[];

  constructor(options: HostGuardOptions) {
    this.hosts = allowedHostnames(options.bindHost, options.localNames, options.allowedHosts);
    this.origins = [...this.hosts, ...options.allowedOrigins.map((h) => h.toLowerCase())];
  }

  /** Why the request's Host is refused (the 403 message), or null when it is allowed. */
  hostRefusal(req: IncomingMessage): string | null {
    const host = validateHostHeader(req.headers.host, this.hosts);
    return host.ok ? null : `Host not allowed: ${host.message}`;
  }

  /** `hostRefusal`, then the Origin: the 403 message, or null when both are allowed. */
  refusal(req: IncomingMessage): string | null {
    const host = this.hostRefusal(req);
    if (host) return host;
    return validateOriginHeader(req.headers.origin, this.origins).ok ? null : "Origin not allowed";
  }
}

/** Host names (lower case, IPv6 in brackets) a request's Host header may name. */
function allowedHostnames(
  bindHost: string,
  localNames: readonly string[],
  extra: readonly string[],
): string[] {
  const names = new Set(["localhost", "127.0.0.1", "[::1]"]);
  const add = (name: string) => {
    const n = name.toLowerCase();
    if (!n || n === "0.0.0.0" || n === "::" || n === "[::]") return;
    names.add(n.includes(":") && !n.startsWith("[") ? `[${n}]` : n);
  };
  add(bindHost);
  for (const n of localNames) add(n);
  for (const n of extra) add(n);
  return [...names];
}

/** This machine's host name (also `<name>.local`) and interface addresses. */
export function machineNames(): string[] {
  const name = hostname();
  const out = [name, `${name}.local`];
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) out.push(info.address.split("%")[0] ?? info.address);
  }
  return out;
}
