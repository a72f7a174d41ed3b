import type { ServerResponse } from "node:http";

/**
 * The streaming half of the fake OpenAI server: a whole chat completion turned into the chunk
 * events OpenAI sends for `stream: true` (a role chunk, content fragments, per tool call a first
 * fragment with id/type/name then argument fragments, a finish chunk, the usage chunk with empty
 * `choices` when `stream_options.include_usage` was asked for, then `data: [DONE]`), and 2xx bodies
 * of any size written with backpressure, recording how much went out.
 */

export interface StreamOptions {
  /** Characters per content / arguments fragment (default 4). */
  pieceChars?: number;
  /** What happens after `after` events: the normal end, silence until `stop()`, or a reset. */
  ending?: "done" | "stall" | "cut";
  /** Events sent before `ending` applies (default: all). */
  after?: number;
  /** While stalled, an SSE comment (`: keep-alive`) every this many ms. */
  keepAliveMs?: number;
  /** Bytes per `write` (default: one write per event), to split events across reads. */
  writeBytes?: number;
}

/** A record of a huge body: how much was written and whether all of it was. */
export interface SentBody {
  bytes: number;
  written: number;
  complete: boolean;
}

interface Completion {
  id: string;
  model: string;
  choices: Array<{
    finish_reason: string;
    message: {
      content: string | null;
      tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    };
  }>;
  usage: unknown;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The SSE events (each `data: …\n\n`) of a completion. */
export function chunkEvents(completion: Completion, includeUsage: boolean, pieceChars = 4): string[] {
  const base = { id: completion.id, object: "chat.completion.chunk", created: 0, model: completion.model };
  const chunk = (delta: unknown, finish: string | null = null) =>
    JSON.stringify({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const choice = completion.choices[0];
  const events = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of pieces(choice?.message.content ?? "", pieceChars))
    events.push(chunk({ content: piece }));
  (choice?.message.tool_calls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of pieces(call.function.arguments, pieceChars)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, choice?.finish_reason ?? "stop"));
  if (includeUsage) events.push(JSON.stringify({ ...base, choices: [], usage: completion.usage }));
  events.push("[DONE]");
  return events.map((e) => `data: ${e}\n\n`);
}

/** Writes the events as the options say; `hold` keeps a stalled response until the server stops. */
export function writeStream(
  res: ServerResponse,
  events: string[],
  options: StreamOptions,
  hold: (res: ServerResponse) => void,
): void {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  const ending = options.ending ?? "done";
  const sent = events.slice(0, ending === "done" ? events.length : (options.after ?? events.length));
  const text = sent.join("");
  const writes = options.writeBytes ? pieces(text, options.writeBytes) : sent;
  for (const w of writes) res.write(w);
  if (ending === "done") {
    res.end();
    return;
  }
  if (ending === "cut") {
    setImmediate(() => res.socket?.destroy());
    return;
  }
  hold(res);
  if (options.keepAliveMs) {
    const timer = setInterval(() => res.write(": keep-alive\n\n"), options.keepAliveMs);
    res.on("close", () => clearInterval(timer));
  }
}

/**
 * A 2xx body of `bytes` bytes, valid if read whole: a completion whose content is `x`s, or (stream)
 * content chunks of 64 KB. Written piece by piece, waiting for `drain`, so only what the client
 * reads (plus the sockets' buffers) ever leaves; `record` shows how far it got.
 */
export function writeHuge(
  res: ServerResponse,
  options: { bytes: number; stream?: boolean; contentLength?: boolean },
  record: SentBody,
): void {
  const piece = "x".repeat(64 * 1024);
  const [head, unit, tail] = options.stream
    ? [
        "",
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`,
        "data: [DONE]\n\n",
      ]
    : [
        '{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"',
        piece,
        '"}}]}',
      ];
  const count = Math.max(1, Math.ceil((options.bytes - head.length - tail.length) / unit.length));
  record.bytes = head.length + count * unit.length + tail.length;
  res.writeHead(200, {
    "content-type": options.stream ? "text/event-stream" : "application/json",
    ...(options.contentLength ? { "content-length": record.bytes } : {}),
  });
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  const write = (text: string) => {
    record.written += text.length;
    return res.write(text);
  };
  write(head);
  let sent = 0;
  const pump = () => {
    while (!closed && sent < count) {
      sent++;
      if (!write(unit)) {
        res.once("drain", pump);
        return;
      }
    }
    if (closed) return;
    write(tail);
    res.end(() => {
      record.complete = true;
    });
  };
  pump();
}
