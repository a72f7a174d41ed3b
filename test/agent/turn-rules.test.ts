import { afterEach, describe, expect, it } from "vitest";
import { closing, type FakeReply, turn } from "../fakes/openai-server.js";
import { type Harness, harness, toolTexts, userTexts, WAKE } from "./harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});

const tap = { bbox: [0.1, 0.1, 0.3, 0.2] };

interface BadShape {
  name: string;
  reply: FakeReply;
  /** Text the correction must contain (names the offending tool). */
  names: string;
  /** Tool calls in the reply (each must get a `not run` result). */
  calls: number;
}

const BAD_SHAPES: BadShape[] = [
  { name: "prose only", reply: { content: "I will tap the clock." }, names: "no tool", calls: 0 },
  {
    name: "note only",
    reply: { toolCalls: [{ name: "note", args: { summary: "thinking" } }] },
    names: "only note",
    calls: 1,
  },
  {
    name: "action without note",
    reply: { toolCalls: [{ name: "tap", args: tap }] },
    names: "`tap` was called without note",
    calls: 1,
  },
  {
    name: "two actions",
    reply: {
      toolCalls: [
        { name: "note", args: { summary: "open clock" } },
        { name: "tap", args: tap },
        { name: "peek", args: {} },
      ],
    },
    names: "`tap`, `peek`",
    calls: 3,
  },
  {
    name: "two notes",
    reply: {
      toolCalls: [
        { name: "note", args: { summary: "a" } },
        { name: "note", args: { summary: "b" } },
        { name: "tap", args: tap },
      ],
    },
    names: "note + tap",
    calls: 3,
  },
  {
    name: "unknown tool",
    reply: {
      toolCalls: [
        { name: "note", args: { summary: "open" } },
        { name: "open_app", args: { app: "Clock" } },
      ],
    },
    names: "`open_app` is not a tool",
    calls: 2,
  },
  {
    name: "note over 20 words",
    reply: {
      toolCalls: [
        { name: "note", args: { summary: Array.from({ length: 21 }, (_, i) => `w${i}`).join(" ") } },
        { name: "tap", args: tap },
      ],
    },
    names: "summary must be at most 20 words",
    calls: 2,
  },
  {
    name: "note arguments not JSON",
    reply: {
      toolCalls: [
        { name: "note", args: "{summary: oops" },
        { name: "peek", args: {} },
      ],
    },
    names: "note + peek",
    calls: 2,
  },
];

describe("turn rules", () => {
  for (const shape of BAD_SHAPES) {
    it(`rejects ${shape.name} before any tool runs, answers every call, and names the tool`, async () => {
      h = await harness();
      h.server.enqueue(shape.reply, turn("open the clock app", "tap", tap), closing("DONE", "done"));
      const outcome = await h.runner.run(WAKE, new AbortController().signal);
      expect(outcome.status).toBe("DONE");
      // The rejected turn ran nothing: the only phone run is the re-issued tap.
      expect(h.phone.runs.map((r) => r.tool)).toEqual(["tap"]);
      const second = h.server.requests[1]?.body.messages ?? [];
      const notRun = toolTexts(second).filter((t) => t.includes("not run"));
      expect(notRun).toHaveLength(shape.calls);
      const correction = userTexts(second).at(-1) ?? "";
      expect(correction).toMatch(/^Turn rejected, nothing was run/);
      expect(correction).toContain(shape.names);
      expect(h.ofType("bad_turn")).toHaveLength(1);
      expect(h.transcriptIssues()).toEqual([]);
    });
  }

  it("five bad turns in a row make the attempt STUCK; a fresh attempt starts from the same wake", async () => {
    h = await harness();
    const bad: FakeReply = { toolCalls: [{ name: "tap", args: tap }] };
    h.server.enqueue(bad, bad, bad, bad, bad, closing("DONE", "done on the second try"));
    const outcome = await h.runner.run(WAKE, new AbortController().signal);
    expect(outcome).toMatchObject({ status: "DONE", attempts: 2, recap: "done on the second try" });
    expect(h.ofType("bad_turn").map((e) => e.consecutive)).toEqual([1, 2, 3, 4, 5]);
    expect(h.ofType("attempt_end").map((e) => e.status)).toEqual(["STUCK", "DONE"]);
    // The second attempt starts from a fresh window: system + wake only.
    const fresh = h.server.requests[5]?.body.messages ?? [];
    expect(fresh.map((m) => m.role)).toEqual(["system", "user"]);
    expect(h.phone.runs).toEqual([]);
    expect(h.transcriptIssues()).toEqual([]);
  });

  it("a good turn resets the bad-turn count", async () => {
    h = await harness();
    const bad: FakeReply = { content: "hmm" };
    h.server.enqueue(
      bad,
      bad,
      bad,
      bad,
      turn("look", "peek"),
      bad,
      bad,
      bad,
      bad,
      closing("IDLE", "nothing to do"),
    );
    const outcome = await h.runner.run(WAKE, new AbortController().signal);
    expect(outcome).toMatchObject({ status: "IDLE", attempts: 1 });
    expect(h.ofType("bad_turn").map((e) => e.consecutive)).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  });

  it("invalid arguments of the action are a tool error the model reads, not a bad turn", async () => {
    h = await harness();
    h.server.enqueue(turn("tap it", "tap", { bbox: [0.5, 0.5] }), closing("FAIL", "cannot tap"));
    const outcome = await h.runner.run(WAKE, new AbortController().signal);
    expect(outcome.status).toBe("FAIL");
    expect(h.ofType("bad_turn")).toHaveLength(0);
    const texts = toolTexts(h.server.requests[1]?.body.messages ?? []);
    expect(texts.some((t) => t.includes("tap: invalid arguments") && t.includes("bbox"))).toBe(true);
    expect(h.phone.runs).toEqual([]);
  });

  it("an invalid end_session is an error result and the session goes on", async () => {
    h = await harness();
    h.server.enqueue(turn("close", "end_session", { status: "FINISHED", recap: "x" }), closing("DONE", "ok"));
    const outcome = await h.runner.run(WAKE, new AbortController().signal);
    expect(outcome.status).toBe("DONE");
    const texts = toolTexts(h.server.requests[1]?.body.messages ?? []);
    expect(texts.some((t) => t.includes("end_session: invalid arguments") && t.includes("status"))).toBe(
      true,
    );
  });
});
