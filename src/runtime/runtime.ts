import type { SessionOutcome, SessionRunner, Trigger, WakeContext } from "../agent/ports.js";
import type { Logger } from "../log/logger.js";
import type { TimerScheduler } from "../rig/owner.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import { type TriggerHook, triggerKey } from "./hooks.js";

/** What the dashboard and logs are told. `session` numbers count from 1 per Runtime. */
export type RuntimeEvent =
  | { type: "queued"; at: number; trigger: Trigger }
  | { type: "woke"; at: number; session: number; triggers: Trigger[] }
  | { type: "session-finished"; at: number; session: number; durationMs: number; outcome: SessionOutcome }
  /** The runner threw (it should not): the loop goes on after the cooldown. */
  | { type: "session-error"; at: number; session: number; durationMs: number; error: string }
  | { type: "hook-error"; at: number; hook: string; error: string };

export type RuntimeState = "stopped" | "idle" | "running" | "cooldown";

export interface RuntimeStatus {
  state: RuntimeState;
  /** Triggers waiting for the next wake. */
  pending: Trigger[];
  /** Number of the running session, or null. */
  session: number | null;
  /** While cooling down: when the next wake may start (ms since epoch). */
  cooldownUntil: number | null;
  sessions: number;
}

export interface RuntimeOptions {
  /** How often the hooks are asked (ms). */
  tickMs: number;
  /** Quiet time after a session before the next may wake (ms): lets screen animations settle. */
  cooldownMs: number;
}

export interface RuntimeDeps {
  runner: SessionRunner;
  hooks: TriggerHook[];
  clock: Clock;
  timers: TimerScheduler;
  log: Logger;
}

interface ManualWaiter {
  resolve: (outcome: SessionOutcome) => void;
  reject: (err: Error) => void;
}

interface Running {
  number: number;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The loop that decides when the agent runs. Every `tickMs` it asks each hook whether something
 * happened; fired triggers queue up, and when no session runs and the cooldown after the last one has
 * passed, ONE fresh session wakes with every queued trigger (so triggers that arrived meanwhile are
 * merged, never lost, and never start a second session). Hooks marked `duringSession: false` (poll)
 * are not asked while a session runs or cools down, and are rebased when it ends. A throwing hook or
 * runner is logged and reported as an event; the loop keeps going. `requestSession` queues a manual
 * trigger and starts at once when idle.
 */
export class Runtime {
  private state: RuntimeState = "stopped";
  private readonly pending: Trigger[] = [];
  private readonly pendingKeys = new Set<string>();
  private waiters: ManualWaiter[] = [];
  private running: Running | null = null;
  private cooldownUntil = 0;
  private sessions = 0;
  private cancelTimer: (() => void) | null = null;
  private ticking: Promise<void> | null = null;
  private readonly listeners = new Set<(event: RuntimeEvent) => void>();

  constructor(
    private readonly deps: RuntimeDeps,
    private readonly options: RuntimeOptions,
  ) {}

  /** Start ticking. The first tick is one `tickMs` away. */
  start(): void {
    if (this.state !== "stopped") return;
    this.state = "idle";
    this.schedule();
    this.deps.log.info("runtime started", {
      hooks: this.deps.hooks.map((h) => h.name),
      tickMs: this.options.tickMs,
      cooldownMs: this.options.cooldownMs,
    });
  }

  /**
   * Stop ticking, abort the running session through its signal and wait for it to end. Manual requests
   * that never got a session are rejected with RUNTIME_STOPPED. Triggers still queued are dropped
   * (cron's catch-up rule covers jobs; a screen change will be seen again at the next start).
   */
  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    this.state = "stopped";
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.running?.controller.abort(new PiclawError("ABORTED", "the runtime is stopping"));
    await this.ticking;
    await this.running?.done;
    const dropped = this.pending.splice(0);
    this.pendingKeys.clear();
    for (const w of this.waiters.splice(0))
      w.reject(new PiclawError("RUNTIME_STOPPED", "the runtime stopped before the session could start"));
    this.deps.log.info("runtime stopped", { droppedTriggers: dropped.length });
  }

  /** Subscribe to events; returns the unsubscribe function. A throwing listener is logged and ignored. */
  on(listener: (event: RuntimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): RuntimeStatus {
    const now = this.deps.clock.now();
    let state = this.state;
    if (state === "idle" && now < this.cooldownUntil) state = "cooldown";
    return {
      state,
      pending: [...this.pending],
      session: this.running?.number ?? null,
      cooldownUntil: state === "cooldown" ? this.cooldownUntil : null,
      sessions: this.sessions,
    };
  }

  /**
   * Wake a session for `trigger` (e.g. `piclaw run "task"`): starts at once when idle and past the
   * cooldown, otherwise joins the next wake. Resolves with the outcome of the session that carried it;
   * rejects with RUNTIME_STOPPED when the runtime is (or gets) stopped first, or with the runner's
   * error when the runner threw.
   */
  requestSession(trigger: Trigger): Promise<SessionOutcome> {
    if (this.state === "stopped")
      return Promise.reject(new PiclawError("RUNTIME_STOPPED", "the runtime is not running"));
    const outcome = new Promise<SessionOutcome>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.enqueue([trigger]);
    this.maybeWake();
    return outcome;
  }

  /** Resolves once the tick in progress (if any) has finished; for tests driving virtual time. */
  async settled(): Promise<void> {
    await this.ticking;
  }

  /** Resolves once the running session (if any) has ended. */
  async sessionEnded(): Promise<void> {
    await this.running?.done;
  }

  private schedule(): void {
    if (this.state === "stopped") return;
    this.cancelTimer = this.deps.timers.set(() => {
      this.cancelTimer = null;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        this.schedule();
      });
    }, this.options.tickMs);
  }

  private async tick(): Promise<void> {
    const busy = () => this.running !== null || this.deps.clock.now() < this.cooldownUntil;
    for (const hook of this.deps.hooks) {
      if (this.state === "stopped") return;
      if (busy() && !hook.duringSession) continue;
      try {
        this.enqueue(await hook.check(this.deps.clock.now()));
      } catch (err) {
        const error = errorMessage(err);
        this.deps.log.warn("trigger hook failed; asking again at the next tick", { hook: hook.name, error });
        this.emit({ type: "hook-error", at: this.deps.clock.now(), hook: hook.name, error });
      }
    }
    this.maybeWake();
  }

  private enqueue(triggers: Trigger[]): void {
    for (const trigger of triggers) {
      const key = triggerKey(trigger);
      if (this.pendingKeys.has(key)) continue;
      this.pendingKeys.add(key);
      this.pending.push(trigger);
      this.emit({ type: "queued", at: this.deps.clock.now(), trigger });
    }
  }

  private maybeWake(): void {
    if (this.state === "stopped" || this.running || this.pending.length === 0) return;
    if (this.deps.clock.now() < this.cooldownUntil) return;
    const triggers = this.pending.splice(0);
    this.pendingKeys.clear();
    const waiters = this.waiters.splice(0);
    const number = ++this.sessions;
    const controller = new AbortController();
    const started = this.deps.clock.now();
    const wake: WakeContext = { at: started, triggers };
    this.state = "running";
    this.deps.log.info("waking a session", { session: number, triggers: triggers.map(describeTrigger) });
    this.emit({ type: "woke", at: started, session: number, triggers });
    const done = this.runSession(number, wake, controller.signal, waiters);
    this.running = { number, controller, done };
  }

  private async runSession(
    number: number,
    wake: WakeContext,
    signal: AbortSignal,
    waiters: ManualWaiter[],
  ): Promise<void> {
    let outcome: SessionOutcome | null = null;
    let failure: Error | null = null;
    try {
      // Yield first so `this.running` is set before a synchronous runner can finish.
      await Promise.resolve();
      outcome = await this.deps.runner.run(wake, signal);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    const at = this.deps.clock.now();
    const durationMs = at - wake.at;
    this.running = null;
    this.cooldownUntil = at + this.options.cooldownMs;
    if (this.state === "running") this.state = "idle";
    for (const hook of this.deps.hooks)
      try {
        hook.rebase?.(at);
      } catch (err) {
        const error = errorMessage(err);
        this.deps.log.warn("trigger hook failed to rebase after the session", { hook: hook.name, error });
        this.emit({ type: "hook-error", at, hook: hook.name, error });
      }
    if (outcome) {
      this.deps.log.info("session finished", {
        session: number,
        sessionId: outcome.sessionId,
        status: outcome.status,
        recap: outcome.recap,
        durationMs,
      });
      this.emit({ type: "session-finished", at, session: number, durationMs, outcome });
      for (const w of waiters) w.resolve(outcome);
    } else {
      const error = errorMessage(failure);
      this.deps.log.error("session runner failed; the loop goes on after the cooldown", {
        session: number,
        error,
      });
      this.emit({ type: "session-error", at, session: number, durationMs, error });
      const err = new PiclawError("SESSION_RUNNER_FAILED", `the session failed to run: ${error}`, {
        session: number,
      });
      for (const w of waiters) w.reject(err);
    }
  }

  private emit(event: RuntimeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.deps.log.warn("runtime event listener threw", { error: errorMessage(err) });
      }
    }
  }
}

/** One-line description of a trigger for logs. */
export function describeTrigger(trigger: Trigger): string {
  switch (trigger.kind) {
    case "cron":
      return `cron ${trigger.jobId} (${trigger.scheduledFor})`;
    case "poll":
      return `poll: ${trigger.reason}`;
    case "manual":
      return `manual from ${trigger.from}`;
  }
}
