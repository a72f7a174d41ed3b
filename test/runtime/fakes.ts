import type {
  JobView,
  SessionOutcome,
  SessionRunner,
  SessionStatus,
  Trigger,
  WakeContext,
} from "../../src/agent/ports.js";
import type { DueJob, TriggerHook } from "../../src/runtime/hooks.js";
import type { VirtualTime } from "./virtual-time.js";

export interface RunRecord {
  wake: WakeContext;
  start: number;
  end: number | null;
  aborted: boolean;
}

/**
 * A session runner that "works" for `durationMs` of virtual time, records every wake and the most
 * sessions it ever saw at once, and ends early with ABORTED when its signal fires.
 */
export class FakeRunner implements SessionRunner {
  readonly runs: RunRecord[] = [];
  maxConcurrent = 0;
  private active = 0;
  /** Make the next run throw (a runner bug) instead of returning an outcome. */
  throwNext: Error | null = null;

  constructor(
    private readonly time: VirtualTime,
    public durationMs = 10_000,
  ) {}

  run(wake: WakeContext, signal: AbortSignal): Promise<SessionOutcome> {
    const record: RunRecord = { wake, start: this.time.now(), end: null, aborted: false };
    this.runs.push(record);
    if (this.throwNext) {
      const err = this.throwNext;
      this.throwNext = null;
      return Promise.reject(err);
    }
    this.active++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.active);
    return new Promise((resolve) => {
      const finish = (status: SessionStatus) => {
        cancel();
        signal.removeEventListener("abort", onAbort);
        this.active--;
        record.end = this.time.now();
        record.aborted = status === "ABORTED";
        resolve(outcome(`s${this.runs.length}`, status));
      };
      const onAbort = () => finish("ABORTED");
      const cancel = this.time.set(() => finish("DONE"), this.durationMs);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

export function outcome(sessionId: string, status: SessionStatus): SessionOutcome {
  return {
    sessionId,
    status,
    recap: `${status}`,
    attempts: 1,
    tokens: { prompt: 0, completion: 0 },
    costUsd: null,
  };
}

/** A hook whose answers the test scripts: `fire(...)` queues triggers for its next check. */
export class ScriptedHook implements TriggerHook {
  private queued: Trigger[] = [];
  checks: number[] = [];
  rebases = 0;
  failNext: Error | null = null;

  constructor(
    readonly name: string,
    readonly duringSession: boolean,
  ) {}

  fire(...triggers: Trigger[]): void {
    this.queued.push(...triggers);
  }

  async check(now: number): Promise<Trigger[]> {
    this.checks.push(now);
    if (this.failNext) {
      const err = this.failNext;
      this.failNext = null;
      throw err;
    }
    return this.queued.splice(0);
  }

  rebase(): void {
    this.rebases++;
  }
}

export function job(id: string, context = `brief of ${id}`): JobView {
  return {
    id,
    description: `job ${id}`,
    type: "periodic",
    schedule: "* * * * *",
    status: "pend",
    context,
    createTime: null,
    nextFireTime: null,
    lastFireTime: null,
    executionTime: null,
    executionResult: null,
  };
}

/** A DueJobSource that reports the jobs handed to `due(...)` once, at its next collect. */
export class FakeDueJobs {
  private queued: DueJob[] = [];
  collects = 0;

  due(...jobs: DueJob[]): void {
    this.queued.push(...jobs);
  }

  async collectDue(_now: number): Promise<DueJob[]> {
    this.collects++;
    return this.queued.splice(0);
  }
}
