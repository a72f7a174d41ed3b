import { afterEach, describe, expect, it } from "vitest";
import { defaultPromptBuilder } from "../../src/agent/wiring.js";
import { closing, turn } from "../fakes/openai-server.js";
import { type Harness, harness, SkillsFake, toolTexts, userTexts, WAKE } from "./harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.server.stop();
  h = null;
});

const signal = () => new AbortController().signal;

describe("closing statuses", () => {
  for (const status of ["DONE", "FAIL", "IDLE"] as const) {
    it(`${status} closes the session after one attempt`, async () => {
      h = await harness();
      h.server.enqueue(turn("look first", "peek"), closing(status, `recap ${status}`));
      const outcome = await h.runner.run(WAKE, signal());
      expect(outcome).toMatchObject({ status, recap: `recap ${status}`, attempts: 1 });
      expect(outcome.tokens.prompt).toBeGreaterThan(0);
      expect(outcome.costUsd).toBeNull();
      expect(h.jobs.upserts).toEqual([]);
      expect(h.server.requests).toHaveLength(2);
      expect(h.ofType("session_end")[0]?.outcome).toEqual(outcome);
      expect(h.transcriptIssues()).toEqual([]);
    });
  }

  it("WAIT without a job from the agent upserts the canonical follow-up job in 15 minutes", async () => {
    h = await harness({ timeZone: "UTC" });
    h.server.enqueue(closing("WAIT", "waiting for the parcel"));
    const first = await h.runner.run(WAKE, signal());
    expect(first.status).toBe("WAIT");
    expect(h.jobs.upserts).toHaveLength(1);
    const job = h.jobs.upserts[0];
    // WAKE is 09:41 UTC on 5 Jan; 15 minutes later is 09:56.
    expect(job).toMatchObject({ id: "follow-up", type: "one-time", schedule: "56 9 5 1 *" });
    expect(job?.context).toContain("waiting for the parcel");
    expect(job?.context).toContain("set a 10-minute timer");
    // A second WAIT reuses the same id.
    h.server.enqueue(closing("WAIT", "still waiting"));
    await h.runner.run(WAKE, signal());
    expect(h.jobs.upserts.map((j) => j.id)).toEqual(["follow-up", "follow-up"]);
    expect([...h.jobs.jobs.keys()]).toEqual(["follow-up"]);
  });

  it("WAIT after the agent scheduled its own job adds no follow-up", async () => {
    h = await harness({ config: { followUpMinutes: 30 } });
    h.server.enqueue(
      turn("check again at noon", "create_job", {
        id: "parcel-check",
        description: "check the parcel",
        type: "one-time",
        schedule: "0 12 * * *",
        context: "parcel",
      }),
      closing("WAIT", "checking at noon"),
    );
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("WAIT");
    expect(h.jobs.upserts).toEqual([]);
    expect([...h.jobs.jobs.keys()]).toEqual(["parcel-check"]);
  });

  it("STUCK from the agent retries fresh, at most 3 attempts in total", async () => {
    h = await harness();
    h.server.enqueue(closing("STUCK", "lost 1"), closing("STUCK", "lost 2"), closing("STUCK", "lost 3"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "STUCK", attempts: 3, recap: "lost 3" });
    expect(h.ofType("attempt_start").map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(h.server.requests).toHaveLength(3);
    for (const r of h.server.requests) expect(r.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("running out of turns is STUCK and retried; maxAttempts is configurable", async () => {
    h = await harness({ config: { maxTurnsPerAttempt: 3, maxAttempts: 2 } });
    h.server.setPolicy(() => turn("looking around", "peek"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(outcome.attempts).toBe(2);
    expect(outcome.recap).toMatch(/ran out of turns \(3\)/);
    expect(h.server.requests).toHaveLength(6);
  });

  it("a crash in an attempt (the prompt builder throws) is STUCK, never an exception", async () => {
    let calls = 0;
    h = await harness({
      prompt: async () => {
        calls += 1;
        if (calls === 1) throw new Error("memory.md unreadable");
        return { system: "S", wake: "W" };
      },
    });
    h.server.enqueue(closing("DONE", "ok"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 2 });
    expect(h.ofType("attempt_end")[0]).toMatchObject({
      status: "STUCK",
      recap: expect.stringContaining("memory.md unreadable"),
    });
  });

  it("the default prompt builder puts memory, USER.md and the skill index in the system part, the triggers in the wake", async () => {
    h = await harness();
    h.memory.memory = "The timer app is Clock.";
    const build = defaultPromptBuilder(h.memory, new SkillsFake(), "UTC");
    const prompt = await build(WAKE, h.runner.tools);
    expect(prompt.system).toContain("The timer app is Clock.");
    expect(prompt.system).toContain("The user is Sam.");
    expect(prompt.system).toContain("set-timer");
    expect(prompt.system).toContain("`end_session`");
    expect(prompt.wake).toContain("set a 10-minute timer");
  });
});

describe("provider retries", () => {
  it("429 with Retry-After in seconds waits exactly that long (virtual time), then goes on", async () => {
    h = await harness();
    h.server.enqueue({ kind: "http", status: 429, headers: { "retry-after": "7" } }, closing("DONE", "ok"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("DONE");
    expect(h.sleeps).toEqual([7000]);
    expect(h.ofType("retry")).toEqual([
      expect.objectContaining({ retry: 1, delayMs: 7000, reason: expect.stringContaining("429") }),
    ]);
  });

  it("Retry-After as an HTTP date is relative to the injected clock", async () => {
    h = await harness();
    const at = new Date(h.clock.now() + 12_000).toUTCString();
    h.server.enqueue({ kind: "http", status: 503, headers: { "retry-after": at } }, closing("DONE", "ok"));
    await h.runner.run(WAKE, signal());
    expect(h.sleeps).toEqual([12_000]);
  });

  it("5xx without Retry-After backs off exponentially with jitter; exhausted retries end the session STUCK", async () => {
    h = await harness({ provider: { maxRetries: 3, retryBaseMs: 1000 } });
    const fail = { kind: "http", status: 500 } as const;
    h.server.enqueue(fail, fail, fail, fail, closing("DONE", "second attempt"));
    const outcome = await h.runner.run(WAKE, signal());
    // Issue 18: the turn was retried maxRetries times already; a fresh attempt would only re-send.
    expect(outcome).toMatchObject({ status: "STUCK", attempts: 1 });
    expect(h.server.requests).toHaveLength(4);
    expect(h.server.pending).toBe(1);
    expect(h.sleeps).toHaveLength(3);
    h.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(1000 * 2 ** i * 0.5);
      expect(ms).toBeLessThanOrEqual(1000 * 2 ** i * 1.5);
    });
    expect(h.ofType("attempt_end")[0]?.recap).toMatch(
      /provider failed: provider default: HTTP 500 ×4 over \d+ s \(gave up after 3 retries/,
    );
  });

  it("a Retry-After longer than retryMaxMs gives up at once instead of waiting", async () => {
    h = await harness({ provider: { retryMaxMs: 60_000 }, config: { maxAttempts: 1 } });
    h.server.enqueue({ kind: "http", status: 429, headers: { "retry-after": "3600" } });
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(h.sleeps).toEqual([]);
    expect(outcome.recap).toMatch(/retry after 3600 s/);
  });

  it("4xx other than 408/409/429 is not retried", async () => {
    h = await harness({ config: { maxAttempts: 1 } });
    h.server.enqueue({ kind: "http", status: 401, body: { error: { message: "bad key" } } });
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome.status).toBe("STUCK");
    expect(h.sleeps).toEqual([]);
    expect(h.server.requests).toHaveLength(1);
  });

  it("connection errors and timeouts are retried", async () => {
    h = await harness({ provider: { timeoutMs: 1000 } });
    h.server.enqueue({ kind: "drop" }, { kind: "hang" }, closing("DONE", "ok"));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "DONE", attempts: 1 });
    expect(h.ofType("retry")).toHaveLength(2);
    expect(h.ofType("retry")[1]?.reason).toMatch(/timed out/i);
  });

  it("tool calls without ids (some local servers) get unique ids so the transcript stays legal", async () => {
    h = await harness();
    const noIds = {
      toolCalls: [
        { name: "note", args: { summary: "look" }, id: "" },
        { name: "peek", args: {}, id: "" },
      ],
    };
    h.server.enqueue(noIds, noIds, closing("DONE", "ok"));
    expect((await h.runner.run(WAKE, signal())).status).toBe("DONE");
    expect(h.transcriptIssues()).toEqual([]);
    const ids = h.ofType("model_response").flatMap((e) => e.toolCalls.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sends the key as a bearer token and never logs it", async () => {
    h = await harness();
    h.server.enqueue(closing("DONE", "ok"));
    await h.runner.run(WAKE, signal());
    expect(h.server.requests[0]?.headers.authorization).toBe("Bearer sk-test-secret-key");
    h.log.info("oops sk-test-secret-key");
    expect(h.logLines.join("")).not.toContain("sk-test-secret-key");
    const body = h.server.requests[0]?.body;
    expect(body?.model).toBe("fake-model");
    expect(body?.tool_choice).toBe("required");
    const names = body?.tools?.map((t) => t.function.name) ?? [];
    expect(names.slice(0, 2)).toEqual(["note", "end_session"]);
    expect(names).toEqual(
      expect.arrayContaining(["tap", "peek", "sequence", "wait", "load_skill", "finish_job"]),
    );
    expect(names).toHaveLength(25);
  });
});

describe("steer and abort", () => {
  it("a steer message reaches the model on its next request", async () => {
    h = await harness({
      behaviour: async (name) => {
        if (name === "peek") h?.runner.steer("also set it to vibrate");
        return undefined;
      },
    });
    h.server.enqueue(turn("look", "peek"), closing("DONE", "ok"));
    await h.runner.run(WAKE, signal());
    expect(userTexts(h.server.requests[0]?.body.messages ?? []).join()).not.toContain("vibrate");
    expect(userTexts(h.server.requests[1]?.body.messages ?? []).at(-1)).toContain("also set it to vibrate");
    expect(h.ofType("steer")).toEqual([
      expect.objectContaining({ text: "also set it to vibrate", attempt: 1 }),
    ]);
    expect(h.runner.steer("too late")).toBe(false);
    expect(h.transcriptIssues()).toEqual([]);
  });

  it("abort mid-tool: the signal reaches the tool, the transcript stays legal, status ABORTED, no retry", async () => {
    h = await harness({
      behaviour: async (name, _args, ctx) => {
        if (name !== "tap") return undefined;
        h?.runner.abort("user pressed stop");
        // A real gesture lifts and parks here when its signal fires.
        await new Promise((r) => setTimeout(r, 5));
        return {
          content: [{ type: "text", text: `tap: stopped (aborted: ${ctx.signal.aborted}), arm parked` }],
          isError: true,
        };
      },
    });
    h.server.enqueue(turn("open clock", "tap", { bbox: [0.1, 0.1, 0.3, 0.2] }));
    const outcome = await h.runner.run(WAKE, signal());
    expect(outcome).toMatchObject({ status: "ABORTED", attempts: 1, recap: "aborted: user pressed stop" });
    expect(h.phone.runs[0]).toMatchObject({ tool: "tap", aborted: true });
    expect(h.owner.heldBy).toBeNull();
    expect(h.ofType("abort")).toHaveLength(1);
    const last = h.windows[0]?.messages() ?? [];
    expect(last.at(-1)?.role).not.toBe("assistant");
    expect(toolTexts(last as never).join()).toContain("arm parked");
    expect(h.transcriptIssues()).toEqual([]);
    expect(h.runner.currentSession).toBeNull();
  });

  it("abort while waiting for the arm: the tool never runs, the wait ends, status ABORTED", async () => {
    h = await harness();
    const lease = await h.owner.acquire({ priority: "remote", label: "mcp:laptop" });
    h.runner.events.onType("tool_start", () => setTimeout(() => h?.runner.abort("stop"), 20));
    h.server.enqueue(turn("open clock", "tap", { bbox: [0.1, 0.1, 0.3, 0.2] }));
    const outcome = await h.runner.run(WAKE, signal());
    lease.release();
    expect(outcome.status).toBe("ABORTED");
    expect(h.phone.runs).toEqual([]);
    expect(h.ofType("tool_end")[0]).toMatchObject({ name: "tap", isError: true });
    expect(JSON.stringify(h.ofType("tool_end")[0]?.result)).toContain("cancelled before it started");
    expect(h.owner.heldBy).toBeNull();
    expect(h.transcriptIssues()).toEqual([]);
  });

  it("the caller's signal aborts a request in flight", async () => {
    h = await harness();
    h.server.enqueue({ kind: "hang" });
    const controller = new AbortController();
    h.runner.events.onType("model_request", () => setTimeout(() => controller.abort("shutdown"), 20));
    const outcome = await h.runner.run(WAKE, controller.signal);
    expect(outcome).toMatchObject({ status: "ABORTED", attempts: 1, recap: "aborted: shutdown" });
  });

  it("the wait tool is abortable", async () => {
    h = await harness();
    h.server.enqueue(turn("wait for the app", "wait", { seconds: 30 }), closing("DONE", "ok"));
    await h.runner.run(WAKE, signal());
    expect(h.sleeps).toEqual([30_000]);
    expect(h.runner.abort()).toBe(false);
  });
});
