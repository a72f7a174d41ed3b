import { afterEach, describe, expect, it } from "vitest";
import { AgentEvents } from "../../src/agent/events.js";
import { closing, turn } from "../fakes/openai-server.js";
import { type Harness, harness, WAKE } from "./harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});

describe("agent events", () => {
  it("a session emits its events in order, all with the session id and the injected clock", async () => {
    h = await harness();
    h.server.enqueue(turn("look at the phone", "peek"), closing("DONE", "ok"));
    const outcome = await h.runner.run(WAKE, new AbortController().signal);
    expect(h.events.map((e) => e.type)).toEqual([
      "session_start",
      "attempt_start",
      "turn_start",
      "model_request",
      "model_response",
      "note",
      "tool_start",
      "tool_end",
      "turn_start",
      "model_request",
      "model_response",
      "note",
      "tool_start",
      "tool_end",
      "attempt_end",
      "session_end",
    ]);
    expect(new Set(h.events.map((e) => e.sessionId))).toEqual(new Set([outcome.sessionId]));
    expect(h.events.every((e) => e.at === WAKE.at)).toBe(true);
    expect(h.ofType("note").map((e) => e.summary)).toEqual(["look at the phone", "closing the session"]);
    const request = h.ofType("model_request")[0];
    expect(request?.estimatedPromptTokens).toBeGreaterThan(0);
    const response = h.ofType("model_response")[0];
    expect(response?.usage.completion).toBe(20);
    expect(response?.toolCalls.map((c) => c.name)).toEqual(["note", "peek"]);
    const peek = h.ofType("tool_end")[0];
    expect(peek).toMatchObject({ name: "peek", isError: false, verdict: null });
    expect(peek?.result.content[0]).toMatchObject({ type: "image" });
    expect(outcome.sessionId).toMatch(/^20260105-094100-[0-9a-f]{4}$/);
  });

  it("gesture verdicts are reported on tool_end", async () => {
    h = await harness();
    h.server.enqueue(turn("open clock", "tap", { bbox: [0.1, 0.1, 0.3, 0.2] }), closing("DONE", "ok"));
    await h.runner.run(WAKE, new AbortController().signal);
    expect(h.ofType("tool_end")[0]).toMatchObject({ name: "tap", verdict: "changed" });
  });

  it("folding past the policy's threshold is reported and keeps the transcript legal", async () => {
    h = await harness({ provider: { fold: { firstAt: 4, keep: 2, every: 3 } } });
    for (let i = 0; i < 10; i++) h.server.enqueue(turn(`look ${i}`, "peek"));
    h.server.enqueue(closing("DONE", "ok"));
    await h.runner.run(WAKE, new AbortController().signal);
    const folds = h.ofType("fold");
    expect(folds.length).toBeGreaterThanOrEqual(2);
    expect(folds[0]?.report.foldedTurns).toBeGreaterThan(0);
    expect(h.transcriptIssues()).toEqual([]);
  });

  it("a throwing listener does not break the loop", async () => {
    const errors: unknown[] = [];
    const events = new AgentEvents((err) => errors.push(err));
    const seen: string[] = [];
    events.on(() => {
      throw new Error("bad listener");
    });
    const off = events.onType("steer", (e) => seen.push(e.text));
    events.emit({ type: "steer", sessionId: "s", at: 0, attempt: 1, text: "hi" });
    off();
    events.emit({ type: "steer", sessionId: "s", at: 0, attempt: 1, text: "again" });
    expect(seen).toEqual(["hi"]);
    expect(errors).toHaveLength(2);
  });
});
