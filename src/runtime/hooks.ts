import type { JobView, Trigger } from "../agent/ports.js";

/**
 * Something the runtime asks, about once a second, whether a session should wake. Contract: `check`
 * returns the triggers that fired since the last call (empty when nothing happened) and never returns
 * the same occurrence twice; it may throw (the runtime logs it, emits `hook-error` and asks again at
 * the next tick); it is never called again before its previous call settled.
 */
export interface TriggerHook {
  /** Short name for logs and the dashboard (`cron`, `poll`). */
  readonly name: string;
  /**
   * Whether the runtime keeps asking while a session runs or cools down. True for cron (a job due
   * meanwhile waits in the queue and joins the next wake); false for poll (the agent itself is
   * changing the screen, and the camera is busy).
   */
  readonly duringSession: boolean;
  check(now: number): Promise<Trigger[]>;
  /** A session just ended: forget the screen as it was before (the agent changed it). Optional. */
  rebase?(now: number): void;
}

/** One due job, as the jobs scheduler reports it. */
export interface DueJob {
  job: JobView;
  /** ISO 8601 time of the schedule slot that is due. */
  scheduledFor: string;
}

/** The jobs scheduler's side of the cron hook (src/jobs implements it as `JobScheduler.collectDue`). */
export interface DueJobSource {
  /** Jobs due at `now` that were not reported before; each slot is reported once. */
  collectDue(now: number): Promise<DueJob[]>;
}

/** The cron hook: every job the scheduler reports due becomes one `cron` trigger with its context. */
export function cronHook(source: DueJobSource): TriggerHook {
  return {
    name: "cron",
    duringSession: true,
    async check(now) {
      const due = await source.collectDue(now);
      return due.map(({ job, scheduledFor }) => ({
        kind: "cron" as const,
        jobId: job.id,
        description: job.description,
        context: job.context,
        scheduledFor,
      }));
    },
  };
}

/** A stable identity of a trigger, so the same occurrence queued twice wakes one session once. */
export function triggerKey(trigger: Trigger): string {
  switch (trigger.kind) {
    case "cron":
      return `cron:${trigger.jobId}@${trigger.scheduledFor}`;
    case "poll":
      return `poll:${trigger.reason}`;
    case "manual":
      return `manual:${trigger.from}:${trigger.text}`;
  }
}
