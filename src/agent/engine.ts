import { join } from "node:path";
import type { Logger } from "../log/logger.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { AnyPhoneTool } from "../tools/types.js";
import type { Clock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import type { Random } from "../util/random.js";
import { type AttemptEnd, type AttemptHost, runAttempt } from "./attempt.js";
import { DayUsageStore, exhaustedBudget } from "./budget.js";
import { type AgentConfig, activeProvider, costOf, type ProviderSettings } from "./config.js";
import { type AgentEvent, AgentEvents, type TokenUsage } from "./events.js";
import { scheduleFollowUp } from "./follow-up.js";
import { createLocalTools, type LocalToolContext } from "./local-tools.js";
import type {
  AgentJobs,
  AgentMemory,
  AgentSkills,
  ConversationWindow,
  SessionOutcome,
  SessionRunner,
  WakeContext,
} from "./ports.js";
import { type ChatProvider, realSleep, type Sleep } from "./provider.js";
import { ToolCatalog } from "./tool-catalog.js";

/**
 * The built-in agent: runs one woken session to its end. Each attempt starts from a fresh window
 * (system prompt + wake message) and runs the turn loop (attempt.ts); a STUCK attempt is retried from
 * the same wake up to `maxAttempts`. A WAIT without a job scheduled by the agent upserts the
 * canonical follow-up job. One session at a time per runner; `abort()` and `steer()` act on it.
 */

/** The prompt of a session: the stable system part and the wake message (see prompt.ts). */
export type PromptBuilder = (
  wake: WakeContext,
  tools: ToolCatalog,
) => Promise<{ system: string; wake: string }>;

export type WindowFactory = (system: string, wake: string) => ConversationWindow;

export interface AgentRunnerDeps {
  config: AgentConfig;
  provider: ChatProvider;
  phoneTools: readonly AnyPhoneTool[];
  owner: PhoneOwner;
  memory: AgentMemory;
  skills: AgentSkills;
  jobs: AgentJobs;
  clock: Clock;
  log: Logger;
  /** The state directory (the day's usage goes to `agent/usage.json` there). */
  stateDir: string;
  /** The appliance's time zone (day budget, follow-up schedule). */
  timeZone: string;
  /** A fresh conversation per attempt (the wake message already added). */
  windowFactory: WindowFactory;
  prompt: PromptBuilder;
  /** Session ids and the jitter of ids; injected for determinism. */
  random: Random;
  /** The `wait` tool's sleep; virtual in tests. */
  sleep?: Sleep;
  /** Where events go; a runner makes its own when not given. */
  events?: AgentEvents;
}

interface Running {
  sessionId: string;
  controller: AbortController;
  steers: string[];
  reason: string;
}

export class AgentRunner implements SessionRunner {
  readonly events: AgentEvents;
  private readonly settings: ProviderSettings;
  private readonly catalog: ToolCatalog;
  private readonly usage: DayUsageStore;
  private running: Running | null = null;

  constructor(private readonly deps: AgentRunnerDeps) {
    this.events =
      deps.events ?? new AgentEvents((err) => deps.log.warn("agent event listener failed", { err }));
    this.settings = activeProvider(deps.config).settings;
    this.catalog = new ToolCatalog(deps.phoneTools, createLocalTools());
    this.usage = new DayUsageStore(
      join(deps.stateDir, "agent", "usage.json"),
      deps.clock,
      deps.timeZone,
      deps.log,
    );
  }

  /** The session running now, or null. */
  get currentSession(): string | null {
    return this.running?.sessionId ?? null;
  }

  get tools(): ToolCatalog {
    return this.catalog;
  }

  /** Stop the running session cleanly (status ABORTED). Returns false when none runs. */
  abort(reason = "aborted by the user"): boolean {
    const run = this.running;
    if (!run) return false;
    if (!run.controller.signal.aborted) {
      run.reason = reason;
      run.controller.abort(reason);
    }
    return true;
  }

  /** Queue a user message for the running session's next model request. False when none runs. */
  steer(text: string): boolean {
    const run = this.running;
    const clean = text.trim();
    if (!run || !clean) return false;
    run.steers.push(clean);
    return true;
  }

  async run(wake: WakeContext, signal: AbortSignal): Promise<SessionOutcome> {
    const sessionId = this.newSessionId();
    if (this.running) {
      return this.refuse(sessionId, `another session (${this.running.sessionId}) is running`);
    }
    const controller = new AbortController();
    const run: Running = { sessionId, controller, steers: [], reason: "aborted" };
    const onOuterAbort = () =>
      this.abort(typeof signal.reason === "string" ? signal.reason : "shutting down");
    this.running = run;
    if (signal.aborted) onOuterAbort();
    else signal.addEventListener("abort", onOuterAbort, { once: true });
    try {
      return await this.session(run, wake);
    } finally {
      signal.removeEventListener("abort", onOuterAbort);
      this.running = null;
    }
  }

  private async session(run: Running, wake: WakeContext): Promise<SessionOutcome> {
    const { deps, settings } = this;
    const { sessionId } = run;
    const log = deps.log.child("agent").child(sessionId);
    const startedAt = deps.clock.now();
    const tokens: TokenUsage = { prompt: 0, completion: 0 };
    let jobCreated = false;
    const emit = (event: DistributiveOmit<AgentEvent, "sessionId" | "at">) =>
      this.events.emit({ ...event, sessionId, at: deps.clock.now() } as AgentEvent);
    const sessionCost = () => costOf(tokens, settings.prices);

    emit({ type: "session_start", wake, provider: deps.provider.name, model: deps.provider.model });
    this.usage.add({ sessions: 1 });
    const local: LocalToolContext = {
      memory: deps.memory,
      skills: deps.skills,
      jobs: deps.jobs,
      signal: run.controller.signal,
      sleep: deps.sleep ?? realSleep,
      onJobCreated: () => {
        jobCreated = true;
      },
      log,
    };
    const host: AttemptHost = {
      sessionId,
      config: deps.config,
      provider: deps.provider,
      catalog: this.catalog,
      owner: deps.owner,
      clock: deps.clock,
      log,
      signal: run.controller.signal,
      local,
      emit,
      exhaustedBudget: () =>
        exhaustedBudget(
          deps.config.budgets,
          {
            elapsedMs: deps.clock.now() - startedAt,
            tokens: tokens.prompt + tokens.completion,
            costUsd: sessionCost(),
          },
          this.usage.current(),
        ),
      account: (usage) => {
        tokens.prompt += usage.prompt;
        tokens.completion += usage.completion;
        this.usage.add({
          turns: 1,
          prompt: usage.prompt,
          completion: usage.completion,
          costUsd: costOf(usage, settings.prices),
        });
      },
      takeSteers: () => run.steers.splice(0),
      abortReason: () => run.reason,
    };

    let last: AttemptEnd = { status: "STUCK", recap: "no attempt ran", final: true, turns: 0 };
    let attempts = 0;
    while (attempts < deps.config.maxAttempts) {
      attempts += 1;
      emit({ type: "attempt_start", attempt: attempts });
      last = await this.attempt(host, wake, attempts, log);
      emit({
        type: "attempt_end",
        attempt: attempts,
        status: last.status,
        recap: last.recap,
        turns: last.turns,
      });
      if (last.status === "ABORTED") emit({ type: "abort", attempt: attempts, reason: run.reason });
      if (last.final || last.status !== "STUCK") break;
      if (run.controller.signal.aborted) break;
    }
    if (last.status === "WAIT" && !jobCreated) {
      await scheduleFollowUp({
        jobs: deps.jobs,
        id: deps.config.followUpJobId,
        minutes: deps.config.followUpMinutes,
        nowMs: deps.clock.now(),
        timeZone: deps.timeZone,
        recap: last.recap,
        wake,
        log,
      });
    }
    if (last.retryAt !== undefined && wake.triggers.some((t) => t.kind === "cron")) {
      // The provider asked for a pause longer than a turn may wait: a job's work resumes after it.
      await scheduleFollowUp({
        jobs: deps.jobs,
        id: deps.config.followUpJobId,
        minutes: Math.max(1, Math.ceil((last.retryAt - deps.clock.now()) / 60_000)),
        nowMs: deps.clock.now(),
        timeZone: deps.timeZone,
        recap: last.recap,
        wake,
        log,
        after: "the provider's Retry-After",
      });
    }
    const outcome: SessionOutcome = {
      sessionId,
      status: last.status,
      recap: last.recap,
      attempts,
      tokens: { ...tokens },
      costUsd: sessionCost(),
    };
    log.info("session ended", { status: outcome.status, attempts, tokens: outcome.tokens });
    emit({ type: "session_end", outcome, durationMs: deps.clock.now() - startedAt });
    return outcome;
  }

  /** One attempt; a crash (a bug, a broken window) is STUCK, never an exception out of `run`. */
  private async attempt(
    host: AttemptHost,
    wake: WakeContext,
    attempt: number,
    log: Logger,
  ): Promise<AttemptEnd> {
    try {
      const prompt = await this.deps.prompt(wake, this.catalog);
      const window = this.deps.windowFactory(prompt.system, prompt.wake);
      return await runAttempt(host, window, attempt);
    } catch (err) {
      if (host.signal.aborted)
        return { status: "ABORTED", recap: `aborted: ${host.abortReason()}`, final: true, turns: 0 };
      log.error("attempt crashed", { attempt, err });
      return { status: "STUCK", recap: `the attempt crashed: ${errorMessage(err)}`, final: false, turns: 0 };
    }
  }

  private refuse(sessionId: string, why: string): SessionOutcome {
    this.deps.log.warn("session refused", { sessionId, why });
    return {
      sessionId,
      status: "STUCK",
      recap: `not started: ${why}`,
      attempts: 0,
      tokens: { prompt: 0, completion: 0 },
      costUsd: null,
    };
  }

  private newSessionId(): string {
    const stamp = new Date(this.deps.clock.now())
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "")
      .replace("T", "-");
    const suffix = Math.floor(this.deps.random.next() * 0x10000)
      .toString(16)
      .padStart(4, "0");
    return `${stamp}-${suffix}`;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
