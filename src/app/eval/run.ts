import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentEvents } from "../../agent/events.js";
import type { SessionOutcome } from "../../agent/ports.js";
import type { ChatProvider } from "../../agent/provider.js";
import type { Logger } from "../../log/logger.js";
import type { PhoneTruth } from "../../sim/phone/phone.js";
import type { Clock } from "../../util/clock.js";
import { errorMessage, PiclawError } from "../../util/errors.js";
import type { AgentStack } from "../agent-stack.js";
import { type LoadedConfig, parseConfig } from "../config/load.js";
import { Daemon } from "../daemon.js";
import { ScriptedProvider } from "./scripted-provider.js";
import type { EvalTask } from "./tasks.js";

/** One task's result, as `piclaw eval` prints it. */
export interface TaskResult {
  id: string;
  /** Passed the task's check on the simulated phone's truth. */
  ok: boolean;
  /** Why it failed (the check's words, or the error), or "" when it passed. */
  why: string;
  status: string;
  recap: string;
  turns: number;
  tokens: number;
  seconds: number;
}

export interface EvalOptions {
  loaded: LoadedConfig;
  tasks: readonly EvalTask[];
  /** true: each task's scripted listing-only policy; false: the configured provider. */
  baseline: boolean;
  log: Logger;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** Called with a line of progress (task started, finished). */
  progress: (line: string) => void;
  /** Also report every turn: the note, the tool call, and the result's first lines (`--verbose`). */
  verbose?: boolean;
}

/**
 * Runs each task in a fresh appliance on the simulated rig (its own state directory, phone and
 * calibration, no HTTP port, no runtime triggers), wakes one agent session with the task's words, and
 * checks the simulated phone's truth afterwards. Tasks run one after the other: a rig has one arm.
 */
export async function runEval(options: EvalOptions): Promise<TaskResult[]> {
  const { loaded } = options;
  if (loaded.config.rig.backend !== "sim")
    throw new PiclawError(
      "EVAL_NEEDS_SIM",
      "piclaw eval runs on the simulated phone only (rig.backend: sim); its checks read the simulator's truth",
    );
  const results: TaskResult[] = [];
  for (const [i, task] of options.tasks.entries()) {
    options.progress(`[${i + 1}/${options.tasks.length}] ${task.id}: ${task.prompt}`);
    const result = await runTask(task, options);
    options.progress(
      `    ${result.ok ? "pass" : "FAIL"} ${result.status} in ${result.turns} turns, ${result.seconds.toFixed(0)} s${result.ok ? "" : `: ${result.why}`}`,
    );
    results.push(result);
  }
  return results;
}

async function runTask(task: EvalTask, options: EvalOptions): Promise<TaskResult> {
  const { loaded, log, clock, env } = options;
  const stateDir = mkdtempSync(join(tmpdir(), `piclaw-eval-${task.id}-`));
  const base = loaded.config;
  const config = parseConfig({
    stateDir,
    timeZone: "UTC",
    server: { port: 0 },
    dashboard: { enabled: false },
    // Triggers stay off so tasks are independent; a WAIT-and-resume task needs the job scheduler
    // (its follow-up job), never the screen watcher.
    runtime: task.resume ? { enabled: true, poll: { enabled: false } } : { enabled: false },
    camera: { framerate: 10 },
    agent: base.agent,
    vision: base.vision,
    sim: { phone: { utcOffsetMinutes: 0, ...task.phone } },
  });
  const provider: ChatProvider | undefined = options.baseline
    ? new ScriptedProvider(task.baseline())
    : undefined;
  const daemon = new Daemon({ config, path: null, stateDir }, log, clock, env, provider ? { provider } : {});
  const t0 = clock.now();
  let turns = 0;
  try {
    await daemon.start();
    const agent = daemon.agent;
    const rig = daemon.simRig;
    if (!agent || !rig)
      throw new PiclawError("EVAL_NO_AGENT", agent ? "no simulated rig" : "the agent is off");
    if (agent.status().disabled) throw new PiclawError("EVAL_NO_AGENT", String(agent.status().disabled));
    const offTurns = agent.events.onType("turn_start", () => {
      turns++;
    });
    const offTrace = options.verbose ? traceTurns(agent.events, options.progress) : () => {};
    const tRun = clock.now();
    const outcomes: SessionOutcome[] = [];
    try {
      if (task.resume)
        rig.phone.schedule({
          atMs: tRun + task.resume.afterSeconds * 1000,
          app: "messages",
          from: task.resume.from,
          text: task.resume.text,
        });
      outcomes.push(await agent.run(task.prompt, "piclaw eval"));
      if (task.resume && outcomes[0]?.status === "WAIT") {
        options.progress("    WAIT: letting the reply arrive, then firing the follow-up job");
        outcomes.push(await resumeAfterWait(agent, tRun + task.resume.afterSeconds * 1000, clock));
      }
    } finally {
      offTurns();
      offTrace();
    }
    const outcome = outcomes[outcomes.length - 1] as SessionOutcome;
    const truth: PhoneTruth = rig.truth();
    const why = task.check({
      truth,
      status: outcome.status,
      recap: outcome.recap,
      statuses: outcomes.map((o) => o.status),
    });
    return {
      id: task.id,
      ok: why === null,
      why: why ?? "",
      status: outcome.status,
      recap: outcome.recap,
      turns,
      tokens: outcomes.reduce((sum, o) => sum + o.tokens.prompt + o.tokens.completion, 0),
      seconds: (clock.now() - tRun) / 1000,
    };
  } catch (err) {
    return {
      id: task.id,
      ok: false,
      why: errorMessage(err),
      status: "ERROR",
      recap: "",
      turns,
      tokens: 0,
      seconds: (clock.now() - t0) / 1000,
    };
  } finally {
    await daemon.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Longest the harness waits for the session a follow-up job wakes. */
const RESUME_TIMEOUT_MS = 10 * 60_000;

/**
 * After a WAIT: let the reply arrive (it is due at `replyAtMs`), then fire the follow-up job the WAIT
 * left — the engine's canonical one or one the agent created — at once instead of at its scheduled
 * minute (as `piclaw jobs fire` does: the eval does not wait out a 15-minute follow-up), and return the
 * outcome of the session it wakes. PiclawError EVAL_NO_FOLLOW_UP when no job is pending.
 */
async function resumeAfterWait(agent: AgentStack, replyAtMs: number, clock: Clock): Promise<SessionOutcome> {
  const pending = (await agent.jobs.list()).filter((j) => j.type === "one-time" && j.status === "pend");
  const job = pending[0];
  if (!job)
    throw new PiclawError("EVAL_NO_FOLLOW_UP", "the session ended WAIT but left no pending follow-up job");
  // The reply lands a moment after it is due; a second of slack covers the phone's lazy clock.
  await sleep(Math.max(0, replyAtMs - clock.now()) + 1000);
  let off = () => {};
  let timer: NodeJS.Timeout | undefined;
  const next = new Promise<SessionOutcome>((resolve, reject) => {
    off = agent.events.onType("session_end", (e) => resolve(e.outcome));
    timer = setTimeout(
      () =>
        reject(
          new PiclawError(
            "EVAL_TIMEOUT",
            `no session ended within ${RESUME_TIMEOUT_MS / 60_000} min of firing ${job.id}`,
          ),
        ),
      RESUME_TIMEOUT_MS,
    );
  });
  try {
    await agent.jobs.requestFire(job.id);
    return await next;
  } finally {
    off();
    clearTimeout(timer);
  }
}

/** Progress lines per turn: the note, the call with its arguments, and the result text. */
function traceTurns(events: AgentEvents, progress: (line: string) => void): () => void {
  const offs = [
    events.onType("note", (e) => progress(`      turn ${e.turn}: ${e.summary}`)),
    events.onType("tool_end", (e) => {
      if (e.name === "note") return;
      const text = e.result.content
        .map((c) => (c.type === "text" ? c.text : `[${c.type}]`))
        .join("\n")
        .split("\n")
        .map((l) => `          ${l}`)
        .join("\n");
      progress(`        ${e.name}(${JSON.stringify(e.args)})${e.isError ? " ERROR" : ""}\n${text}`);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** The results as a markdown table (task, success, status, turns, tokens, seconds) and a summary line. */
export function resultsTable(results: readonly TaskResult[]): string {
  const lines = [
    "| task | success | status | turns | tokens | time (s) | why it failed |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.id} | ${r.ok ? "yes" : "no"} | ${r.status} | ${r.turns} | ${r.tokens} | ${r.seconds.toFixed(0)} | ${r.why.replace(/\|/g, "/")} |`,
    ),
  ];
  const passed = results.filter((r) => r.ok).length;
  lines.push(
    "",
    `${passed}/${results.length} tasks passed (${results.length ? Math.round((100 * passed) / results.length) : 0}%)`,
  );
  return lines.join("\n");
}
