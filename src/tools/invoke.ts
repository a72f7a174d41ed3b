import type { Logger } from "../log/logger.js";
import type { PhoneLease, PhoneOwner, WaitingInfo } from "../rig/owner.js";
import { PiclawError } from "../util/errors.js";
import { parseToolArgs } from "./args.js";
import { type AnyPhoneTool, errorResult, type ToolCaller, type ToolResult } from "./types.js";

/**
 * The one way a tool runs, for MCP and the built-in agent alike: validate (an invalid call reaches
 * neither the owner nor `run`), take the arm for tools that need it (reporting the place in line while
 * waiting), run, release. Every failure comes back as an error result; this function does not throw.
 */

export interface InvokeOptions {
  owner: PhoneOwner;
  caller: ToolCaller;
  /** Priority class for the owner (e.g. `remote` for MCP clients). */
  priority: string;
  signal: AbortSignal;
  /** Overrides the owner's configured wait limit (ms). */
  waitLimitMs?: number;
  /** Progress for the caller: waiting for the arm, and whatever the tool reports while it runs. */
  onProgress?: (message: string) => void;
  log: Logger;
}

export async function invokeTool(
  tool: AnyPhoneTool,
  rawArgs: unknown,
  options: InvokeOptions,
): Promise<ToolResult> {
  const { caller, log } = options;
  const checked = parseToolArgs(tool.input, rawArgs);
  if (!checked.ok) {
    log.debug("tool call refused: invalid arguments", { tool: tool.name, caller: caller.label });
    return errorResult(`${tool.name}: invalid arguments: ${checked.problems.join("; ")}. Nothing was done.`);
  }
  const progress = (message: string) => {
    try {
      options.onProgress?.(message);
    } catch {
      // Progress is a courtesy; a broken listener must not fail the call.
    }
  };
  let lease: PhoneLease | null = null;
  try {
    if (tool.needsArm) {
      lease = await options.owner.acquire({
        priority: options.priority,
        label: `${caller.kind}:${caller.label}`,
        signal: options.signal,
        ...(options.waitLimitMs !== undefined ? { waitLimitMs: options.waitLimitMs } : {}),
        onWaiting: (info) => progress(waitingMessage(tool.name, info)),
      });
    }
    const result = await tool.run(checked.value, {
      caller,
      signal: options.signal,
      lease,
      progress,
      log: log.child(`tool.${tool.name}`),
    });
    return normalise(result, tool.name);
  } catch (err) {
    return failureResult(tool.name, err, log);
  } finally {
    lease?.release();
  }
}

function waitingMessage(tool: string, info: WaitingInfo): string {
  const who = info.holder ? ` (the arm is in use by ${info.holder})` : "";
  return `${tool}: waiting for the arm, ${info.ahead} ahead${who}, ${(info.waitedMs / 1000).toFixed(0)} s so far`;
}

/** A tool that returns nothing usable still yields a well-formed result. */
function normalise(result: ToolResult | undefined, tool: string): ToolResult {
  if (!result || !Array.isArray(result.content)) return errorResult(`${tool}: returned no result`);
  return { content: result.content, isError: result.isError === true };
}

function failureResult(tool: string, err: unknown, log: Logger): ToolResult {
  if (err instanceof PiclawError) {
    if (err.code === "PHONE_BUSY") {
      return errorResult(`${tool}: the phone is ${err.message}. Nothing was done; try again shortly.`);
    }
    if (err.code === "ABORTED") return errorResult(`${tool}: cancelled before it started. Nothing was done.`);
    log.warn("tool failed", { tool, code: err.code, err });
    return errorResult(`${tool} failed [${err.code}]: ${err.message}`);
  }
  // Unexpected errors may carry internals (paths, stack); the caller gets a generic message.
  log.error("tool crashed", { tool, err });
  return errorResult(`${tool} failed with an internal error; see the PiClaw log.`);
}
