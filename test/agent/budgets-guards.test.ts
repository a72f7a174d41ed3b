import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dayKey } from "../../src/agent/budget.js";
import { ManualClock } from "../../src/util/clock.js";
import { closing, turn } from "../fakes/openai-server.js";
import { type Harness, harness, toolTexts, WAKE } from "./harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});

const signal = () => new AbortController().signal;
const bbox = [0.4, 0.4, 0.6, 0.5];

describe("budgets", () => {
  it("session tokens: the session stops (STUCK, no further attempt) once the limit is reached", async () => {
    h = await harness({ config: { budgets: { session: { maxTokens: 12_000 } } } });
    h.server.setPolicy(() => ({ ...turn("looking", "peek"), usage: { prompt: 5000, completion: 100 } }));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({
      status: "STUCK",
      attempts: 1,
      tokens: { prompt: 15_000, completion: 300 },
    });
    expect(outcome.recap).toMatch(/^budget stop: session tokens 15300 reached the limit 12000/);
    expect(h.ofType("budget_stop")).toEqual([
      expect.objectContaining({ budget: "tokens", scope: "session", limit: 12_000 }),
    ]);
    expect(h.server.requests).toHaveLength(3);
  });

  it("session wall time counts on the injected clock", async () => {
    h = await harness({
      config: { budgets: { session: { maxWallSeconds: 3600 } } },
      behaviour: async (name) => {
        if (name === "tap") h?.clock.advance(25 * 60_000);
        return undefined;
      },
    });
    h.server.setPolicy(() => turn("tap again", "tap", { bbox }));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(h.phone.runs).toHaveLength(3);
    expect(h.ofType("budget_stop")[0]).toMatchObject({ budget: "wallTime", scope: "session" });
  });

  it("session cost uses the provider's prices", async () => {
    h = await harness({
      provider: { prices: { inputPer1M: 2, outputPer1M: 8 } },
      config: { budgets: { session: { maxCostUsd: 0.05 } } },
    });
    h.server.setPolicy(() => ({ ...turn("look", "peek"), usage: { prompt: 10_000, completion: 1000 } }));
    const outcome = await h.runner.run(WAKE, signal());
    // Each turn costs 0.02 + 0.008 = 0.028 USD: the limit is passed after two turns.
    expect(h.server.requests).toHaveLength(2);
    expect(outcome.costUsd).toBeCloseTo(0.056, 6);
    expect(h.ofType("budget_stop")[0]).toMatchObject({ budget: "cost", scope: "session" });
  });

  it("day budgets persist in the state dir and reset on the next day in the configured zone", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 22, 30, 0));
    h = await harness({ clock, timeZone: "Europe/Berlin", config: { budgets: { day: { maxTurns: 3 } } } });
    h.server.setPolicy(() => turn("look", "peek"));
    const first = await h.runner.run(WAKE, signal());
    expect(first.status).toBe("STUCK");
    expect(h.server.requests).toHaveLength(3);
    const file = join(h.stateDir, "agent", "usage.json");
    const saved = JSON.parse(readFileSync(file, "utf8"));
    // 22:30 UTC is 23:30 in Berlin: still the 5th there.
    expect(saved).toMatchObject({ date: "2026-01-05", turns: 3, sessions: 1 });
    // A new runner (a restart) sees the persisted count and refuses to go on.
    const second = await harness({
      clock,
      stateDir: h.stateDir,
      timeZone: "Europe/Berlin",
      config: { budgets: { day: { maxTurns: 3 } } },
    });
    second.server.setPolicy(() => closing("DONE", "ok"));
    const refused = await second.runner.run(WAKE, signal());
    expect(refused.status).toBe("STUCK");
    expect(second.server.requests).toHaveLength(0);
    expect(second.ofType("budget_stop")[0]).toMatchObject({
      budget: "turns",
      scope: "day",
      used: 3,
      limit: 3,
    });
    // 23:00 UTC is midnight in Berlin: a new day.
    clock.advance(30 * 60_000);
    const next = await second.runner.run(WAKE, signal());
    expect(next.status).toBe("DONE");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ date: "2026-01-06", turns: 1 });
    await second.server.stop();
  });

  it("an unreadable usage file starts the day from zero", async () => {
    h = await harness();
    mkdirSync(join(h.stateDir, "agent"), { recursive: true });
    writeFileSync(join(h.stateDir, "agent", "usage.json"), "{not json");
    h.server.enqueue(closing("DONE", "ok"));
    expect((await h.runner.run(WAKE, signal())).status).toBe("DONE");
    expect(JSON.parse(readFileSync(join(h.stateDir, "agent", "usage.json"), "utf8"))).toMatchObject({
      turns: 1,
      sessions: 1,
    });
    expect(h.logLines.join("")).toContain("unreadable");
  });

  it("dayKey follows the zone", () => {
    const ms = Date.UTC(2026, 5, 30, 23, 30);
    expect(dayKey(ms, "UTC")).toBe("2026-06-30");
    expect(dayKey(ms, "Asia/Tokyo")).toBe("2026-07-01");
    expect(dayKey(ms, "America/Los_Angeles")).toBe("2026-06-30");
  });
});

describe("loop guards", () => {
  it("the same target with no visible change warns at 3 and is blocked at 5 (not run)", async () => {
    h = await harness({
      behaviour: async (name) =>
        name === "tap"
          ? { content: [{ type: "text", text: "tapped\nscreen: no visible change" }], isError: false }
          : undefined,
    });
    for (let i = 0; i < 5; i++) h.server.enqueue(turn("press the button", "tap", { bbox }));
    h.server.enqueue(closing("FAIL", "button dead"));
    await h.runner.run(WAKE, signal());
    expect(h.phone.runs.filter((r) => r.tool === "tap")).toHaveLength(4);
    const guards = h.ofType("guard").map((g) => [g.action, g.kind, g.count]);
    expect(guards).toEqual([
      ["warn", "no-change", 3],
      ["warn", "no-change", 4],
      ["block", "no-change", 5],
    ]);
    const texts = toolTexts(h.server.requests[5]?.body.messages ?? []);
    expect(
      texts.filter((t) => t.includes("loop guard: `tap` on this same target showed no visible change")),
    ).toHaveLength(2);
    expect(texts.at(-1)).toMatch(/blocked by the loop guard, not run/);
    expect(h.transcriptIssues()).toEqual([]);
  });

  it("peeks in between do not reset the streak; a different target does", async () => {
    h = await harness({
      behaviour: async (name) =>
        name === "tap"
          ? { content: [{ type: "text", text: "tapped\nscreen: no visible change" }], isError: false }
          : undefined,
    });
    const other = [0.1, 0.8, 0.2, 0.9];
    h.server.enqueue(
      turn("press", "tap", { bbox }),
      turn("look", "peek"),
      turn("press", "tap", { bbox }),
      turn("press other", "tap", { bbox: other }),
      turn("press", "tap", { bbox }),
      turn("look", "peek"),
      turn("press", "tap", { bbox }),
      turn("press", "tap", { bbox }),
      closing("FAIL", "dead"),
    );
    await h.runner.run(WAKE, signal());
    expect(h.ofType("guard").map((g) => [g.action, g.count])).toEqual([["warn", 3]]);
  });

  it("the same failing call repeated warns at 3 and blocks at 5", async () => {
    h = await harness({
      behaviour: async (name) =>
        name === "force_quit"
          ? { content: [{ type: "text", text: "force_quit failed: no app open" }], isError: true }
          : undefined,
    });
    for (let i = 0; i < 6; i++) h.server.enqueue(turn("quit the app", "force_quit"));
    h.server.enqueue(closing("FAIL", "cannot quit"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("FAIL");
    expect(h.phone.runs).toHaveLength(4);
    expect(h.ofType("guard").map((g) => [g.action, g.kind, g.count])).toEqual([
      ["warn", "repeated-failure", 3],
      ["warn", "repeated-failure", 4],
      ["block", "repeated-failure", 5],
      ["block", "repeated-failure", 6],
    ]);
  });

  it("guard thresholds come from config", async () => {
    h = await harness({
      config: { guard: { warnAt: 2, blockAt: 3 } },
      behaviour: async () => ({ content: [{ type: "text", text: "nope" }], isError: true }),
    });
    for (let i = 0; i < 3; i++) h.server.enqueue(turn("go home", "home_screen"));
    h.server.enqueue(closing("FAIL", "x"));
    await h.runner.run(WAKE, signal());
    expect(h.phone.runs).toHaveLength(2);
    expect(h.ofType("guard").map((g) => g.action)).toEqual(["warn", "block"]);
  });
});
