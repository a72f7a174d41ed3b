import type { JobView } from "../agent/ports.js";
import type { Logger } from "../log/logger.js";
import { type JobProblem, parseJobsFile } from "./format.js";
import type { DueJob, FileStamp, JobStore } from "./store.js";

/** Re-read jobs.md at least this often even when its size and mtime look unchanged. */
export const JOBS_REREAD_MS = 60_000;

/**
 * The cron side of the runtime. The runtime calls `collectDue(now)` about once a second; that costs a
 * `stat` while nothing is due. The file is re-parsed when its size or mtime changes and at least
 * every minute; each job's earliest due moment is cached, and only when one is reached does the
 * store take the lock, re-read, decide (see schedule.ts) and write before the jobs are returned —
 * so a job handed out here is never handed out again for the same run, even across a restart.
 * New malformed sections are logged once (warn) with their line numbers.
 */
export class JobScheduler {
  private stamp: FileStamp | null = null;
  private readAt = Number.NEGATIVE_INFINITY;
  private earliestDue = Number.POSITIVE_INFINITY;
  private problemKey = "";
  private current: JobProblem[] = [];
  /** The text the cached due times were computed from (undefined: never read). */
  private text: string | null | undefined = undefined;

  constructor(
    private readonly store: JobStore,
    private readonly log: Logger,
  ) {}

  /** The jobs to fire at `now`, already recorded as fired in jobs.md. */
  async collectDue(now: number): Promise<{ job: JobView; scheduledFor: string }[]> {
    this.refresh(now);
    if (now < this.earliestDue) return [];
    const due: DueJob[] = await this.store.fireDue(now);
    this.refresh(now, true);
    return due;
  }

  /** Malformed sections as of the last read. */
  problems(): JobProblem[] {
    return this.current;
  }

  /** Forget the cache: the next `collectDue` re-reads the file (e.g. after this process wrote it). */
  invalidate(): void {
    this.stamp = null;
    this.text = undefined;
    this.readAt = Number.NEGATIVE_INFINITY;
  }

  private refresh(now: number, force = false): void {
    const stamp = this.store.stamp();
    const changed =
      force ||
      stamp?.size !== this.stamp?.size ||
      stamp?.mtimeMs !== this.stamp?.mtimeMs ||
      now - this.readAt >= JOBS_REREAD_MS ||
      now < this.readAt; // the clock went back
    if (!changed) return;
    this.stamp = stamp;
    this.readAt = now;
    const text = this.store.readText();
    if (text === this.text) return; // touched, not changed: the due times still hold
    this.text = text;
    const { jobs, problems } = text === null ? { jobs: [], problems: [] } : parseJobsFile(text);
    this.earliestDue = Math.min(Number.POSITIVE_INFINITY, ...jobs.map((job) => this.store.dueAt(job)));
    this.current = problems;
    const key = problems.map((p) => `${p.line}:${p.reason}`).join("\n");
    if (key !== this.problemKey) {
      this.problemKey = key;
      for (const p of problems)
        this.log.warn("jobs.md: job skipped", { file: this.store.file, line: p.line, reason: p.reason });
    }
  }
}
