import { z } from "zod";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { ToolCallRecord } from "./ports.js";
import { type ChatReply, FAULT, preview } from "./provider-reply.js";
import { SseDecoder, type SseEvent } from "./provider-sse.js";

/**
 * Reading a 2xx body, bounded: a whole (non-streamed) body, or an SSE stream assembled into the same
 * `ChatReply` as a non-streamed reply, so the engine cannot tell them apart.
 *
 * The stream format is OpenAI's "chat completion chunk" (API reference, Chat › Streaming,
 * https://platform.openai.com/docs/api-reference/chat-streaming, and the `ChatCompletionChunk` and
 * `ChatCompletionStreamOptions` types of the official `openai` package 6.49.0, generated from the
 * same spec): data-only server-sent events, each a JSON `chat.completion.chunk` whose
 * `choices[i].delta` carries the next `content` fragment and `tool_calls` fragments keyed by `index`
 * (`id`, `type` and `function.name` in the first fragment of a call, `function.arguments` in pieces);
 * the last choice chunk sets `finish_reason`; with `stream_options: {include_usage: true}` one more
 * chunk with empty `choices` carries `usage`; the stream ends with `data: [DONE]`. A provider may
 * also send `data: {"error": {...}}` mid-stream. Fragments are merged like the SDK's own
 * accumulator (`lib/ChatCompletionStream`): arguments concatenated, a later name replaces.
 */

/** Bytes, for messages: `4194304 bytes (4 MB)`. */
function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${bytes} bytes (${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB)`;
}

function tooLarge(what: string, limit: number): PiclawError {
  return new PiclawError(FAULT.tooLarge, `${what}, over the limit maxReplyBytes = ${sizeText(limit)}`, {
    limit,
  });
}

/**
 * Feeds the body to `onChunk` until it ends or `onChunk` returns true (enough); a read that fails
 * is a cut connection. The reader is cancelled when reading stops early, which closes the connection.
 */
async function eachChunk(
  response: Response,
  where: string,
  onChunk: (bytes: Uint8Array) => boolean | undefined,
): Promise<void> {
  const body = response.body;
  if (!body) return;
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (err) {
        throw new PiclawError(FAULT.cut, `the reply was cut off ${where} (${errorMessage(err)})`);
      }
      if (read.done) {
        finished = true;
        return;
      }
      if (onChunk(read.value)) return;
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined);
  }
}

/**
 * The whole body as text, never more than `maxBytes`: a `Content-Length` over the limit fails
 * before reading, a body without one is cut off as soon as it passes the limit.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge(`the reply is ${sizeText(declared)} (Content-Length)`, maxBytes);
  }
  const pieces: Uint8Array[] = [];
  let total = 0;
  await eachChunk(response, "mid-body", (bytes) => {
    total += bytes.byteLength;
    if (total > maxBytes) throw tooLarge(`the reply passed ${sizeText(total)} and was cut off`, maxBytes);
    pieces.push(bytes);
    return false;
  });
  return Buffer.concat(pieces, total).toString("utf8");
}

/**
 * Reads an SSE chat completion stream into a reply. Bounds: `maxBytes` applies to what is kept —
 * the assembled text and tool calls, and any single event — not to the SSE framing (~200 bytes
 * of JSON envelope per chunk), so a long streamed reply is judged like the same reply unstreamed.
 * `onData` is called for every piece received (keep-alive comments included): the idle timer.
 */
export async function readStreamedReply(
  response: Response,
  maxBytes: number,
  newId: () => string,
  onData: () => void = () => undefined,
): Promise<ChatReply> {
  const assembler = new ChunkAssembler(maxBytes);
  const decoder = new TextDecoder("utf-8");
  const sse = newDecoder(maxBytes);
  await eachChunk(response, "mid-stream", (bytes) => {
    onData();
    for (const event of sse.push(decoder.decode(bytes, { stream: true }))) assembler.add(event);
    // Stop at [DONE]: a server that keeps the connection open after it does not hold the turn.
    return assembler.done;
  });
  if (!assembler.done)
    for (const event of [...sse.push(decoder.decode()), ...sse.end()]) assembler.add(event);
  return assembler.reply(newId);
}

/** An SSE body that arrived whole, under another content type (some servers send `text/plain`). */
export function assembleStreamText(text: string, maxBytes: number, newId: () => string): ChatReply {
  const assembler = new ChunkAssembler(maxBytes);
  const sse = newDecoder(maxBytes);
  for (const event of [...sse.push(text), ...sse.end()]) assembler.add(event);
  return assembler.reply(newId);
}

function newDecoder(maxBytes: number): SseDecoder {
  return new SseDecoder(maxBytes, (chars) =>
    tooLarge(`one stream event passed ${chars} characters`, maxBytes),
  );
}

const usageSchema = z
  .looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
  .nullish();

const chunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.looseObject({
                  index: z.number().nullish(),
                  id: z.string().nullish(),
                  type: z.string().nullish(),
                  function: z
                    .looseObject({ name: z.string().nullish(), arguments: z.string().nullish() })
                    .nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema,
});

interface PartialCall {
  id: string;
  type: string;
  name: string;
  arguments: string;
}

/** Merges chunk events into one reply; throws PiclawError FAULT.* naming the defect. */
class ChunkAssembler {
  done = false;
  private chunks = 0;
  private sawChoice = false;
  private content: string | null = null;
  private readonly calls = new Map<number, PartialCall>();
  private lastCall = -1;
  private finishReason: string | null = null;
  private usage = { prompt: 0, completion: 0 };
  private kept = 0;

  constructor(private readonly maxBytes: number) {}

  add(event: SseEvent): void {
    if (this.done) return;
    if (event.data.trim() === "[DONE]") {
      this.done = true;
      return;
    }
    const n = ++this.chunks;
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      throw new PiclawError(FAULT.malformed, `stream chunk ${n} is not JSON (${preview(event.data)})`);
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new PiclawError(FAULT.invalid, `stream chunk ${n} is not a JSON object (${preview(event.data)})`);
    }
    if (("error" in json && json.error) || event.event === "error") {
      const error = "error" in json ? json.error : json;
      const message =
        typeof error === "object" && error !== null && "message" in error ? String(error.message) : "";
      throw new PiclawError(
        FAULT.streamError,
        `the provider sent an error mid-stream (chunk ${n}): ${message || preview(event.data)}`,
      );
    }
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? issue.path.join(".") : "?";
      throw new PiclawError(
        FAULT.invalid,
        `stream chunk ${n} is malformed at ${where}: ${issue?.message ?? "invalid"}`,
      );
    }
    const { choices, usage } = parsed.data;
    if (usage) {
      this.usage = { prompt: usage.prompt_tokens ?? 0, completion: usage.completion_tokens ?? 0 };
    }
    for (const choice of choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue; // n = 1: only the first choice is ever asked for
      this.sawChoice = true;
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (!delta) continue;
      if (delta.content) {
        this.keep(delta.content);
        this.content = (this.content ?? "") + delta.content;
      }
      for (const fragment of delta.tool_calls ?? []) this.merge(fragment);
    }
  }

  private merge(fragment: {
    index?: number | null;
    id?: string | null;
    type?: string | null;
    function?: { name?: string | null; arguments?: string | null } | null;
  }): void {
    // `index` is required by the format; a server that omits it gets one call per new id.
    let index = fragment.index ?? this.lastCall;
    if (fragment.index == null && fragment.id && this.calls.get(index)?.id !== fragment.id) {
      index = this.lastCall + 1;
    }
    index = Math.max(0, index);
    this.lastCall = Math.max(this.lastCall, index);
    let call = this.calls.get(index);
    if (!call) {
      call = { id: "", type: "", name: "", arguments: "" };
      this.calls.set(index, call);
    }
    if (fragment.id) call.id = fragment.id;
    if (fragment.type) call.type = fragment.type;
    const name = fragment.function?.name;
    if (name) {
      this.keep(name);
      call.name = name;
    }
    const args = fragment.function?.arguments;
    if (args) {
      this.keep(args);
      call.arguments += args;
    }
  }

  private keep(text: string): void {
    this.kept += Buffer.byteLength(text);
    if (this.kept > this.maxBytes) {
      throw tooLarge(`the streamed reply passed ${sizeText(this.kept)} and was cut off`, this.maxBytes);
    }
  }

  /**
   * The assembled reply. A stream that ends without `[DONE]` and without a `finish_reason` was cut
   * (retryable); one that never carried a choice is not a reply.
   */
  reply(newId: () => string): ChatReply {
    if (!this.done && this.finishReason === null) {
      throw new PiclawError(
        FAULT.cut,
        `the reply was cut off mid-stream (the stream ended after ${this.chunks} chunks, without data: [DONE])`,
      );
    }
    if (!this.sawChoice) {
      throw new PiclawError(
        FAULT.invalid,
        `the stream ended without a reply (${this.chunks} chunks, no choices)`,
      );
    }
    const toolCalls: ToolCallRecord[] = [];
    for (const [index, call] of [...this.calls.entries()].sort((a, b) => a[0] - b[0])) {
      if (call.type && call.type !== "function") continue;
      if (!call.name) {
        throw new PiclawError(FAULT.invalid, `streamed tool call ${index} has no function name`);
      }
      toolCalls.push({ id: call.id || newId(), name: call.name, arguments: call.arguments });
    }
    return { content: this.content, toolCalls, usage: this.usage, finishReason: this.finishReason };
  }
}
