import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chunkEvents, type SentBody, type StreamOptions, writeHuge, writeStream } from "./openai-stream.js";

/**
 * A fake OpenAI-compatible HTTP server on 127.0.0.1 for tests, the bench and the end-to-end session:
 * `POST …/chat/completions` answers from a script (a queue of replies, then an optional policy
 * function) and records every request body. It drives the real `openai` SDK, so the wire format
 * (tool_calls, usage, error statuses, Retry-After) is exercised for real.
 */

export interface FakeToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent as-is (to test malformed arguments). */
  args: unknown;
  /** Defaults to a unique `call_N`. */
  id?: string;
}

export type FakeReply =
  | {
      kind?: "reply";
      content?: string | null;
      toolCalls?: FakeToolCall[];
      /** Default: prompt ≈ request body chars / 4, completion 20. */
      usage?: { prompt: number; completion: number };
      finishReason?: string;
    }
  | { kind: "http"; status: number; headers?: Record<string, string>; body?: unknown }
  /** Accept the request and never answer (for timeouts and aborts); the socket closes on `stop()`. */
  | { kind: "hang" }
  /** Destroy the connection without an answer (a connection error for the client). */
  | { kind: "drop" }
  /** 200 headers and the first `bytes` of a reply, then silence until `stop()` (a stalled body). */
  | { kind: "stall-body"; bytes?: number }
  /** 200 headers and the first `bytes` of a reply, then the socket is destroyed (reset mid-body). */
  | { kind: "cut-body"; bytes?: number }
  /** A 2xx answer with this exact body text (malformed JSON, `null`, an SSE stream, …). */
  | { kind: "raw"; body: string; contentType?: string; status?: number }
  /** The reply as an SSE stream of chunks (see openai-stream.ts), whole, stalled or reset part-way. */
  | ({ kind: "stream"; reply?: Extract<FakeReply, { kind?: "reply" }> } & StreamOptions)
  /** A 2xx body of about `bytes` bytes (JSON, or an SSE stream), written with backpressure. */
  | { kind: "huge"; bytes: number; stream?: boolean; contentLength?: boolean };

export interface RecordedRequest {
  /** Path of the request, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (model, messages, tools, …). */
  body: ChatBody;
}

/** The parts of a chat completion request the fakes look at. */
export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [key: string]: unknown;
}

export type FakePolicy = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export class FakeOpenAIServer {
  readonly requests: RecordedRequest[] = [];
  /** Each `huge` body served: its size and how much of it was written before the client left. */
  readonly hugeBodies: SentBody[] = [];
  private readonly queue: FakeReply[] = [];
  private policy: FakePolicy | null = null;
  private server: Server | null = null;
  private readonly hanging = new Set<ServerResponse>();
  private nextCallId = 1;

  /** `http://127.0.0.1:PORT/v1` once started. */
  get baseUrl(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error("FakeOpenAIServer: not started");
    return `http://127.0.0.1:${address.port}/v1`;
  }

  /** Replies served in order, before the policy. */
  enqueue(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answers once the queue is empty (a scripted agent reading the requests). */
  setPolicy(policy: FakePolicy | null): this {
    this.policy = policy;
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      send(res, 404, { error: { message: `not found: ${req.method} ${req.url}` } });
      return;
    }
    let body: ChatBody;
    try {
      body = JSON.parse(text) as ChatBody;
    } catch {
      send(res, 400, { error: { message: "body is not JSON" } });
      return;
    }
    const recorded: RecordedRequest = { path: req.url, headers: { ...req.headers }, body };
    this.requests.push(recorded);
    let reply: FakeReply;
    try {
      const queued = this.queue.shift();
      if (queued) reply = queued;
      else if (this.policy) reply = await this.policy(recorded);
      else
        reply = { kind: "http", status: 400, body: { error: { message: "fake server: script exhausted" } } };
    } catch (err) {
      reply = {
        kind: "http",
        status: 400,
        body: { error: { message: `fake policy threw: ${String(err)}` } },
      };
    }
    this.answer(res, reply, text.length, body.stream_options);
  }

  private hold(res: ServerResponse): void {
    this.hanging.add(res);
    res.on("close", () => this.hanging.delete(res));
  }

  private answer(res: ServerResponse, reply: FakeReply, requestChars: number, streamOptions: unknown): void {
    switch (reply.kind) {
      case "stream": {
        const usage = (streamOptions as { include_usage?: unknown } | undefined)?.include_usage === true;
        const completion = this.replyBody(reply.reply ?? {}, requestChars);
        writeStream(res, chunkEvents(completion, usage, reply.pieceChars), reply, (r) => this.hold(r));
        return;
      }
      case "huge": {
        const record: SentBody = { bytes: 0, written: 0, complete: false };
        this.hugeBodies.push(record);
        writeHuge(res, reply, record);
        return;
      }
      case "http":
        send(res, reply.status, reply.body ?? { error: { message: `HTTP ${reply.status}` } }, reply.headers);
        return;
      case "hang":
        this.hanging.add(res);
        res.on("close", () => this.hanging.delete(res));
        return;
      case "drop":
        res.socket?.destroy();
        return;
      case "stall-body":
      case "cut-body": {
        const whole = JSON.stringify(this.replyBody({ content: "x".repeat(200) }, requestChars));
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(whole),
        });
        res.write(whole.slice(0, reply.bytes ?? 20));
        if (reply.kind === "cut-body") setImmediate(() => res.socket?.destroy());
        else {
          this.hanging.add(res);
          res.on("close", () => this.hanging.delete(res));
        }
        return;
      }
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      default:
        send(res, 200, this.replyBody(reply, requestChars));
    }
  }

  private replyBody(reply: Extract<FakeReply, { kind?: "reply" }>, requestChars: number) {
    const calls = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${this.nextCallId++}`,
      type: "function",
      function: {
        name: call.name,
        arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
      },
    }));
    const usage = reply.usage ?? { prompt: Math.ceil(requestChars / 4), completion: 20 };
    return {
      id: `chatcmpl-${this.requests.length}`,
      object: "chat.completion",
      created: 0,
      model: "fake",
      choices: [
        {
          index: 0,
          finish_reason: reply.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop"),
          message: {
            role: "assistant",
            content: reply.content ?? null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          },
        },
      ],
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
      },
    };
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A turn the rules accept: `note(summary)` plus one action. */
export function turn(summary: string, name: string, args: unknown = {}): FakeReply {
  return {
    toolCalls: [
      { name: "note", args: { summary } },
      { name, args },
    ],
  };
}

/** The closing turn: note + end_session(status, recap). */
export function closing(status: string, recap: string, summary = "closing the session"): FakeReply {
  return turn(summary, "end_session", { status, recap });
}
