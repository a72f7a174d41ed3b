import { afterEach, describe, expect, it } from "vitest";
import { cronAt } from "../../src/agent/follow-up.js";
import type { WakeContext } from "../../src/agent/ports.js";
import { closing, turn } from "../fakes/openai-server.js";
import { type Harness, harness, WAKE } from "./harness.js";

/**
 * The provider against a misbehaving OpenAI-compatible server (issue 18, problems 1–4 and 12): the
 * real SDK and our provider over HTTP on 127.0.0.1, retries and Retry-After on virtual time.
 */

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});
const signal = () => new AbortController().signal;

const JOB_WAKE: WakeContext = {
  at: WAKE.at,
  triggers: [
    {
      kind: "cron",
      jobId: "water-plants",
      description: "remind me",
      context: "",
      scheduledFor: new Date(WAKE.at).toISOString(),
    },
  ],
};

describe("our own deadline (problem 1)", () => {
  it("headers then a stalled body: the request fails at timeoutMs (±1 s) and the same turn is retried", async () => {
    h = await harness({ provider: { timeoutMs: 2000 } });
    h.server.enqueue({ kind: "stall-body", bytes: 20 }, closing("DONE", "ok"));
    let sentAt = 0;
    let failedAt = 0;
    h.runner.events.onType("model_request", () => {
      sentAt = Date.now();
    });
    h.runner.events.onType("retry", () => {
      failedAt = Date.now();
    });
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.ofType("retry")[0]?.reason).toMatch(/no complete reply within 2 s/);
    const elapsed = failedAt - sentAt;
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThanOrEqual(3000);
    expect(h.server.requests).toHaveLength(2);
  });
});

describe("failure classification: a glitch retries the turn (problem 2)", () => {
  it("a reset mid-body ('terminated') retries the same turn with the same messages", async () => {
    h = await harness();
    h.server.enqueue(turn("look", "peek"), { kind: "cut-body", bytes: 40 }, closing("DONE", "ok"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.server.requests).toHaveLength(3);
    expect(h.server.requests[2]?.body.messages).toEqual(h.server.requests[1]?.body.messages);
    expect(h.ofType("retry")[0]?.reason).toMatch(/cut off mid-body/);
  });

  it("malformed JSON is retried once; twice in a row is fatal", async () => {
    h = await harness();
    h.server.enqueue({ kind: "raw", body: '{"choices": [' }, closing("DONE", "ok"));
    expect(await h.runner.run(WAKE, signal())).toMatchObject({ status: "DONE", attempts: 1 });
    h.server.enqueue({ kind: "raw", body: "<html>" }, { kind: "raw", body: "<html>" }, closing("DONE", "x"));
    const second = await h.runner.run(WAKE, signal());
    expect(second).toMatchObject({ status: "STUCK", attempts: 1 });
    expect(second.recap).toMatch(/reply is not JSON/);
    expect(h.server.requests).toHaveLength(4);
  });

  it.each([401, 403, 404])("HTTP %i is fatal: one request, no further attempt", async (status) => {
    h = await harness();
    h.server.enqueue({ kind: "http", status, body: { error: { message: "no" } } }, closing("DONE", "x"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "STUCK", attempts: 1 });
    expect(h.server.requests).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it("503 forever: maxRetries + 1 requests in all, and the error says how many over how long", async () => {
    h = await harness({ provider: { maxRetries: 5 } });
    h.server.setPolicy(() => ({ kind: "http", status: 503 }));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "STUCK", attempts: 1 });
    expect(h.server.requests).toHaveLength(6);
    expect(outcome.recap).toMatch(/^provider failed: provider default: HTTP 503 ×6 over \d+ s/);
  });
});

describe("Retry-After across the session (problem 3)", () => {
  it("Retry-After: 3600 → exactly one request, STUCK, and a job wake gets a follow-up after it", async () => {
    h = await harness({ provider: { retryMaxMs: 60_000 } });
    h.server.setPolicy(() => ({ kind: "http", status: 429, headers: { "retry-after": "3600" } }));
    const outcome = await h.runner.run(JOB_WAKE, signal());
    expect(outcome).toMatchObject({ status: "STUCK", attempts: 1 });
    expect(outcome.recap).toMatch(/retry after 3600 s/);
    expect(h.server.requests).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
    expect(h.jobs.upserts).toHaveLength(1);
    expect(h.jobs.upserts[0]?.schedule).toBe(cronAt(WAKE.at + 3600_000, "UTC"));
    expect(h.jobs.upserts[0]?.description).toMatch(/Retry-After/);

    // A session woken meanwhile does not send at all; a manual wake schedules nothing.
    h.clock.advance(60_000);
    const again = await h.runner.run(WAKE, signal());
    expect(again.status).toBe("STUCK");
    expect(again.recap).toMatch(/asked earlier to retry after/);
    expect(h.server.requests).toHaveLength(1);
    expect(h.jobs.upserts).toHaveLength(1);

    // Close to the instant, the next session waits out the rest, then sends.
    h.server.setPolicy(null).enqueue(closing("DONE", "ok"));
    h.clock.advance(3600_000 - 60_000 - 10_000);
    const later = await h.runner.run(WAKE, signal());
    expect(later.status).toBe("DONE");
    expect(h.sleeps).toEqual([10_000]);
    expect(h.server.requests).toHaveLength(2);
  });
});

describe("clear provider errors (problem 4)", () => {
  it.each([
    ["{}", "application/json", /reply has no choices/],
    ['{"choices": []}', "application/json", /reply has no choices/],
    ["null", "application/json", /reply is not a JSON object/],
    [
      'data: {"choices": []}\n\n',
      "text/event-stream",
      /provider streamed \(SSE\) but streaming was not requested/,
    ],
  ])("a 2xx body %j names its defect, once", async (body, contentType, pattern) => {
    h = await harness();
    h.server.enqueue({ kind: "raw", body, contentType });
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(outcome.recap).toMatch(pattern);
    expect(outcome.recap).not.toMatch(/Cannot read properties/);
    expect(outcome.recap.match(/provider default:/g)).toHaveLength(1);
    expect(h.server.requests).toHaveLength(1);
  });
});

describe("duplicate tool-call ids (problem 12)", () => {
  it("ids reused within a turn and across turns are made unique before they enter the transcript", async () => {
    h = await harness();
    const dup = {
      toolCalls: [
        { name: "note", args: { summary: "look" }, id: "call_same" },
        { name: "peek", args: {}, id: "call_same" },
      ],
    };
    h.server.enqueue(dup, dup, closing("DONE", "ok"));
    expect((await h.runner.run(WAKE, signal())).status).toBe("DONE");
    expect(h.transcriptIssues()).toEqual([]);
    const ids = h.ofType("model_response").flatMap((e) => e.toolCalls.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe("call_same");
  });
});

describe("bounded transcripts (problem 11)", () => {
  it("a 5 MB content and a 5 MB argument never reach the next request; the model is told", async () => {
    // Over the default maxReplyBytes (4 MB), which would end the turn before clipping; the clip
    // limits are the second line, for replies under the byte limit that are still far too long.
    h = await harness({ provider: { maxReplyBytes: 16 * 1024 * 1024 } });
    const huge = "x".repeat(5_000_000);
    h.server.enqueue(
      {
        content: huge,
        toolCalls: [
          { name: "note", args: { summary: "look" } },
          { name: "peek", args: {} },
        ],
      },
      {
        toolCalls: [
          { name: "note", args: { summary: "tap it" } },
          { name: "tap", args: { bbox: [0.1, 0.1, 0.2, 0.2], junk: huge } },
        ],
      },
      closing("DONE", "ok"),
    );
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("DONE");
    const sizes = h.server.requests.map((r) => JSON.stringify(r.body).length);
    expect(Math.max(...sizes)).toBeLessThan(100_000);
    expect(h.phone.runs.map((r) => r.tool)).toEqual(["peek"]); // the oversized tap never ran
    const last = JSON.stringify(h.server.requests[2]?.body.messages);
    expect(last).toContain("clipped by PiClaw: 5000000 characters");
    expect(last).toContain("the arguments of `tap` were 50000");
    expect(h.ofType("bad_turn")[0]?.reason).toMatch(/over the limit of 8000/);
    for (const e of h.ofType("model_response")) expect(JSON.stringify(e).length).toBeLessThan(20_000);
    expect(h.transcriptIssues()).toEqual([]);
  });
});
