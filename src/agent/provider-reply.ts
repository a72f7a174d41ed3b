import { z } from "zod";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { TokenUsage } from "./events.js";
import type { ToolCallRecord } from "./ports.js";

/**
 * The edge between the provider's bytes and the agent: the body of a 2xx chat completion is checked
 * here (a provider that is down, misconfigured or hostile answers `null`, `{}`, an SSE stream or
 * half a JSON document as readily as a reply), and every failure of a request is sorted into
 * retryable-within-the-turn or fatal. Failure messages name what was wrong, without a prefix: the
 * provider adds `provider NAME:` exactly once.
 */

/** Codes of the PiclawErrors thrown inside one request; the provider sorts them with `classify`. */
export const FAULT = {
  /** Our deadline (headers and body) or the SDK's expired. Retryable. */
  timeout: "PROVIDER_TIMEOUT",
  /** The connection broke after the headers, mid-body ("terminated"). Retryable. */
  cut: "PROVIDER_CUT",
  /** The body is not JSON. Retryable once per request (a proxy hiccup), then fatal. */
  malformed: "PROVIDER_MALFORMED",
  /** JSON of the wrong shape, or an SSE stream nobody asked for. Fatal: it will not fix itself. */
  invalid: "PROVIDER_INVALID_REPLY",
  /** A `data: {"error": …}` event in a stream: the provider failed mid-reply, as with a 5xx. Retryable. */
  streamError: "PROVIDER_STREAM_ERROR",
  /**
   * A 2xx body over `maxReplyBytes`. Fatal, not retried: whatever made it (a model looping until its
   * token limit, a proxy serving the wrong file) is as likely to do it again, and every retry is
   * paid for in tokens and minutes of a metered connection before it fails the same way.
   */
  tooLarge: "PROVIDER_REPLY_TOO_LARGE",
} as const;

export interface ChatReply {
  content: string | null;
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
  finishReason: string | null;
}

/** Loose on purpose: providers add fields freely; only what we read is checked. */
const replySchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.looseObject({
                id: z.string().nullish(),
                type: z.string().nullish(),
                function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z
    .looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
    .nullish(),
});

/**
 * Parse the body of a 2xx answer. `newId` supplies ids for tool calls that arrive without one (some
 * local servers omit them). Throws PiclawError FAULT.* naming the defect.
 */
export function parseReply(text: string, contentType: string | null, newId: () => string): ChatReply {
  if (contentType?.includes("text/event-stream") || /^\s*(data|event):/.test(text)) {
    throw new PiclawError(FAULT.invalid, "provider streamed (SSE) but streaming was not requested");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PiclawError(FAULT.malformed, `reply is not JSON (${text.length} bytes: ${preview(text)})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new PiclawError(FAULT.invalid, `reply is not a JSON object (${preview(text)})`);
  }
  if (!("choices" in json) || !Array.isArray(json.choices) || json.choices.length === 0) {
    throw new PiclawError(FAULT.invalid, `reply has no choices (${preview(text)})`);
  }
  const parsed = replySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join(".") : "?";
    throw new PiclawError(FAULT.invalid, `reply is malformed at ${where}: ${issue?.message ?? "invalid"}`);
  }
  const choice = parsed.data.choices?.[0];
  if (!choice) throw new PiclawError(FAULT.invalid, "reply has no choices");
  const toolCalls: ToolCallRecord[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type && call.type !== "function") continue;
    toolCalls.push({
      id: call.id || newId(),
      name: call.function.name,
      arguments: call.function.arguments ?? "",
    });
  }
  return {
    content: choice.message.content ?? null,
    toolCalls,
    usage: {
      prompt: parsed.data.usage?.prompt_tokens ?? 0,
      completion: parsed.data.usage?.completion_tokens ?? 0,
    },
    finishReason: choice.finish_reason ?? null,
  };
}

/** The start of a body for an error message: one line, at most 80 characters. */
export function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return "empty";
  return flat.length <= 80 ? flat : `${flat.slice(0, 79)}…`;
}

export interface Classified {
  retryable: boolean;
  /** Groups failures in the give-up message: `HTTP 503`, `timeout`, `connection error`, … */
  kind: string;
  reason: string;
  status: number | null;
  headers: Headers | undefined;
}

const RETRY_STATUS = new Set([408, 409, 429]);

/**
 * Retryable within the turn: timeouts, connection errors and resets, 408/409/429/5xx, an error
 * event mid-stream, malformed JSON (the caller allows it once). Fatal: a reply over the size limit, every other status (401/403/404/400 — a wrong key, URL or
 * model name does not heal), a reply of the wrong shape, anything unrecognised.
 * `isApiError`/`isConnectionError` are the SDK's classes, passed in so this module stays SDK-free.
 */
export function classify(
  err: unknown,
  sdk: {
    isConnectionError(e: unknown): boolean;
    apiStatus(e: unknown): { status: number | null; headers: Headers | undefined } | null;
  },
): Classified {
  const none = { status: null, headers: undefined };
  if (err instanceof PiclawError) {
    if (err.code === FAULT.timeout) return { retryable: true, kind: "timeout", reason: err.message, ...none };
    if (err.code === FAULT.cut)
      return { retryable: true, kind: "connection cut", reason: err.message, ...none };
    if (err.code === FAULT.malformed)
      return { retryable: true, kind: "malformed reply", reason: err.message, ...none };
    if (err.code === FAULT.streamError)
      return { retryable: true, kind: "error mid-stream", reason: err.message, ...none };
    if (err.code === FAULT.tooLarge)
      return { retryable: false, kind: "reply too large", reason: err.message, ...none };
    return { retryable: false, kind: "invalid reply", reason: err.message, ...none };
  }
  if (sdk.isConnectionError(err)) {
    const reason = errorMessage(err);
    const kind = /timed? ?out/i.test(reason) ? "timeout" : "connection error";
    return { retryable: true, kind, reason, ...none };
  }
  const api = sdk.apiStatus(err);
  if (api) {
    const { status } = api;
    const retryable = status !== null && (RETRY_STATUS.has(status) || status >= 500);
    return {
      retryable,
      kind: `HTTP ${status ?? "?"}`,
      reason: `HTTP ${status ?? "?"}: ${firstLine(errorMessage(err))}`,
      status,
      headers: api.headers,
    };
  }
  return { retryable: false, kind: "error", reason: errorMessage(err), ...none };
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 300);
}
