import { afterEach, describe, expect, it } from "vitest";
import { closing, type FakeReply, turn } from "../fakes/openai-server.js";
import { type Harness, harness, WAKE } from "./harness.js";

/**
 * Optional streaming (`stream: true`, issue 18) against the misbehaving server: the real SDK sends
 * the request, our reader assembles the SSE chunks into the same reply the engine gets unstreamed,
 * under the same deadline, an idle bound, and the failure classification of whole replies.
 */

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});
const signal = () => new AbortController().signal;
const STREAM = { stream: true };

/** A whole reply, streamed. */
function streamed(
  reply: FakeReply,
  more: Omit<Extract<FakeReply, { kind: "stream" }>, "kind"> = {},
): FakeReply {
  if (reply.kind !== undefined && reply.kind !== "reply") throw new Error("streamed: a plain reply only");
  return { kind: "stream", reply, ...more };
}

/** ms between the model_request event and the first retry event, on the wall clock. */
function timeToRetry(harness: Harness): () => number {
  let sentAt = 0;
  let failedAt = 0;
  harness.runner.events.onType("model_request", () => {
    sentAt = Date.now();
  });
  harness.runner.events.onType("retry", () => {
    failedAt ||= Date.now();
  });
  return () => failedAt - sentAt;
}

describe("streamed replies", () => {
  it("asks for SSE with usage, and assembles text, tool calls and usage into the same reply", async () => {
    h = await harness({ provider: STREAM });
    const look = {
      content: "The Clock app should be on the first page.",
      toolCalls: [
        { name: "note", args: { summary: "look at the screen" }, id: "call_a1" },
        { name: "peek", args: {}, id: "call_a2" },
      ],
      usage: { prompt: 1234, completion: 56 },
    };
    h.server.enqueue(streamed(look), streamed(closing("DONE", "timer set")));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const first = h.ofType("model_response")[0];
    expect(first).toMatchObject({
      content: look.content,
      usage: { prompt: 1234, completion: 56 },
      finishReason: "tool_calls",
      toolCalls: [
        { id: "call_a1", name: "note", arguments: '{"summary":"look at the screen"}' },
        { id: "call_a2", name: "peek", arguments: "{}" },
      ],
    });
    expect(h.phone.runs.map((r) => r.tool)).toEqual(["peek"]);
    expect(h.transcriptIssues()).toEqual([]);
  });

  it("tool calls split into 3-character fragments and events split across reads come out whole", async () => {
    h = await harness({ provider: STREAM });
    const bbox = [0.125, 0.25, 0.375, 0.5];
    const tap = turn("tap the Clock icon — «Uhr» ☀", "tap", { bbox });
    h.server.enqueue(
      streamed(tap, { pieceChars: 3, writeBytes: 7 }),
      streamed(closing("DONE", "ok"), { pieceChars: 1, writeBytes: 5 }),
    );
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.phone.runs.map((r) => [r.tool, r.args])).toEqual([["tap", { bbox }]]);
    expect(h.ofType("note").map((n) => n.summary)).toEqual([
      "tap the Clock icon — «Uhr» ☀",
      "closing the session",
    ]);
    expect(outcome.recap).toBe("ok");
  });

  it("a stream that is not asked for is still a clear error", async () => {
    h = await harness();
    h.server.enqueue(streamed(closing("DONE", "ok")));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(outcome.recap).toMatch(/provider streamed \(SSE\) but streaming was not requested/);
    expect(h.server.requests[0]?.body.stream).toBeUndefined();
  });

  it("streaming asked for and a plain JSON reply given: read as a reply", async () => {
    h = await harness({ provider: STREAM });
    h.server.enqueue(closing("DONE", "plain"));
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE", recap: "plain" });
    expect(h.server.requests[0]?.body.stream).toBe(true);
  });
});

describe("streams under the same deadlines", () => {
  it("a stream that stalls after some chunks (keep-alives only) fails at timeoutMs ±1 s; the turn is retried", async () => {
    h = await harness({ provider: { ...STREAM, timeoutMs: 2000 } });
    h.server.enqueue(
      streamed(closing("DONE", "x"), { ending: "stall", after: 4, keepAliveMs: 200 }),
      streamed(closing("DONE", "ok")),
    );
    const elapsed = timeToRetry(h);
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1, recap: "ok" });
    expect(h.ofType("retry")[0]?.reason).toMatch(/no complete reply within 2 s/);
    expect(elapsed()).toBeGreaterThanOrEqual(1900);
    expect(elapsed()).toBeLessThanOrEqual(3000);
    expect(h.server.requests).toHaveLength(2);
  });

  it("silence between chunks longer than streamIdleMs fails at streamIdleMs ±1 s, well before timeoutMs", async () => {
    h = await harness({ provider: { ...STREAM, timeoutMs: 30_000, streamIdleMs: 1000 } });
    h.server.enqueue(
      streamed(closing("DONE", "x"), { ending: "stall", after: 4 }),
      streamed(closing("DONE", "ok")),
    );
    const elapsed = timeToRetry(h);
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.ofType("retry")[0]?.reason).toMatch(/the stream stalled: nothing for 1 s \(streamIdleMs\)/);
    expect(elapsed()).toBeGreaterThanOrEqual(900);
    expect(elapsed()).toBeLessThanOrEqual(2000);
  });
});

describe("stream failures are classified like whole replies", () => {
  it("an HTTP 503 before the stream is retried as without streaming", async () => {
    h = await harness({ provider: STREAM });
    h.server.enqueue({ kind: "http", status: 503 }, streamed(closing("DONE", "ok")));
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE", attempts: 1, recap: "ok" });
    expect(h.ofType("retry")[0]?.reason).toMatch(/HTTP 503/);
    expect(h.server.requests.map((r) => r.body.stream)).toEqual([true, true]);
  });

  it("the caller's signal aborts a stream mid-way: ABORTED at once, not a cut to retry", async () => {
    h = await harness({ provider: STREAM });
    h.server.enqueue(streamed(closing("DONE", "x"), { ending: "stall", after: 3 }), closing("DONE", "never"));
    const controller = new AbortController();
    h.runner.events.onType("model_request", () => setTimeout(() => controller.abort("shutdown"), 200));
    const outcome = await h.runner.run(WAKE, controller.signal);
    expect(outcome).toMatchObject({ status: "ABORTED", attempts: 1, recap: "aborted: shutdown" });
    expect(h.ofType("retry")).toEqual([]);
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.requests[0]?.body.stream).toBe(true);
  });

  it("a reset mid-stream retries the same turn with the same messages", async () => {
    h = await harness({ provider: STREAM });
    h.server.enqueue(
      streamed(turn("look", "peek")),
      streamed(closing("DONE", "x"), { ending: "cut", after: 5 }),
      streamed(closing("DONE", "ok")),
    );
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1, recap: "ok" });
    expect(h.server.requests).toHaveLength(3);
    expect(h.server.requests[2]?.body.messages).toEqual(h.server.requests[1]?.body.messages);
    expect(h.ofType("retry")[0]?.reason).toMatch(/cut off mid-stream/);
  });

  const sse = (...data: string[]) => data.map((d) => `data: ${d}\n\n`).join("");
  const good = '{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}';

  it("a stream that ends cleanly but early (no finish_reason, no [DONE]) is a cut: the turn is retried", async () => {
    h = await harness({ provider: STREAM });
    h.server.enqueue(
      { kind: "raw", contentType: "text/event-stream", body: sse(good) },
      streamed(closing("DONE", "ok")),
    );
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE", attempts: 1, recap: "ok" });
    expect(h.ofType("retry")[0]?.reason).toMatch(
      /cut off mid-stream \(the stream ended after 1 chunks, without data: \[DONE\]\)/,
    );
    expect(h.server.requests).toHaveLength(2);
  });

  it("a malformed chunk is named; retried once, twice in a row is fatal", async () => {
    h = await harness({ provider: STREAM });
    const bad: FakeReply = { kind: "raw", contentType: "text/event-stream", body: sse(good, "{not json") };
    h.server.enqueue(bad, streamed(closing("DONE", "ok")));
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.ofType("retry")[0]?.reason).toMatch(/stream chunk 2 is not JSON \(\{not json\)/);
    h.server.enqueue(bad, bad, closing("DONE", "x"));
    const second = await h.runner.run(WAKE, signal());
    expect(second).toMatchObject({ status: "STUCK", attempts: 1 });
    expect(second.recap).toMatch(/provider default: stream chunk 2 is not JSON/);
    expect(second.recap).not.toMatch(/Unexpected token|Cannot read/);
  });

  it("an error event mid-stream is retried; chunks of the wrong shape and empty streams are fatal", async () => {
    h = await harness({ provider: STREAM });
    const error = sse(good, '{"error":{"message":"The server had an error while processing your request."}}');
    h.server.enqueue(
      { kind: "raw", contentType: "text/event-stream", body: error },
      streamed(closing("DONE", "ok")),
    );
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE" });
    expect(h.ofType("retry")[0]?.reason).toMatch(/error mid-stream \(chunk 2\): The server had an error/);

    for (const [body, pattern] of [
      [
        sse('{"choices":[{"index":0,"delta":{"content":7}}]}', "[DONE]"),
        /stream chunk 1 is malformed at choices.0.delta.content/,
      ],
      [sse("[DONE]"), /the stream ended without a reply \(0 chunks, no choices\)/],
      [sse("null"), /stream chunk 1 is not a JSON object/],
    ] as const) {
      const before = h.server.requests.length;
      h.server.enqueue({ kind: "raw", contentType: "text/event-stream", body });
      const outcome = await h.runner.run(WAKE, signal());
      expect(outcome.status).toBe("STUCK");
      expect(outcome.recap).toMatch(pattern);
      expect(h.server.requests.length - before).toBe(1);
    }
  });
});

describe("a 2xx body size limit (maxReplyBytes)", () => {
  const MB = 1024 * 1024;

  /** The number of bytes the client had read when it gave up, from the message. */
  const keptBytes = (recap: string) => Number(/passed (\d+) bytes/.exec(recap)?.[1]);

  it.each([
    ["a JSON body without Content-Length", { stream: false }, { bytes: 20 * MB }],
    ["a stream of content chunks", { stream: true }, { bytes: 20 * MB, stream: true }],
  ])(
    "%s of 20 MB is cut off at 4 MB while reading: one request, a clear error",
    async (_, provider, huge) => {
      h = await harness({ provider });
      h.server.enqueue({ kind: "huge", ...huge }, closing("DONE", "x"));
      const outcome = await h.runner.run(WAKE, signal());
      expect(outcome).toMatchObject({ status: "STUCK", attempts: 1 });
      expect(outcome.recap).toMatch(
        /passed \d+ bytes \([\d.]+ MB\) and was cut off, over the limit maxReplyBytes = 4194304 bytes \(4 MB\)/,
      );
      expect(h.server.requests).toHaveLength(1); // not retried
      // Memory: the client stopped within one read of the limit, and the rest was never sent.
      expect(keptBytes(outcome.recap)).toBeGreaterThan(4 * MB);
      expect(keptBytes(outcome.recap)).toBeLessThan(5 * MB);
      const sent = h.server.hugeBodies[0];
      expect(sent?.complete).toBe(false);
      expect(sent?.written).toBeLessThan(sent?.bytes ?? 0);
    },
  );

  it("a Content-Length over the limit fails before the body is read", async () => {
    h = await harness({ provider: { maxReplyBytes: MB } });
    h.server.enqueue({ kind: "huge", bytes: 20 * MB, contentLength: true });
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(outcome.recap).toMatch(
      /the reply is \d+ bytes \(20 MB\) \(Content-Length\), over the limit maxReplyBytes = 1048576 bytes \(1 MB\)/,
    );
    expect(h.server.hugeBodies[0]?.complete).toBe(false);
  });

  it("one stream event that never ends is bounded too", async () => {
    h = await harness({ provider: { ...STREAM, maxReplyBytes: MB } });
    const body = `data: {"choices":[{"index":0,"delta":{"content":"${"x".repeat(2 * MB)}`;
    h.server.enqueue({ kind: "raw", contentType: "text/event-stream", body });
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(outcome.recap).toMatch(
      /one stream event passed \d+ characters, over the limit maxReplyBytes = 1048576 bytes/,
    );
  });

  it("a reply under the limit is untouched", async () => {
    h = await harness({ provider: { maxReplyBytes: 65_536 } });
    const end = closing("DONE", "ok");
    if (end.kind !== undefined) throw new Error("closing is a plain reply");
    h.server.enqueue({ ...end, content: "y".repeat(60_000) });
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE", recap: "ok" });
  });
});
