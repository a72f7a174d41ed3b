import { randomInt } from "node:crypto";
import type { AgentRunner } from "../agent/engine.js";
import { AgentEvents } from "../agent/events.js";
import type { SessionOutcome } from "../agent/ports.js";
import type { ChatProvider } from "../agent/provider.js";
import { SessionStore } from "../agent/session-store.js";
import { TraceWriter } from "../agent/traces.js";
import { createAgentRunner, createProvider } from "../agent/wiring.js";
import { JobScheduler } from "../jobs/scheduler.js";
import { JobStore } from "../jobs/store.js";
import type { Logger } from "../log/logger.js";
import { createMemory } from "../memory/index.js";
import { type PhoneOwner, systemTimers } from "../rig/owner.js";
import { createRuntime, type Runtime, type RuntimeStatus, type ScreenFrameSource } from "../runtime/index.js";
import { resolveTimeZone } from "../shared/time-zone.js";
import type { AnyPhoneTool } from "../tools/types.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { seededRandom } from "../util/random.js";
import type { PiclawConfig } from "./config/schema.js";

/** Width of the rectified frames the poll hook samples (its grid is ~64 cells wide anyway). */
export const POLL_FRAME_WIDTH = 120;

export interface AgentStackDeps {
  config: PiclawConfig;
  stateDir: string;
  clock: Clock;
  log: Logger;
  env: NodeJS.ProcessEnv;
  owner: PhoneOwner;
  phoneTools: readonly AnyPhoneTool[];
  /** Small rectified screen frames for the poll hook; null = no poll hook. */
  frames: ScreenFrameSource | null;
  /** The model to use instead of the configured provider (`piclaw eval`'s scripted baseline). */
  provider?: ChatProvider;
}

/** What the daemon reports about the agent side (dashboard, `/api/agent/status`). */
export interface AgentStackStatus {
  /** Why the built-in agent is off, or null when it is on. */
  disabled: string | null;
  runtime: RuntimeStatus | null;
  session: string | null;
}

/**
 * The built-in agent and what wakes it: jobs.md (store + scheduler), memory and skills, the provider,
 * the agent runner with its traces, and the runtime loop (cron + poll hooks, one session at a time).
 * Without a provider key the jobs store and traces still exist (the CLI and dashboard read them) but
 * no session can run: the runtime stays off and `run()` fails with a clear message.
 */
export class AgentStack {
  readonly jobs: JobStore;
  readonly sessions: SessionStore;
  readonly events = new AgentEvents((err) => this.deps.log.warn("agent event listener failed", { err }));
  private runner: AgentRunner | null = null;
  private runtime: Runtime | null = null;
  private traces: TraceWriter | null = null;
  private disabled: string | null = "not started";

  constructor(private readonly deps: AgentStackDeps) {
    this.jobs = JobStore.fromConfig(deps.config.jobs, {
      stateDir: deps.stateDir,
      clock: deps.clock,
      log: deps.log.child("jobs"),
      timeZone: resolveTimeZone(deps.config),
    });
    this.sessions = new SessionStore(deps.stateDir);
  }

  async start(): Promise<void> {
    const { config, stateDir, clock, log, env } = this.deps;
    const agentLog = log.child("agent");
    const timeZone = resolveTimeZone(config);
    const random = seededRandom(randomInt(2 ** 31));
    const { memory, skills } = createMemory(config.memory, {
      stateDir,
      clock,
      timeZone,
      redact: (text) => log.redact(text),
    });
    const traces = new TraceWriter({
      stateDir,
      redact: (text) => log.redact(text),
      log: agentLog.child("traces"),
    });
    traces.start(this.events);
    this.traces = traces;
    let provider: ReturnType<typeof createProvider>;
    try {
      provider = this.deps.provider ?? createProvider(config.agent, { env, stateDir, clock, random, log });
    } catch (err) {
      if (!(err instanceof PiclawError && err.code === "PROVIDER_NO_KEY")) throw err;
      this.disabled = `the built-in agent is off: ${err.message}`;
      agentLog.warn(`${this.disabled} (MCP tools, jobs and the dashboard still work)`);
      return;
    }
    this.runner = createAgentRunner({
      config: config.agent,
      provider,
      phoneTools: this.deps.phoneTools,
      owner: this.deps.owner,
      memory,
      skills,
      jobs: this.jobs,
      clock,
      log: agentLog,
      stateDir,
      timeZone,
      random,
      events: this.events,
    });
    const owner = this.deps.owner;
    // With `runtime.enabled: false` the loop still runs, without hooks: only `run()` wakes sessions.
    const triggers = config.runtime.enabled;
    this.runtime = createRuntime(config.runtime, {
      runner: this.runner,
      jobs: triggers ? new JobScheduler(this.jobs, log.child("jobs")) : null,
      frames: triggers ? this.deps.frames : null,
      armInUse: () => owner.heldBy !== null || owner.queueLength > 0,
      clock,
      timers: systemTimers,
      log,
    });
    this.disabled = null;
    this.runtime.start();
    if (!triggers)
      log.info("runtime triggers off (runtime.enabled: false): sessions only start from `piclaw run`");
  }

  /**
   * Run one session now for `text` (from `from`, e.g. `cli`), queued behind a running one (and its
   * cooldown); served even when the triggers are off. PiclawError AGENT_OFF without a provider key.
   */
  async run(text: string, from: string): Promise<SessionOutcome> {
    if (!this.runtime) throw new PiclawError("AGENT_OFF", this.disabled ?? "the built-in agent is off");
    return this.runtime.requestSession({ kind: "manual", text, from });
  }

  /** Pass a user message to the running session (it reaches the model on its next request). */
  say(text: string): boolean {
    return this.runner?.steer(text) ?? false;
  }

  /** Abort the running session (it closes cleanly: the arm lifts and parks, status ABORTED). */
  abort(reason: string): boolean {
    return this.runner?.abort(reason) ?? false;
  }

  status(): AgentStackStatus {
    return {
      disabled: this.disabled,
      runtime: this.runtime?.status() ?? null,
      session: this.runner?.currentSession ?? null,
    };
  }

  async stop(): Promise<void> {
    try {
      await this.runtime?.stop();
    } catch (err) {
      this.deps.log.warn("runtime stop failed", { error: errorMessage(err) });
    }
    this.runtime = null;
    this.runner = null;
    this.traces?.stop();
    this.traces = null;
  }
}
