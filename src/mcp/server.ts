import type { CallToolResult, ServerContext, StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Logger } from "../log/logger.js";
import type { PhoneOwner } from "../rig/owner.js";
import { invokeTool } from "../tools/invoke.js";
import type { AnyPhoneTool, ToolCaller, ToolResult } from "../tools/types.js";
import { PiclawError } from "../util/errors.js";
import { type RawToolArguments, rawIdKey } from "./raw-arguments.js";

/** What the model reads once per connection: how to work with a phone it sees through a camera. */
export const MCP_INSTRUCTIONS = `PiClaw operates a real phone: a camera looks down at it and a stylus on an arm touches it.
Work in a loop: look, act, look.
1. Look with peek (the overhead camera; it changes nothing). It returns an image and a listing of the
   elements on screen, each with a bbox [left, top, right, bottom] in 0–1 fractions of the screen.
2. Act with one gesture (tap, double_tap, long_press, swipe, home_screen, go_back, force_quit,
   unlock_phone, send_to_clipboard), choosing the bbox from the latest listing. A gesture answers with
   what it did, whether the screen changed, and a fresh image and listing.
3. Check that result before the next action. If the screen did not change, look again rather than
   repeating the same tap blindly; apps can be slow, so a second peek after a moment is often enough.
Use sequence only for short runs of gestures you are sure about (e.g. type digits); it stops at the
first failure. screenshot gives the phone's own pixel-perfect capture but may show a thumbnail
afterwards: peek again before tapping. The arm is shared: a gesture may wait its turn, and you get
progress while it waits; a "busy" error means try again a little later.`;

export interface McpServerDeps {
  tools: readonly AnyPhoneTool[];
  owner: PhoneOwner;
  /** Owner priority class of MCP callers, and an optional wait limit for them. */
  priority: string;
  waitLimitMs?: number;
  log: Logger;
  version: string;
}

/** Check a tool list once at start: unique, well-formed names. */
export function checkToolList(tools: readonly AnyPhoneTool[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(tool.name)) {
      throw new PiclawError("TOOL_NAME_INVALID", `tool name "${tool.name}" must be snake_case`);
    }
    if (seen.has(tool.name)) throw new PiclawError("TOOL_DUPLICATE", `two tools are named "${tool.name}"`);
    seen.add(tool.name);
  }
}

const jsonSchemas = new WeakMap<AnyPhoneTool, Record<string, unknown>>();

/**
 * The tool's argument schema as the SDK wants it: JSON Schema for `tools/list`, and a validator that
 * passes every value through. Validation happens in `invokeTool` — the same code path the built-in
 * agent uses — so a bad call gets our field-naming message as an error result, and `run` never sees it.
 */
function wireSchema(tool: AnyPhoneTool): StandardSchemaWithJSON<Record<string, unknown>> {
  let json = jsonSchemas.get(tool);
  if (!json) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(tool.input, { target: "draft-2020-12", io: "input" });
    json = rest;
    jsonSchemas.set(tool, json);
  }
  const schema = json;
  return {
    "~standard": {
      version: 1,
      vendor: "piclaw",
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/**
 * A fresh MCP server (one per HTTP request, stateless) with the phone tools registered. `rawArgs`
 * (see raw-arguments.ts) are the request body's tool arguments as sent; a call found there is
 * checked against those, not the SDK's rebuilt copy.
 */
export function buildMcpServer(
  deps: McpServerDeps,
  caller: ToolCaller,
  rawArgs?: RawToolArguments | null,
): McpServer {
  const server = new McpServer(
    { name: "piclaw", title: "PiClaw phone", version: deps.version },
    { instructions: MCP_INSTRUCTIONS, maxToolInputElements: 256 },
  );
  if (deps.tools.length === 0) answerEmptyToolList(server);
  for (const tool of deps.tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: wireSchema(tool),
        annotations: { title: tool.title, openWorldHint: true, ...tool.annotations },
      },
      async (args, ctx) => {
        const key = rawIdKey(ctx.mcpReq.id);
        const sent = rawArgs?.has(key) ? rawArgs.get(key) : args;
        return toCallToolResult(await callTool(deps, tool, caller, sent, ctx));
      },
    );
  }
  return server;
}

/** With no tools registered the SDK would not offer `tools` at all; clients expect an empty list. */
function answerEmptyToolList(server: McpServer): void {
  server.server.registerCapabilities({ tools: { listChanged: false } });
  server.server.setRequestHandler("tools/list", async () => ({ tools: [] }));
  server.server.setRequestHandler("tools/call", async (request) => {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
  });
}

async function callTool(
  deps: McpServerDeps,
  tool: AnyPhoneTool,
  caller: ToolCaller,
  args: unknown,
  ctx: ServerContext,
): Promise<ToolResult> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  let step = 0;
  const onProgress =
    progressToken === undefined
      ? undefined
      : (message: string) => {
          step += 1;
          ctx.mcpReq
            .notify({ method: "notifications/progress", params: { progressToken, progress: step, message } })
            .catch(() => {
              // The client may have gone; the call itself still completes or aborts on its signal.
            });
        };
  return invokeTool(tool, args, {
    owner: deps.owner,
    caller,
    priority: deps.priority,
    signal: ctx.mcpReq.signal,
    ...(deps.waitLimitMs !== undefined ? { waitLimitMs: deps.waitLimitMs } : {}),
    ...(onProgress ? { onProgress } : {}),
    log: deps.log,
  });
}

function toCallToolResult(result: ToolResult): CallToolResult {
  return {
    content: result.content.map((part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "image" as const, data: part.data, mimeType: part.mimeType },
    ),
    isError: result.isError,
  };
}
