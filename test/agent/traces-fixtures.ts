import type { AgentEvent } from "../../src/agent/events.js";

export const SECRET = "sk-live-TOPSECRET-4242";
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
export const T0 = Date.UTC(2026, 10, 23, 18, 0);

/** A two-attempt session: a STUCK attempt, then a DONE one with a peek and a tap. */
export function session(id: string, start = T0): AgentEvent[] {
  const base = { sessionId: id };
  const at = (s: number) => start + s * 1000;
  const peek = {
    content: [
      { type: "image" as const, mimeType: "image/jpeg" as const, data: JPEG.toString("base64") },
      { type: "text" as const, text: `peek\n1 [text] "API key: ${SECRET}" [0.1,0.1,0.5,0.2] 0.99` },
    ],
    isError: false,
  };
  return [
    {
      ...base,
      at: at(0),
      type: "session_start",
      provider: "fake",
      model: "m1",
      wake: { at: at(0), triggers: [{ kind: "manual", text: "set a timer", from: "cli" }] },
    },
    { ...base, at: at(0), type: "attempt_start", attempt: 1 },
    { ...base, at: at(1), type: "turn_start", attempt: 1, turn: 1 },
    {
      ...base,
      at: at(2),
      type: "model_response",
      attempt: 1,
      turn: 1,
      usage: { prompt: 1000, completion: 50 },
      durationMs: 900,
      content: null,
      toolCalls: [],
      finishReason: "stop",
    },
    { ...base, at: at(2), type: "bad_turn", attempt: 1, turn: 1, reason: "no tool calls", consecutive: 1 },
    { ...base, at: at(3), type: "attempt_end", attempt: 1, status: "STUCK", recap: "no progress", turns: 1 },
    { ...base, at: at(4), type: "attempt_start", attempt: 2 },
    { ...base, at: at(4), type: "turn_start", attempt: 2, turn: 1 },
    {
      ...base,
      at: at(5),
      type: "model_request",
      attempt: 2,
      turn: 1,
      estimatedPromptTokens: 4000,
      messageCount: 2,
    },
    {
      ...base,
      at: at(6),
      type: "model_response",
      attempt: 2,
      turn: 1,
      usage: { prompt: 1200, completion: 60 },
      durationMs: 1000,
      content: null,
      finishReason: "tool_calls",
      toolCalls: [
        { id: "c1", name: "note", arguments: JSON.stringify({ summary: "look first" }) },
        { id: "c2", name: "peek", arguments: "{}" },
      ],
    },
    { ...base, at: at(6), type: "note", attempt: 2, turn: 1, summary: "look first" },
    { ...base, at: at(6), type: "tool_start", attempt: 2, turn: 1, callId: "c2", name: "peek", args: {} },
    {
      ...base,
      at: at(7),
      type: "tool_end",
      attempt: 2,
      turn: 1,
      callId: "c2",
      name: "peek",
      args: {},
      isError: false,
      verdict: null,
      durationMs: 800,
      result: peek,
    },
    { ...base, at: at(8), type: "turn_start", attempt: 2, turn: 2 },
    { ...base, at: at(9), type: "note", attempt: 2, turn: 2, summary: `paste ${SECRET} then tap Start` },
    {
      ...base,
      at: at(9),
      type: "tool_end",
      attempt: 2,
      turn: 2,
      callId: "c4",
      name: "tap",
      args: { bbox: [0.1, 0.1, 0.2, 0.2], why: SECRET },
      isError: false,
      verdict: "changed",
      durationMs: 700,
      result: { ...peek, content: [{ type: "text", text: "tap\nscreen: changed" }, ...peek.content] },
    },
    {
      ...base,
      at: at(10),
      type: "attempt_end",
      attempt: 2,
      status: "DONE",
      recap: "timer running",
      turns: 2,
    },
    {
      ...base,
      at: at(10),
      type: "session_end",
      durationMs: 10_000,
      outcome: {
        sessionId: id,
        status: "DONE",
        recap: "timer running",
        attempts: 2,
        tokens: { prompt: 2200, completion: 110 },
        costUsd: 0.0123,
      },
    },
  ] as AgentEvent[];
}
