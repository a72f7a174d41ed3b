import { readFileSync, statSync } from "node:fs";
import type { AgentJobs, JobView, NewJob } from "../agent/ports.js";
import type { Logger } from "../log/logger.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { withFileLock } from "../util/file-lock.js";
import { type JobsConfig, jobsFilePath } from "./config.js";
import {
  DEFAULT_JOBS_HEADER,
  formatJobsFile,
  JOB_ID,
  JOB_TYPES,
  type JobProblem,
  type JobRecord,
  type JobsDocument,
  MAX_JOB_ID_CHARS,
  normalizeValue,
  type ParsedJobs,
  parseJobsFile,
} from "./format.js";
import { cronProblem, JobClock, type ScheduleState, type StampStyle } from "./schedule.js";

export interface JobStoreOptions {
  /** Absolute path of jobs.md (`jobsFilePath(config.jobs, stateDir)`). */
  file: string;
  clock: Clock;
  /** IANA zone schedules are read in (the config's top-level `timeZone`, resolved). */
  timeZone: string;
  log: Logger;
  catchUpWindowMinutes: number;
  lockStaleMs: number;
  lockTimeoutMs: number;
  /** How time fields are written (default `local`, the reference format; see StampStyle). */
  stampStyle?: StampStyle;
}

/** A job handed to the runtime by `fireDue`: the session's trigger. */
export interface DueJob {
  job: JobView;
  /** The schedule match being served (ISO 8601 in the job zone); the request time for a manual fire. */
  scheduledFor: string;
}

/** Size and mtime of the file, to notice edits cheaply (null when it does not exist). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/**
 * jobs.md on disk. Reads parse the file as it is (atomic replacement means a reader never sees half
 * a write). Every write takes `<file>.lock`, re-reads the file, applies one mutation, recomputes
 * every Next fire time and replaces the file atomically — so the agent, the CLI and the runtime, in
 * separate processes, never lose each other's updates. Malformed sections are carried through
 * untouched. Methods throw PiclawError: JOB_NOT_FOUND, JOB_EXISTS, JOB_INVALID, JOBS_LOCK_TIMEOUT.
 */
export class JobStore implements AgentJobs {
  readonly file: string;
  readonly timing: JobClock;
  private readonly lockPath: string;
  /** Same-process writers queue here instead of polling the lock file. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: JobStoreOptions) {
    this.file = options.file;
    this.lockPath = `${options.file}.lock`;
    this.timing = new JobClock(options.timeZone, options.catchUpWindowMinutes, options.stampStyle);
  }

  /** The store for `config.jobs` (file under `stateDir`, zone resolved, lock settings). */
  static fromConfig(
    config: JobsConfig,
    deps: { stateDir: string; clock: Clock; log: Logger; timeZone: string },
  ): JobStore {
    return new JobStore({
      file: jobsFilePath(config, deps.stateDir),
      clock: deps.clock,
      timeZone: deps.timeZone,
      log: deps.log,
      catchUpWindowMinutes: config.catchUpWindowMinutes,
      lockStaleMs: config.lockStaleMs,
      lockTimeoutMs: config.lockTimeoutMs,
      stampStyle: config.timeStamps,
    });
  }

  async create(job: NewJob): Promise<JobView> {
    const clean = validateNewJob(job);
    return this.mutate((doc, now) => {
      const clash = doc.sections.find((s) => (s.kind === "job" ? s.job.id : s.id) === clean.id);
      if (clash)
        throw new PiclawError(
          "JOB_EXISTS",
          clash.kind === "job"
            ? `job "${clean.id}" already exists`
            : `a malformed job "${clean.id}" is in the file; fix or remove it first`,
          { id: clean.id },
        );
      const record = this.newRecord(clean, now);
      doc.sections.push({ kind: "job", job: record });
      return record;
    }).then(toView);
  }

  async upsert(job: NewJob): Promise<JobView> {
    const clean = validateNewJob(job);
    return this.mutate((doc, now) => {
      const record = this.newRecord(clean, now);
      const index = doc.sections.findIndex((s) => (s.kind === "job" ? s.job.id : s.id) === clean.id);
      if (index < 0) doc.sections.push({ kind: "job", job: record });
      else doc.sections[index] = { kind: "job", job: record };
      // A second (malformed, duplicate) section with this id would shadow nothing but confuse people.
      doc.sections = doc.sections.filter((s, i) => i === index || s.kind === "job" || s.id !== clean.id);
      return record;
    }).then(toView);
  }

  async get(id: string): Promise<JobView | null> {
    return (await this.list()).find((j) => j.id === id) ?? null;
  }

  async list(): Promise<JobView[]> {
    const { jobs } = this.read();
    const now = this.options.clock.now();
    return jobs.map((job) => toView(this.withNextFire(job, now)));
  }

  /** A one-time job that was `fired` closes as `done`; anything else only records the result. */
  async finish(id: string, result: string): Promise<JobView> {
    return this.update(id, (job, now) => {
      job.executionTime = this.timing.formatStamp(now);
      job.executionResult = normalizeValue(result) || "(empty result)";
      if (job.type === "one-time" && job.status === "fired") job.status = "done";
    });
  }

  async cancel(id: string): Promise<JobView> {
    return this.update(id, (job) => {
      job.status = "cancelled";
      job.fireRequestedAt = null;
    });
  }

  /** Fire `id` at the runtime's next check whatever its schedule or status (`piclaw jobs fire`). */
  async requestFire(id: string): Promise<JobView> {
    return this.update(id, (job, now) => {
      job.fireRequestedAt = this.timing.formatStamp(now);
    });
  }

  /** The malformed sections, with line numbers (empty when the file is missing). */
  async problems(): Promise<JobProblem[]> {
    return this.read().problems;
  }

  /** The file parsed as it is now; a missing file is an empty schedule. */
  read(): ParsedJobs {
    const text = this.readText();
    if (text === null) return { doc: { header: DEFAULT_JOBS_HEADER, sections: [] }, jobs: [], problems: [] };
    return parseJobsFile(text);
  }

  /** The file's text, null when it does not exist. */
  readText(): string | null {
    try {
      return readFileSync(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  stamp(): FileStamp | null {
    try {
      const st = statSync(this.file);
      return { size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      return null;
    }
  }

  /** When `job` can next need the scheduler (see JobClock.dueAt); for the runtime's cheap check. */
  dueAt(job: JobRecord): number {
    return this.timing.dueAt(scheduleState(job, this.timing));
  }

  /**
   * Under the lock: fire every job that is due at `now` (recording Last fire time, closing one-time
   * jobs as `fired`), record skips of runs older than the catch-up window, stamp a Create time on
   * hand-written jobs. The file is written before this returns, so a restart cannot fire them again.
   */
  async fireDue(now: number): Promise<DueJob[]> {
    const fired = await this.mutate((doc) => {
      const due: { record: JobRecord; scheduledFor: string }[] = [];
      for (const section of doc.sections) {
        if (section.kind !== "job") continue;
        const job = section.job;
        if (job.createTime === null) job.createTime = this.timing.formatStamp(now);
        const decision = this.timing.decide(scheduleState(job, this.timing), now);
        if (decision.kind === "fire") {
          const scheduledFor = this.timing.formatInstant(decision.scheduledFor);
          job.lastFireTime = this.timing.formatStamp(now);
          job.fireRequestedAt = null;
          if (job.type === "one-time" && job.status === "pend") job.status = "fired";
          due.push({ record: job, scheduledFor });
          this.options.log.info("job fired", { id: job.id, scheduledFor, late: decision.late });
        } else if (decision.kind === "skip") {
          const missed = this.timing.formatStamp(decision.missedRun);
          const minutes = Math.round((now - decision.missedRun) / 60_000);
          job.executionTime = this.timing.formatStamp(now);
          job.executionResult = `skipped: the run due ${missed} was missed (appliance off or busy) and is ${minutes} min old, past the ${this.options.catchUpWindowMinutes} min catch-up window`;
          if (job.type === "one-time") job.status = "missed";
          this.options.log.warn("job run skipped", { id: job.id, missed, minutesLate: minutes });
        }
      }
      return due;
    });
    return fired.map(({ record, scheduledFor }) => ({ job: toView(record), scheduledFor }));
  }

  private newRecord(job: NewJob, now: number): JobRecord {
    return {
      ...job,
      status: "pend",
      createTime: this.timing.formatStamp(now),
      nextFireTime: null,
      lastFireTime: null,
      executionTime: null,
      executionResult: null,
      fireRequestedAt: null,
    };
  }

  private async update(id: string, change: (job: JobRecord, now: number) => void): Promise<JobView> {
    if (id.length > MAX_JOB_ID_CHARS)
      throw new PiclawError(
        "JOB_INVALID",
        `job id: at most ${MAX_JOB_ID_CHARS} characters (got ${id.length})`,
        {
          field: "id",
        },
      );
    return this.mutate((doc, now) => {
      for (const section of doc.sections) {
        if (section.kind === "job" && section.job.id === id) {
          change(section.job, now);
          return section.job;
        }
      }
      const raw = doc.sections.some((s) => s.kind === "raw" && s.id === id);
      throw new PiclawError(
        "JOB_NOT_FOUND",
        raw ? `job "${id}" is malformed (see piclaw jobs validate)` : `no job "${id}"`,
        { id },
      );
    }).then(toView);
  }

  /** Lock, re-read, change, recompute Next fire times, write atomically, unlock. */
  private mutate<T>(change: (doc: JobsDocument, now: number) => T): Promise<T> {
    const run = () =>
      withFileLock(
        this.lockPath,
        { staleMs: this.options.lockStaleMs, timeoutMs: this.options.lockTimeoutMs },
        () => {
          const now = this.options.clock.now();
          const { doc } = this.read();
          const before = formatJobsFile(doc);
          const result = change(doc, now);
          for (const section of doc.sections)
            if (section.kind === "job") section.job.nextFireTime = this.nextFireText(section.job, now);
          const after = formatJobsFile(doc);
          if (after !== before) {
            assertJobsSurvive(doc, after, this.file);
            writeFileAtomic(this.file, after);
          }
          return result;
        },
      );
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private nextFireText(job: JobRecord, now: number): string | null {
    const next = this.timing.nextFire(scheduleState(job, this.timing), now);
    return next === null ? null : this.timing.formatStamp(next);
  }

  private withNextFire(job: JobRecord, now: number): JobRecord {
    return { ...job, nextFireTime: this.nextFireText(job, now) };
  }
}

/**
 * Re-parse what is about to be written: every job of `doc` must come back as a job. Text that
 * slipped past normalisation must never turn a working job into a skipped "malformed" section (a
 * result text once took a periodic job off the schedule), so the write is refused instead, loudly.
 */
export function assertJobsSurvive(doc: JobsDocument, text: string, file: string): void {
  const reparsed = parseJobsFile(text);
  const kept = new Set(reparsed.jobs.map((j) => j.id));
  const lost = doc.sections.flatMap((s) => (s.kind === "job" && !kept.has(s.job.id) ? [s.job.id] : []));
  if (lost.length === 0) return;
  const reasons = reparsed.problems.filter((p) => p.id !== null && lost.includes(p.id));
  throw new PiclawError(
    "JOB_INVALID",
    `refusing to write ${file}: job ${lost.map((id) => `"${id}"`).join(", ")} would not read back (${reasons.map((p) => p.reason).join("; ") || "unknown reason"}); nothing was changed`,
    { ids: lost },
  );
}

function scheduleState(job: JobRecord, timing: JobClock): ScheduleState {
  const ms = (text: string | null) => (text === null ? null : timing.parseStamp(text));
  return {
    schedule: job.schedule,
    status: job.status,
    createTime: ms(job.createTime),
    lastFireTime: ms(job.lastFireTime),
    executionTime: ms(job.executionTime),
    fireRequestedAt: ms(job.fireRequestedAt),
  };
}

function toView(job: JobRecord): JobView {
  const { fireRequestedAt: _, ...view } = job;
  return view;
}

/** Normalise a new job's text and check it; PiclawError JOB_INVALID names the field. */
export function validateNewJob(job: NewJob): NewJob {
  const invalid = (field: string, reason: string) =>
    new PiclawError("JOB_INVALID", `job ${field}: ${reason}`, { field });
  const id = job.id.trim();
  if (id.length > MAX_JOB_ID_CHARS)
    throw invalid("id", `must be at most ${MAX_JOB_ID_CHARS} characters (got ${id.length})`);
  if (!JOB_ID.test(id)) throw invalid("id", `"${id}" must be lowercase letters, digits and "-"`);
  const description = normalizeValue(job.description).replace(/\n/g, " ");
  if (!description) throw invalid("description", "must not be empty");
  if (/^[-#]/.test(description)) throw invalid("description", 'must not start with "-" or "#"');
  if (!(JOB_TYPES as readonly string[]).includes(job.type))
    throw invalid("type", `"${job.type}" must be periodic or one-time`);
  const schedule = job.schedule
    .trim()
    .replace(/^`(.*)`$/, "$1")
    .trim()
    .split(/\s+/)
    .join(" ");
  const problem = cronProblem(schedule);
  if (problem) throw invalid("schedule", problem);
  return { id, description, type: job.type, schedule, context: normalizeValue(job.context) };
}
