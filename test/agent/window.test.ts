import { describe, expect, it } from "vitest";
import { MEMORY_TEXT, SKILL_TEXT, scriptedSession } from "../../bench/agent-session-script.js";
import { foldPolicySchema } from "../../src/agent/fold.js";
import type { ChatMessage } from "../../src/agent/messages.js";
import type { ToolOutcome } from "../../src/agent/ports.js";
import { transcriptProblems } from "../../src/agent/transcript-check.js";
import { ContextWindow } from "../../src/agent/window.js";
import type { ToolResult } from "../../src/tools/types.js";
import { PiclawError } from "../../src/util/errors.js";

const JPEG = "/9j/4AAQSkZJRgABAQ"; // stands in for a base64 JPEG: the window never decodes it

/** The window must be legal after every single operation. */
function legal(w: ContextWindow): ChatMessage[] {
  const messages = w.messages();
  expect(transcriptProblems(messages)).toEqual([]);
  return messages;
}

function textOf(m: ChatMessage): string {
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return "";
  return m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
}

/** Every text the model reads, tool-call arguments included (a live note's summary is there). */
function allText(ms: ChatMessage[]): string {
  const calls = (m: ChatMessage) =>
    m.role === "assistant"
      ? (m.tool_calls ?? []).map((c) => (c.type === "function" ? c.function.arguments : ""))
      : [];
  return ms.flatMap((m) => [textOf(m), ...calls(m)]).join("\n");
}

function imageCount(ms: ChatMessage[]): number {
  let n = 0;
  for (const m of ms) {
    if (Array.isArray(m.content)) n += m.content.filter((p) => p.type === "image_url").length;
  }
  return n;
}

function runTurns(w: ContextWindow, turns: number, fold = true): ReturnType<typeof scriptedSession> {
  const script = scriptedSession(turns, JPEG);
  for (const t of script) {
    w.addAssistant(t.content, t.calls);
    legal(w);
    w.addToolResults(t.outcomes);
    legal(w);
    if (fold) w.maybeFold();
    legal(w);
  }
  return script;
}

const peekResult = (rows: string): ToolResult => ({
  content: [
    { type: "image", mimeType: "image/jpeg", data: JPEG },
    { type: "text", text: `peek: the screen as the camera sees it\n${rows}` },
  ],
  isError: false,
});

const tapResult = (rows: string): ToolResult => ({
  content: [
    {
      type: "text",
      text: "tap at (0.500, 0.300)\nscreen: changed\nnext: the image and listing below are the screen now",
    },
    { type: "image", mimeType: "image/jpeg", data: JPEG },
    { type: "text", text: `listing after the gesture:\n${rows}` },
  ],
  isError: false,
});

const note = (id: string, summary: string): ToolOutcome => ({
  callId: id,
  name: "note",
  args: { summary },
  result: { content: [{ type: "text", text: "noted" }], isError: false },
});

function turn(w: ContextWindow, n: number, name: string, result: ToolResult, args = "{}"): void {
  w.addAssistant(null, [
    { id: `n${n}`, name: "note", arguments: JSON.stringify({ summary: `note ${n}` }) },
    { id: `t${n}`, name, arguments: args },
  ]);
  w.addToolResults([note(`n${n}`, `note ${n}`), { callId: `t${n}`, name, args: {}, result }]);
}

const ROWS_A = [
  '1 [text] "Clock" [0.061,0.188,0.203,0.204] 0.97',
  '2 [icon] "" [0.300,0.188,0.400,0.230] 0.88',
  '3 [text] "Timer" [0.061,0.300,0.203,0.320] 0.95',
  '4 [switch] "Wi-Fi" on [0.800,0.400,0.930,0.440] 0.90',
  '5 [key] "q" [0.010,0.700,0.090,0.750] 0.99',
  '6 [status] "9:41" [0.000,0.000,1.000,0.058] 0.99',
].join("\n");

describe("ContextWindow: legal transcript", () => {
  it("starts as system + wake and stays legal through a long scripted session", () => {
    const w = new ContextWindow({ system: "SYSTEM" });
    w.addUser("wake: set a timer");
    const ms = legal(w);
    expect(ms.map((m) => m.role)).toEqual(["system", "user"]);
    runTurns(w, 120);
    expect(w.turns).toBe(120);
  });

  it("leaves a turn whose calls are running out of messages() and queues a steer behind its results", () => {
    const w = new ContextWindow({ system: "S" });
    w.addUser("wake");
    w.addAssistant(null, [
      { id: "a", name: "note", arguments: '{"summary":"look"}' },
      { id: "b", name: "peek", arguments: "{}" },
    ]);
    w.addUser("steer: use the Clock app");
    let ms = legal(w);
    expect(ms.some((m) => m.role === "assistant")).toBe(false);
    expect(w.turns).toBe(0);
    w.addToolResults([
      note("a", "look"),
      { callId: "b", name: "peek", args: {}, result: peekResult(ROWS_A) },
    ]);
    ms = legal(w);
    expect(w.turns).toBe(1);
    expect(ms.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user", "user"]);
    expect(textOf(ms.at(-1) as ChatMessage)).toBe("steer: use the Clock app");
    expect(imageCount(ms.slice(-2, -1))).toBe(1); // the image comes right after the tool messages
  });

  it("answers a bad turn's calls and a prose-only reply legally", () => {
    const w = new ContextWindow({ system: "S" });
    w.addUser("wake");
    w.addAssistant("I will tap", [
      { id: "x", name: "tap", arguments: "{}" },
      { id: "y", name: "swipe", arguments: "{}" },
    ]);
    const rejected: ToolResult = {
      content: [{ type: "text", text: "not run: a turn needs a note" }],
      isError: true,
    };
    w.addToolResults([
      { callId: "x", name: "tap", args: {}, result: rejected },
      { callId: "y", name: "swipe", args: {}, result: rejected },
    ]);
    w.addUser("Re-issue the tap with a note.");
    legal(w);
    w.addAssistant("Done, I think.", []);
    const ms = legal(w);
    expect(w.turns).toBe(2);
    expect(ms.at(-1)).toEqual({ role: "assistant", content: "Done, I think." });
    const toolTexts = ms.filter((m) => m.role === "tool").map(textOf);
    expect(toolTexts.every((t) => t.startsWith("[error] "))).toBe(true);
  });

  it("rejects results that do not answer the pending calls, and a new turn before results", () => {
    const w = new ContextWindow({ system: "S" });
    expect(() => w.addToolResults([])).toThrow(PiclawError);
    w.addAssistant(null, [{ id: "a", name: "peek", arguments: "{}" }]);
    expect(() => w.addAssistant(null, [])).toThrow(/addAssistant/);
    expect(() =>
      w.addToolResults([{ callId: "zzz", name: "peek", args: {}, result: peekResult(ROWS_A) }]),
    ).toThrow(/expected \[a\]/);
    legal(w);
  });

  it("the checker itself catches illegal transcripts", () => {
    const base: ChatMessage[] = [{ role: "system", content: "S" }];
    expect(
      transcriptProblems([
        ...base,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "a", type: "function", function: { name: "peek", arguments: "{}" } }],
        },
        { role: "user", content: "hi" },
      ]),
    ).toHaveLength(1);
    expect(transcriptProblems([...base, { role: "tool", tool_call_id: "q", content: "x" }])).toHaveLength(1);
    expect(
      transcriptProblems([
        ...base,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "a", type: "function", function: { name: "peek", arguments: "{}" } }],
        },
        {
          role: "tool",
          tool_call_id: "a",
          content: [{ type: "image_url", image_url: { url: "data:" } }],
        } as never,
      ]),
    ).toHaveLength(1);
    expect(transcriptProblems([{ role: "user", content: "no system" }])).toHaveLength(1);
  });
});

describe("ContextWindow: only the newest image is live", () => {
  it("turns older images into stubs that keep text and switch rows and drop icon, key, status rows and hints", () => {
    const w = new ContextWindow({ system: "S" });
    w.addUser("wake");
    turn(w, 1, "peek", peekResult(ROWS_A));
    expect(imageCount(legal(w))).toBe(1);
    turn(w, 2, "tap", tapResult(ROWS_A));
    turn(w, 3, "screenshot", peekResult(ROWS_A));
    const ms = legal(w);
    expect(imageCount(ms)).toBe(1);
    const tools = ms.filter((m) => m.role === "tool").map(textOf);
    const peekStub = tools[1] as string;
    const tapStub = tools[3] as string;
    expect(peekStub.split("\n")).toEqual([
      "(superseded peek)",
      '1 [text] "Clock" [0.061,0.188,0.203,0.204] 0.97',
      '3 [text] "Timer" [0.061,0.300,0.203,0.320] 0.95',
      '4 [switch] "Wi-Fi" on [0.800,0.400,0.930,0.440] 0.90',
    ]);
    expect(tapStub.split("\n")).toEqual([
      "(superseded tap)",
      "tap at (0.500, 0.300)",
      "screen: changed",
      '1 [text] "Clock" [0.061,0.188,0.203,0.204] 0.97',
      '3 [text] "Timer" [0.061,0.300,0.203,0.320] 0.95',
      '4 [switch] "Wi-Fi" on [0.800,0.400,0.930,0.440] 0.90',
    ]);
    expect(tools[5]).toContain('2 [icon] ""'); // the live one keeps everything
    const last = ms.at(-1) as ChatMessage;
    expect(last.role).toBe("user");
    expect(textOf(last)).toContain("turn 3 (screenshot)");
    expect(JSON.stringify(last)).toContain(`data:image/jpeg;base64,${JPEG}`);
  });

  it("keeps the newest image live when later turns carry none", () => {
    const w = new ContextWindow({ system: "S" });
    turn(w, 1, "peek", peekResult(ROWS_A));
    turn(w, 2, "wait", { content: [{ type: "text", text: "waited 5 s" }], isError: false });
    const ms = legal(w);
    expect(imageCount(ms)).toBe(1);
    expect(ms.filter((m) => m.role === "tool").map(textOf)).toContain("waited 5 s");
  });
});

describe("ContextWindow: folding", () => {
  it("keeps the newest image (with its listing) after the slots when a fold takes the turn that held it", () => {
    const policy = foldPolicySchema.parse({ firstAt: 3, keep: 2, every: 2 });
    const w = new ContextWindow({ system: "S", policy });
    const waited: ToolResult = { content: [{ type: "text", text: "waited 5 s" }], isError: false };
    turn(w, 1, "peek", peekResult(ROWS_A));
    turn(w, 2, "wait", waited);
    turn(w, 3, "wait", waited);
    expect(w.maybeFold()?.foldedTurns).toBe(1);
    const ms = legal(w);
    expect(imageCount(ms)).toBe(1);
    const image = ms.find((m) => m.role === "user" && Array.isArray(m.content)) as ChatMessage;
    expect(textOf(image)).toContain("Screen image from turn 1 (peek), the newest one");
    expect(textOf(image)).toContain('2 [icon] ""'); // the whole listing goes with the image
    turn(w, 4, "peek", peekResult(ROWS_A));
    expect(imageCount(legal(w))).toBe(1); // a live image replaces it
  });

  it("folds at 30, keeps 10, refolds every 20 (default policy)", () => {
    const w = new ContextWindow({ system: "S" });
    w.addUser("wake");
    const foldsAt: number[] = [];
    for (const t of scriptedSession(115, JPEG)) {
      w.addAssistant(t.content, t.calls);
      w.addToolResults(t.outcomes);
      const report = w.maybeFold();
      if (report) {
        foldsAt.push(w.turns);
        expect(report.foldedTurns).toBe(20);
        expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
        expect(report.tokensAfter).toBe(w.estimateTokens());
      }
      legal(w);
    }
    expect(foldsAt).toEqual([30, 50, 70, 90, 110]);
    expect(w.foldedTurns).toBe(100);
  });

  it("follows a custom policy", () => {
    const policy = foldPolicySchema.parse({ firstAt: 5, keep: 2, every: 3 });
    const w = new ContextWindow({ system: "S", policy });
    const folds: Array<[number, number]> = [];
    for (const t of scriptedSession(12, JPEG)) {
      w.addAssistant(t.content, t.calls);
      w.addToolResults(t.outcomes);
      const r = w.maybeFold();
      if (r) folds.push([w.turns, r.foldedTurns]);
    }
    expect(folds).toEqual([
      [5, 3],
      [8, 3],
      [11, 3],
    ]);
    expect(() => foldPolicySchema.parse({ firstAt: 5, keep: 5 })).toThrow();
  });

  it("keeps every note, every tool name and the verdicts visible after folding", () => {
    const w = new ContextWindow({ system: "S" });
    w.addUser("wake");
    const script = runTurns(w, 120);
    const text = allText(w.messages());
    for (const [i, t] of script.entries()) {
      const n = i + 1;
      const { summary } = (t.outcomes[0] as ToolOutcome).args as { summary: string };
      expect(text).toContain(summary);
      const other = t.calls[1]?.name as string;
      if (n <= 100) expect(text).toMatch(new RegExp(`^${n}\\. "[^\\n]*" → ${other}`, "m"));
    }
    expect(text).toMatch(/→ tap \{"bbox":\[[\d.,]+\]\} \(screen: (changed|no visible change)\)/);
    // old lines (all but the 20 newest folded turns) drop their arguments, never the name or outcome
    expect(text).toMatch(/^2\. "[^\n]*" → swipe \(screen: (changed|no visible change)\)$/m);
    expect(text).toMatch(/^99\. "[^\n]*" → \w+ \{/m);
    expect(w.messages()[1]).toEqual({ role: "user", content: "wake" }); // the wake message stays pinned
  });

  it("keeps memory and skill loads verbatim in a slot near the top", () => {
    const w = new ContextWindow({ system: "S" });
    w.addUser("wake");
    runTurns(w, 30);
    const ms = legal(w);
    const slot = textOf(ms[2] as ChatMessage);
    expect(slot).toContain(MEMORY_TEXT);
    expect(slot).toContain(SKILL_TEXT);
    expect(textOf(ms[3] as ChatMessage)).toMatch(/^\[Turns 1–20 were folded/);
    expect(textOf(ms[3] as ChatMessage)).toMatch(/^3\. .*→ read_memory \(kept verbatim above\)$/m);
    expect(ms[4]?.role).toBe("assistant"); // live turns follow the slots
  });

  it("keeps the newest re-read of memory only, and clips folded user messages", () => {
    const policy = foldPolicySchema.parse({ firstAt: 3, keep: 1, every: 2 });
    const w = new ContextWindow({ system: "S", policy });
    const mem = (t: string): ToolResult => ({ content: [{ type: "text", text: t }], isError: false });
    turn(w, 1, "read_memory", mem("old memory"));
    w.addUser(`steer: ${"x".repeat(1000)}`);
    turn(w, 2, "read_memory", mem("new memory"));
    turn(w, 3, "peek", peekResult(ROWS_A));
    expect(w.maybeFold()?.foldedTurns).toBe(2);
    const text = allText(legal(w));
    expect(text).toContain("new memory");
    expect(text).not.toContain("old memory");
    expect(text).toMatch(/user: steer: x+…/);
    expect(text.length).toBeLessThan(1500);
  });

  it("does not fold before firstAt", () => {
    const w = new ContextWindow({ system: "S" });
    for (const t of scriptedSession(29, JPEG)) {
      w.addAssistant(t.content, t.calls);
      w.addToolResults(t.outcomes);
      expect(w.maybeFold()).toBeNull();
    }
  });
});
