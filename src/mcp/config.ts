import { isAbsolute, join } from "node:path";
import { z } from "zod";

/**
 * The `mcp:` config section. The endpoint itself is always `/mcp` on the HTTP server
 * (`server.host`/`server.port`).
 */
export const mcpConfigSchema = z
  .strictObject({
    requireToken: z
      .enum(["auto", "always"])
      .default("auto")
      .describe(
        "`auto`: a bearer token is needed on every request when `server.host` is not a loopback address; `always`: also on loopback.",
      ),
    tokenFile: z
      .string()
      .min(1)
      .default("tokens.json")
      .describe(
        "Where `piclaw token create` stores tokens (hashed, never the plaintext); relative to the state directory.",
      ),
    allowedHosts: z
      .array(z.string().min(1).max(253))
      .max(64)
      .default([])
      .describe(
        "Extra `Host` header names accepted (DNS-rebinding protection). Always accepted: localhost, loopback addresses, the bind address, this machine's name (also `<name>.local`) and its interface addresses.",
      ),
    allowedOrigins: z
      .array(z.string().min(1).max(253))
      .max(64)
      .default([])
      .describe(
        "Extra browser `Origin` host names accepted (e.g. a web-based MCP host). Requests without an Origin (ordinary MCP clients) are not affected; accepted host names are always allowed as origins.",
      ),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .default(1024 * 1024)
      .describe("Largest request body accepted; larger requests get HTTP 413."),
    rateLimitPerMinute: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(240)
      .describe(
        "Requests per minute per token (per client address without a token), each tool call counting as one (a JSON-RPC batch of N calls costs N); over it, HTTP 429 with Retry-After. 0 = no limit.",
      ),
    priority: z
      .string()
      .min(1)
      .default("remote")
      .describe("Priority class (see the arm-sharing classes) of tool calls from MCP clients."),
    waitLimitMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(60_000)
      .describe("How long an MCP tool call waits for the arm before it ends with a `busy` error (ms)."),
  })
  .describe("The MCP endpoint at /mcp (Streamable HTTP).");

export type McpConfig = z.output<typeof mcpConfigSchema>;

/** The token file's absolute path. */
export function tokenFilePath(config: Pick<McpConfig, "tokenFile">, stateDir: string): string {
  return isAbsolute(config.tokenFile) ? config.tokenFile : join(stateDir, config.tokenFile);
}

/** True for addresses only this machine can reach; any other bind address needs tokens. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1";
}
