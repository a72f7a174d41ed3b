import { z } from "zod";
import type { Logger } from "../log/logger.js";
import type { PhoneOwner } from "../rig/owner.js";
import { invokeTool } from "../tools/invoke.js";
import { type AnyPhoneTool, errorResult, type ToolResult } from "../tools/types.js";
import { type AnyLocalTool, invokeLocalTool, type LocalToolContext } from "./local-tools.js";
import type { ChatToolSchema } from "./messages.js";

/**
 * Every tool the agent may call: the phone tools (run in-process through `invokeTool` under the
 * PhoneOwner, caller kind `agent`, priority `local`) and the local tools. Gives the provider its
 * `tools=[…]` (JSON schemas from the zod inputs) and runs a call by name; never throws.
 */

/** Local tools that only read (their success does not end a loop-guard streak). */
const NEUTRAL_LOCAL = new Set([
  "note",
  "wait",
  "read_memory",
  "read_daily_log",
  "get_job",
  "list_jobs",
  "load_skill",
]);

/** Priority class of the built-in agent in the PhoneOwner queue. */
export const AGENT_PRIORITY = "local";

export interface ToolRunContext {
  owner: PhoneOwner;
  /** Label of the caller shown to other waiters (the session id). */
  label: string;
  signal: AbortSignal;
  log: Logger;
  local: LocalToolContext;
  onProgress?: (message: string) => void;
}

export class ToolCatalog {
  private readonly phone = new Map<string, AnyPhoneTool>();
  private readonly local = new Map<string, AnyLocalTool>();
  private cachedSchemas: ChatToolSchema[] | null = null;

  constructor(phoneTools: readonly AnyPhoneTool[], localTools: readonly AnyLocalTool[]) {
    for (const tool of phoneTools) this.phone.set(tool.name, tool);
    for (const tool of localTools) {
      if (this.phone.has(tool.name)) throw new Error(`tool name clash: ${tool.name}`);
      this.local.set(tool.name, tool);
    }
  }

  get names(): ReadonlySet<string> {
    return new Set([...this.phone.keys(), ...this.local.keys()]);
  }

  /** Read-only tools (views, waits, reads): a success does not break a loop-guard streak. */
  isNeutral(name: string): boolean {
    const phone = this.phone.get(name);
    if (phone) return phone.annotations.readOnlyHint;
    return NEUTRAL_LOCAL.has(name);
  }

  /** The provider's `tools=[…]`, local tools first (note, end_session lead), then the phone tools. */
  schemas(): ChatToolSchema[] {
    if (!this.cachedSchemas) {
      const all: Array<{ name: string; description: string; input: z.ZodType }> = [
        ...this.local.values(),
        ...this.phone.values(),
      ];
      this.cachedSchemas = all.map((tool) => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: jsonSchema(tool.input) },
      }));
    }
    return this.cachedSchemas;
  }

  async run(name: string, args: unknown, ctx: ToolRunContext): Promise<ToolResult> {
    const phone = this.phone.get(name);
    if (phone) {
      return invokeTool(phone, args, {
        owner: ctx.owner,
        caller: { kind: "agent", label: ctx.label },
        priority: AGENT_PRIORITY,
        signal: ctx.signal,
        log: ctx.log,
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
      });
    }
    const local = this.local.get(name);
    if (local) return invokeLocalTool(local, args, ctx.local);
    return errorResult(`${name}: no such tool`);
  }
}

function jsonSchema(input: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(input, { target: "draft-2020-12", io: "input" });
  return rest;
}
