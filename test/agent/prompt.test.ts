import { afterEach, describe, expect, it, vi } from "vitest";
import type { SkillInfo, WakeContext } from "../../src/agent/ports.js";
import { buildSystemPrompt, buildWakeMessage, formatLocalTime } from "../../src/agent/prompt.js";
import { PiclawError } from "../../src/util/errors.js";

const tools = [
  { name: "peek", description: "Look at the phone through the overhead camera. Returns the screen." },
  { name: "tap", description: "Tap an element by its box. Waits for the screen to settle." },
  { name: "note", description: "Say what you do and why (≤20 words)." },
  { name: "end_session", description: "Close the session with a status and a recap." },
];
const skills: SkillInfo[] = [
  {
    name: "set-timer",
    description: "Set a countdown timer in the Clock app. Steps inside.",
    source: "bundled",
  },
  { name: "alarm", description: "Set an alarm.", source: "user" },
];
const input = { tools, memory: "- The Clock app is on page 2.", user: "Name: Ada. Lives in Berlin.", skills };

afterEach(() => vi.useRealTimers());

describe("buildSystemPrompt", () => {
  it("is byte-identical for the same inputs at different times (cache-friendly)", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const a = buildSystemPrompt(input);
    vi.setSystemTime(new Date("2026-07-15T13:37:00Z"));
    const b = buildSystemPrompt({ ...input, skills: [...skills].reverse() });
    expect(b).toBe(a);
    expect(a).not.toMatch(/2026|\d{1,2}:\d{2}/);
  });

  it("carries identity, tool use, turn rules, memory, USER.md and the skill index", () => {
    const p = buildSystemPrompt(input);
    expect(p).toMatch(/overhead camera/);
    expect(p).toMatch(/stylus/);
    expect(p).toContain('`id [kind] "label" [left,top,right,bottom] conf`');
    expect(p).toMatch(/fractions 0–1/);
    expect(p).toMatch(/Peek before the first action/);
    expect(p).toMatch(/screen: no visible change/);
    expect(p).toMatch(/`screenshot`[^\n]*it is an action, not a look/);
    expect(p).toMatch(/exactly two tools: `note\(summary\)` — at most 20 words/);
    for (const status of ["DONE", "FAIL", "WAIT", "IDLE", "STUCK"])
      expect(p).toMatch(new RegExp(`- ${status} — `));
    expect(p).toContain("- `peek`: Look at the phone through the overhead camera.");
    expect(p).not.toContain("Returns the screen."); // only the first sentence of each tool
    expect(p).toContain("# memory.md\n- The Clock app is on page 2.");
    expect(p).toContain("# USER.md\nName: Ada. Lives in Berlin.");
    expect(p.indexOf("`alarm`")).toBeLessThan(p.indexOf("`set-timer`"));
    expect(p).toContain("- `set-timer`: Set a countdown timer in the Clock app.");
  });

  it("says (empty) for missing memory and USER.md", () => {
    const p = buildSystemPrompt({ tools, memory: "  \n", user: "", skills: [] });
    expect(p).toContain("# memory.md\n(empty)");
    expect(p).toContain("# USER.md\n(empty)");
    expect(p).toMatch(/# Skills \(load one with load_skill\)\n\(none\)/);
  });
});

describe("buildWakeMessage", () => {
  const at = Date.UTC(2026, 10, 23, 18, 20); // Monday 23 November 2026, 19:20 in Berlin

  it("gives the local date and time and every trigger with the fired job's context", () => {
    const wake: WakeContext = {
      at,
      triggers: [
        {
          kind: "cron",
          jobId: "water-plants",
          description: "Remind the user to water the plants",
          context: "Send a message to Ada on Signal.\nOnly on weekdays.",
          scheduledFor: "2026-11-23T18:20:00.000Z",
        },
        { kind: "poll", reason: "a banner appeared at the top" },
        { kind: "manual", text: "set a 10-minute timer", from: "cli" },
      ],
    };
    const m = buildWakeMessage(wake, "Europe/Berlin");
    expect(m).toMatch(/^It is Monday, 23 November 2026, 19:20 \(Europe\/Berlin, GMT\+1\)\./);
    expect(m).toContain(
      "- job `water-plants` (due Monday, 23 November 2026, 19:20 (Europe/Berlin, GMT+1)): Remind the user to water the plants",
    );
    expect(m).toContain("  context: Send a message to Ada on Signal.\n  Only on weekdays.");
    expect(m).toContain('finish_job("water-plants"');
    expect(m).toContain("- the screen changed on its own: a banner appeared at the top");
    expect(m).toContain("- a request from cli: set a 10-minute timer");
  });

  it("handles no triggers and names the zone's offset in summer", () => {
    const m = buildWakeMessage({ at: Date.UTC(2026, 6, 1, 6, 5), triggers: [] }, "America/New_York");
    expect(m).toMatch(/^It is Wednesday, 1 July 2026, 02:05 \(America\/New_York, GMT-4\)\./);
    expect(m).toMatch(/nothing in particular/);
  });

  it("rejects an unknown time zone with a PiclawError", () => {
    expect(() => formatLocalTime(at, "Mars/Olympus")).toThrow(PiclawError);
  });
});
