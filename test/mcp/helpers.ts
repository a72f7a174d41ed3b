import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { HttpService } from "../../src/http/server.js";
import { Logger } from "../../src/log/logger.js";
import { type McpConfig, mcpConfigSchema } from "../../src/mcp/config.js";
import { createMcpEndpoint, type McpEndpoint } from "../../src/mcp/endpoint.js";
import { TokenStore } from "../../src/mcp/tokens.js";
import { type PhoneOwnerOptions, phoneOwnerConfigSchema } from "../../src/rig/config.js";
import { PhoneOwner } from "../../src/rig/owner.js";
import type { AnyPhoneTool } from "../../src/tools/types.js";
import { systemClock } from "../../src/util/clock.js";
import { fakePhoneTools, type RunRecord } from "../tools/fakes.js";

export interface StartedMcp {
  url: string;
  mcpUrl: string;
  owner: PhoneOwner;
  tokens: TokenStore;
  runs: RunRecord[];
  logLines: string[];
  endpoint: McpEndpoint;
  stop(): Promise<void>;
}

/** The MCP endpoint on a real HttpService (port 0) with the fake phone tools. */
export async function startMcp(
  options: {
    bindHost?: string;
    config?: Partial<McpConfig>;
    owner?: Partial<PhoneOwnerOptions>;
    gestureMs?: number;
    tools?: AnyPhoneTool[];
  } = {},
): Promise<StartedMcp> {
  const logLines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => logLines.push(l) },
    now: () => Date.now(),
  });
  const dir = mkdtempSync(join(tmpdir(), "piclaw-mcp-"));
  const tokens = new TokenStore(join(dir, "tokens.json"), systemClock);
  const owner = new PhoneOwner(phoneOwnerConfigSchema.parse(options.owner ?? {}), systemClock);
  const fakes = fakePhoneTools({ gestureMs: options.gestureMs ?? 0 });
  const bindHost = options.bindHost ?? "127.0.0.1";
  const endpoint = createMcpEndpoint({
    config: mcpConfigSchema.parse(options.config ?? {}),
    bindHost,
    tokens,
    tools: options.tools ?? fakes.tools,
    owner,
    log: log.child("mcp"),
    clock: systemClock,
    version: "0.0.0-test",
    localNames: ["piclaw-test.local"],
  });
  const http = new HttpService({}, log.child("http"), { "/mcp": (req, res) => endpoint.handle(req, res) });
  const bound = await http.start({ host: bindHost, port: 0 });
  const port = new URL(bound).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    mcpUrl: `${url}/mcp`,
    owner,
    tokens,
    runs: fakes.runs,
    logLines,
    endpoint,
    stop: async () => {
      await endpoint.close();
      await http.stop();
    },
  };
}

export type Era = "2025-11-25" | "2026-07-28";

/** A connected SDK client over Streamable HTTP, speaking the given protocol revision. */
export async function connectClient(mcpUrl: string, era: Era, token?: string): Promise<Client> {
  const client = new Client(
    { name: "piclaw-test", version: "1.0.0" },
    era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(
    new URL(mcpUrl),
    token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
  );
  await client.connect(transport);
  return client;
}

export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
