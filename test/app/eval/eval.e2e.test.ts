import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/app/config/load.js";
import { runEval } from "../../../src/app/eval/run.js";
import { EVAL_TASKS } from "../../../src/app/eval/tasks.js";
import { systemClock } from "../../../src/util/clock.js";
import { quietLog } from "../../fakes/log.js";

/**
 * `piclaw eval` end to end: fresh simulated appliances (GRBL simulator on a pty, rpicam stand-in,
 * OCR + detector, the agent loop) driven by the scripted listing-only baseline, judged by the
 * simulated phone's truth. Needs dist/ (`npm run build`) for the camera stand-in.
 */
describe("piclaw eval on the simulated phone", () => {
  it("runs tasks with the scripted baseline and judges them by the phone's truth", async () => {
    const tasks = EVAL_TASKS.filter((t) => t.id === "wifi-off" || t.id === "idle-wake");
    const lines: string[] = [];
    const results = await runEval({
      loaded: { config: parseConfig({}), path: null, stateDir: "/nonexistent-unused" },
      tasks,
      baseline: true,
      log: quietLog(),
      clock: systemClock,
      env: {},
      progress: (l) => lines.push(l),
    });
    expect(results.map((r) => [r.id, r.ok, r.status])).toEqual([
      ["wifi-off", true, "DONE"],
      ["idle-wake", true, "IDLE"],
    ]);
    expect(results.every((r) => r.turns >= 2 && r.tokens === 0)).toBe(true);
    expect(lines.some((l) => l.includes("[1/2] wifi-off"))).toBe(true);
  }, 600_000);

  it("WAIT-and-resume: the first session waits, the follow-up job's session reads the later reply", async () => {
    const lines: string[] = [];
    const results = await runEval({
      loaded: { config: parseConfig({}), path: null, stateDir: "/nonexistent-unused" },
      tasks: EVAL_TASKS.filter((t) => t.id === "wait-for-reply"),
      baseline: true,
      log: quietLog(),
      clock: systemClock,
      env: {},
      progress: (l) => lines.push(l),
    });
    expect(results.map((r) => [r.id, r.ok, r.status, r.why])).toEqual([["wait-for-reply", true, "DONE", ""]]);
    expect(lines.some((l) => l.includes("WAIT: letting the reply arrive"))).toBe(true);
    // Two sessions of two turns each: a look, then WAIT; a look, then the answer.
    expect(results[0]?.turns).toBe(4);
  }, 600_000);

  it("refuses a hardware rig: its checks read the simulator's truth", async () => {
    const config = parseConfig({ rig: { backend: "hardware" } });
    await expect(
      runEval({
        loaded: { config, path: null, stateDir: "/x" },
        tasks: EVAL_TASKS.slice(0, 1),
        baseline: true,
        log: quietLog(),
        clock: systemClock,
        env: {},
        progress: () => {},
      }),
    ).rejects.toThrow(/simulated phone only/);
  });
});
