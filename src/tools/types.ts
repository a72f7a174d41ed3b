import type { z } from "zod";
import type { Logger } from "../log/logger.js";
import type { PhoneLease } from "../rig/owner.js";

/**
 * The phone tools, shared by the MCP endpoint and the built-in agent. A tool is data (name, guidance,
 * argument schema, annotations) plus `run`. Dependencies (rig, vision pipeline, bridge) are closed over
 * by the factory that builds the tool; `ToolContext` only carries what differs per call.
 *
 * Contract of `run`:
 * - it is only ever called with arguments that passed `input` (see `invokeTool`), so an invalid call
 *   moves nothing;
 * - when `needsArm` is true it runs while the caller holds the arm (`ctx.lease` is set) and must not
 *   release the lease itself;
 * - failures are results (`isError: true` with a clear message), not exceptions. A thrown error is
 *   still caught by `invokeTool` and turned into an error result, so nothing reaches the transport.
 */

/** A text part of a tool result. */
export interface TextPart {
  type: "text";
  text: string;
}

/** A JPEG image part of a tool result (base64, no data: prefix). */
export interface ImagePart {
  type: "image";
  mimeType: "image/jpeg";
  data: string;
}

export type ToolContent = TextPart | ImagePart;

export interface ToolResult {
  content: ToolContent[];
  isError: boolean;
}

/** MCP tool annotations (hints for hosts: a view only reads, a gesture changes the phone). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint?: boolean;
  /** The phone talks to the outside world (messages, purchases…): true for every phone tool. */
  openWorldHint?: boolean;
}

/** Who is calling: used for the owner's priority class, log lines and progress messages. */
export interface ToolCaller {
  kind: "mcp" | "agent" | "job";
  /** Short, non-secret label (e.g. the MCP token's label), shown to other waiting callers. */
  label: string;
}

export interface ToolContext {
  caller: ToolCaller;
  /** Fires when the caller gives up (client disconnected, cancelled, agent stopped). */
  signal: AbortSignal;
  /** The arm, held for the whole run when the tool `needsArm`; null otherwise. */
  lease: PhoneLease | null;
  /** Tell the caller what is happening during a long run (an MCP progress notification). */
  progress(message: string): void;
  log: Logger;
}

export interface PhoneTool<Input extends z.ZodType = z.ZodType> {
  /** Wire name, snake_case (`tap`, `send_to_clipboard`). */
  name: string;
  title: string;
  /** Usage guidance for the model: when to use, typical timing, what to do next. */
  description: string;
  /** Strict argument schema; its messages name the field (see `args.ts`). */
  input: Input;
  annotations: ToolAnnotations;
  /** True when the tool moves the arm: it then runs under a lease from the PhoneOwner. */
  needsArm: boolean;
  run(args: z.output<Input>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool with its argument type erased, for lists of mixed tools. */
export type AnyPhoneTool = PhoneTool<z.ZodType>;

/**
 * Define a tool with a typed `run` and erase the argument type for registries. Safe because
 * `invokeTool` only passes `run` the output of `input`.
 */
export function definePhoneTool<Input extends z.ZodType>(tool: PhoneTool<Input>): AnyPhoneTool {
  return tool as unknown as AnyPhoneTool;
}

export function textResult(text: string, extra: ToolContent[] = []): ToolResult {
  return { content: [{ type: "text", text }, ...extra], isError: false };
}

export function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

export function jpegPart(jpeg: Buffer): ImagePart {
  return { type: "image", mimeType: "image/jpeg", data: jpeg.toString("base64") };
}
