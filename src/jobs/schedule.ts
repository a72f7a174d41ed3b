import { Cron } from "croner";

/**
 * Cron arithmetic for jobs.md: validation of the 5-field syntax the file allows, zoned timestamps,
 * and the one decision the scheduler makes per job ("fire now, skip a stale run, or wait").
 *
 * The rule, in one place (it is also written in the jobs.md header and the config docs):
 * - A job's *baseline* is the latest of its Create time, Last fire time and Execution time; only
 *   schedule matches strictly after the baseline count. Firing sets Last fire time, so a job never
 *   fires twice for the same minute, even across a restart (the file is written before the fire
 *   is handed out). Execution time counting means a periodic job never queues runs that came due
 *   while its own session was still running.
 * - Due runs are the matches in (baseline, now]. The most recent one fires if `now` is still
 *   within its minute or at most `catchUpWindowMinutes` after it; older due runs are dropped (one
 *   late fire, never a burst). Otherwise the run is skipped and recorded as such.
 * - DST is croner's: a fixed time (minute and hour without `*` or a step) that does not exist
 *   fires at the first minute after the gap, one that occurs twice fires once; schedules with `*`
 *   or a step in the minute or hour follow real elapsed time.
 */

const FIELD_NAMES = ["minute", "hour", "day of month", "month", "day of week"] as const;
/** One comma-separated item: `*`, `N` or `A-B`, optionally `/STEP`. */
const CRON_ITEM = /^(\*|\d+|\d+-\d+)(\/\d+)?$/;

/** Why `expr` is not a schedule jobs.md accepts (standard 5-field cron), or null when it is. */
export function cronProblem(expr: string): string | null {
  const parts = expr.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5)
    return `schedule must have 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}: "${expr}"`;
  for (const [i, part] of parts.entries()) {
    if (!part.split(",").every((item) => CRON_ITEM.test(item)))
      return `bad ${FIELD_NAMES[i]} field "${part}" in "${expr}" (use *, N, N,M, */N or A-B)`;
  }
  try {
    new Cron(parts.join(" "), { mode: "5-part", paused: true });
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/^CronPattern:\s*/, "") : String(err);
    return `bad schedule "${expr}": ${message}`;
  }
  return null;
}

/** What the scheduler should do with one job at `now`. */
export type FireDecision =
  | { kind: "wait" }
  /** Fire now; `scheduledFor` is the match being served (or the request time of a manual fire). */
  | { kind: "fire"; scheduledFor: number; late: boolean }
  /** The most recent due run is older than the catch-up window: record a skip, do not fire. */
  | { kind: "skip"; missedRun: number };

/** The scheduling facts of one job, as epoch ms (null = not set). */
export interface ScheduleState {
  schedule: string;
  status: string;
  createTime: number | null;
  lastFireTime: number | null;
  executionTime: number | null;
  fireRequestedAt: number | null;
}

const MINUTE_MS = 60_000;

/** Cron matching in one time zone, with compiled patterns cached per instance. */
export class JobClock {
  private readonly crons = new Map<string, Cron>();
  private readonly format: Intl.DateTimeFormat;

  constructor(
    readonly timeZone: string,
    readonly catchUpWindowMinutes: number,
  ) {
    this.format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  }

  /** First match strictly after `afterMs`, or null when the schedule never matches again. */
  nextRun(schedule: string, afterMs: number): number | null {
    return this.cron(schedule).nextRun(new Date(afterMs))?.getTime() ?? null;
  }

  /** Latest match at or before `atMs`, or null. */
  previousRun(schedule: string, atMs: number): number | null {
    return (
      this.cron(schedule)
        .previousRuns(1, new Date(atMs + 1))[0]
        ?.getTime() ?? null
    );
  }

  /** Matches strictly after `baseline` count; null baseline (a hand-written job) = nothing is due yet. */
  baseline(state: ScheduleState): number | null {
    const times = [state.createTime, state.lastFireTime, state.executionTime].filter(
      (t): t is number => t !== null,
    );
    return times.length > 0 ? Math.max(...times) : null;
  }

  /**
   * The earliest `now` at which `decide` can return something other than `wait` (Infinity when
   * never): lets the runtime's once-a-second check skip the file lock while nothing is due.
   */
  dueAt(state: ScheduleState): number {
    if (state.fireRequestedAt !== null) return state.fireRequestedAt;
    if (state.status !== "pend") return Number.POSITIVE_INFINITY;
    const baseline = this.baseline(state);
    if (baseline === null) return Number.NEGATIVE_INFINITY; // needs a Create time stamped
    return this.nextRun(state.schedule, baseline) ?? Number.POSITIVE_INFINITY;
  }

  /** The fire/skip/wait rule described at the top of this file. */
  decide(state: ScheduleState, now: number): FireDecision {
    if (state.fireRequestedAt !== null && state.fireRequestedAt <= now)
      return { kind: "fire", scheduledFor: state.fireRequestedAt, late: false };
    if (state.status !== "pend") return { kind: "wait" };
    const baseline = this.baseline(state);
    if (baseline === null) return { kind: "wait" };
    const first = this.nextRun(state.schedule, baseline);
    if (first === null || first > now) return { kind: "wait" };
    const latest = Math.max(first, this.previousRun(state.schedule, now) ?? first);
    if (now < latest + MINUTE_MS) return { kind: "fire", scheduledFor: latest, late: false };
    if (now - latest <= this.catchUpWindowMinutes * MINUTE_MS)
      return { kind: "fire", scheduledFor: latest, late: true };
    return { kind: "skip", missedRun: latest };
  }

  /** When the job will fire next as seen at `now` (null: not pending, or never again). */
  nextFire(state: ScheduleState, now: number): number | null {
    if (state.fireRequestedAt !== null) return state.fireRequestedAt;
    if (state.status !== "pend") return null;
    const decision = this.decide(state, now);
    if (decision.kind === "fire") return decision.scheduledFor;
    const baseline = this.baseline(state);
    const after = decision.kind === "skip" || baseline === null ? now : baseline;
    return this.nextRun(state.schedule, after);
  }

  /** `ms` as ISO 8601 with this zone's offset, whole seconds: `2026-01-05T08:00:00-05:00`. */
  formatInstant(ms: number): string {
    const whole = Math.floor(ms / 1000) * 1000;
    const parts = this.format.formatToParts(new Date(whole));
    const get = (type: Intl.DateTimeFormatPartTypes): number =>
      Number(parts.find((p) => p.type === type)?.value ?? 0);
    const wall = Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour"),
      get("minute"),
      get("second"),
    );
    const offsetMin = Math.round((wall - whole) / MINUTE_MS);
    const sign = offsetMin < 0 ? "-" : "+";
    const abs = Math.abs(offsetMin);
    const two = (n: number) => String(n).padStart(2, "0");
    const local = new Date(wall).toISOString().slice(0, 19);
    return `${local}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  }

  private cron(schedule: string): Cron {
    let cron = this.crons.get(schedule);
    if (!cron) {
      // "no-wildcard": lists and ranges of fixed times (`30 2,14 * * *`) get the fixed-time DST
      // treatment too (fire after a gap, once in a repeat), as in Vixie cron.
      cron = new Cron(schedule, {
        mode: "5-part",
        timezone: this.timeZone,
        paused: true,
        fixedTimeRule: "no-wildcard",
      });
      this.crons.set(schedule, cron);
    }
    return cron;
  }
}

/** Epoch ms of an ISO 8601 timestamp as jobs.md writes it (with offset or Z), else null. */
export function parseInstant(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
