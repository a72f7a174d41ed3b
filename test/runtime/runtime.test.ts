import { describe, expect, it } from "vitest";
import { cronHook } from "../../src/runtime/hooks.js";
import { Runtime, type RuntimeEvent } from "../../src/runtime/runtime.js";
import { PiclawError } from "../../src/util/errors.js";
import { quietLog } from "../fakes/log.js";
import { FakeDueJobs, FakeRunner, job, ScriptedHook } from "./fakes.js";
import { VirtualTime } from "./virtual-time.js";

const TICK = 1000;
const COOLDOWN = 6000;

function setup(durationMs = 10_000) {
  const time = new VirtualTime();
  const runner = new FakeRunner(time, durationMs);
  const jobs = new FakeDueJobs();
  const poll = new ScriptedHook("poll", false);
  const runtime = new Runtime(
    { runner, hooks: [cronHook(jobs), poll], clock: time.clock, timers: time, log: quietLog() },
    { tickMs: TICK, cooldownMs: COOLDOWN },
  );
  const events: RuntimeEvent[] = [];
  runtime.on((e) => events.push(e));
  time.quiesce = () => runtime.settled();
  return { time, runner, jobs, poll, runtime, events };
}

const slot = (t: number) => new Date(t).toISOString();

describe("Runtime", () => {
  it("wakes one session for two triggers at once, carrying both, and never runs two at once", async () => {
    const { time, runner, jobs, poll, runtime } = setup();
    runtime.start();
    const t0 = time.now();
    jobs.due({ job: job("water-plants"), scheduledFor: slot(t0) });
    poll.fire({ kind: "poll", reason: "banner: 38% of the band changed and stayed" });
    await time.advance(TICK);
    expect(runner.runs).toHaveLength(1);
    expect(runner.runs[0]?.wake).toEqual({
      at: t0 + TICK,
      triggers: [
        {
          kind: "cron",
          jobId: "water-plants",
          description: "job water-plants",
          context: "brief of water-plants",
          scheduledFor: slot(t0),
        },
        { kind: "poll", reason: "banner: 38% of the band changed and stayed" },
      ],
    });
    // A third trigger during the session waits: the next session starts only after the cooldown.
    await time.advance(2000);
    jobs.due({ job: job("check-mail"), scheduledFor: slot(time.now()) });
    await time.advance(60_000);
    expect(runner.runs).toHaveLength(2);
    const [first, second] = runner.runs;
    expect(first?.end).toBe(t0 + TICK + 10_000);
    expect(second?.start).toBeGreaterThanOrEqual((first?.end ?? 0) + COOLDOWN);
    expect(second?.start).toBeLessThanOrEqual((first?.end ?? 0) + COOLDOWN + TICK);
    expect(second?.wake.triggers.map((t) => (t.kind === "cron" ? t.jobId : t.kind))).toEqual(["check-mail"]);
    expect(runner.maxConcurrent).toBe(1);
    await runtime.stop();
  });

  it("merges every trigger that arrives during a session and its cooldown into the next wake", async () => {
    const { time, runner, jobs, poll, runtime } = setup(30_000);
    runtime.start();
    const manual = runtime.requestSession({ kind: "manual", text: "check the weather", from: "cli" });
    await time.advance(0);
    expect(runner.runs).toHaveLength(1); // a manual request starts at once when idle
    const start = time.now();
    await time.advance(5_000);
    jobs.due({ job: job("a"), scheduledFor: slot(time.now()) });
    await time.advance(10_000);
    jobs.due({ job: job("b"), scheduledFor: slot(time.now()) });
    jobs.due({ job: job("b"), scheduledFor: slot(time.now()) }); // the same slot twice: one trigger
    poll.fire({ kind: "poll", reason: "ignored while busy" }); // poll is not asked during a session
    const second = runtime.requestSession({ kind: "manual", text: "and send Anna a note", from: "cli" });
    await time.advance(17_000); // session ends at +30 s, cooldown until +36 s
    expect(runner.runs).toHaveLength(1);
    expect((await manual).status).toBe("DONE");
    expect(poll.checks.every((t) => t < start || t >= start + 36_000)).toBe(true);
    await time.advance(5_000);
    expect(runner.runs).toHaveLength(2);
    const triggers = runner.runs[1]?.wake.triggers ?? [];
    expect(triggers.map((t) => (t.kind === "cron" ? t.jobId : t.kind))).toEqual(["a", "manual", "b", "poll"]);
    await time.advance(30_000);
    expect((await second).status).toBe("DONE");
    expect(runner.maxConcurrent).toBe(1);
    await runtime.stop();
  });

  it("stop() aborts the running session through its signal, waits for it, and rejects queued requests", async () => {
    const { time, runner, jobs, runtime, events } = setup(600_000);
    runtime.start();
    jobs.due({ job: job("long"), scheduledFor: slot(time.now()) });
    await time.advance(TICK);
    expect(runtime.status().state).toBe("running");
    const queued = runtime.requestSession({ kind: "manual", text: "later", from: "cli" });
    const rejected = queued.catch((e: unknown) => e);
    await runtime.stop();
    expect(runner.runs[0]?.aborted).toBe(true);
    expect(runner.runs[0]?.end).not.toBeNull();
    const err = await rejected;
    expect(err).toBeInstanceOf(PiclawError);
    expect((err as PiclawError).code).toBe("RUNTIME_STOPPED");
    expect(
      events
        .filter((e) => e.type === "session-finished")
        .map((e) => e.type === "session-finished" && e.outcome.status),
    ).toEqual(["ABORTED"]);
    expect(runtime.status().state).toBe("stopped");
    // No more ticks after stop.
    jobs.due({ job: job("after"), scheduledFor: slot(time.now()) });
    await time.advance(60_000);
    expect(runner.runs).toHaveLength(1);
    await expect(runtime.requestSession({ kind: "manual", text: "x", from: "cli" })).rejects.toMatchObject({
      code: "RUNTIME_STOPPED",
    });
  });

  it("keeps going after a hook throws or the runner throws, reporting both as events", async () => {
    const { time, runner, poll, runtime, events } = setup(5_000);
    runtime.start();
    poll.failNext = new Error("camera unplugged");
    await time.advance(TICK);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "hook-error", hook: "poll", error: "camera unplugged" }),
    );
    expect(runner.runs).toHaveLength(0);
    runner.throwNext = new Error("provider exploded");
    const request = runtime
      .requestSession({ kind: "manual", text: "x", from: "cli" })
      .catch((e: unknown) => e);
    await time.advance(0);
    expect(await request).toMatchObject({ code: "SESSION_RUNNER_FAILED" });
    expect(events).toContainEqual(
      expect.objectContaining({ type: "session-error", error: "provider exploded" }),
    );
    // Still alive: the next trigger (after the cooldown) wakes a normal session.
    poll.fire({ kind: "poll", reason: "banner" });
    await time.advance(COOLDOWN + TICK);
    expect(runner.runs).toHaveLength(2);
    expect(runner.runs[1]?.wake.triggers).toEqual([{ kind: "poll", reason: "banner" }]);
    await time.advance(10_000);
    expect(events.filter((e) => e.type === "session-finished")).toHaveLength(1);
    await runtime.stop();
  });

  it("rebases the poll hook after each session and reports its state", async () => {
    const { time, poll, runtime } = setup(3_000);
    expect(runtime.status().state).toBe("stopped");
    runtime.start();
    expect(runtime.status().state).toBe("idle");
    poll.fire({ kind: "poll", reason: "dock badge" });
    await time.advance(TICK);
    expect(runtime.status()).toMatchObject({ state: "running", session: 1 });
    await time.advance(3_000);
    expect(runtime.status()).toMatchObject({ state: "cooldown", session: null, sessions: 1 });
    expect(poll.rebases).toBe(1);
    await time.advance(COOLDOWN);
    expect(runtime.status().state).toBe("idle");
    await runtime.stop();
  });
});
