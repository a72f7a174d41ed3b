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

/**
 * How jobs.md's time fields are written. `local` is the reference format (PhysiClaw's job_store.py
 * `format_minute`: naive local time, ISO 8601 cut to the minute, e.g. `2026-06-23T08:00`), read in
 * the configured zone; a wall time that occurs twice (the hour repeated when DST ends) gets its
 * offset, `2026-11-01T01:30-05:00`, so which of the two it was is not lost. `offset` writes every
 * time with its offset and seconds, `2026-01-05T08:00:00+01:00`.
 */
export type StampStyle = "local" | "offset";

/** Cron matching in one time zone, with compiled patterns cached per instance. */
export class JobClock {
  private readonly crons = new Map<string, Cron>();
  private readonly format: Intl.DateTimeFormat;

  constructor(
    readonly timeZone: string,
    readonly catchUpWindowMinutes: number,
    readonly stampStyle: StampStyle = "local",
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
    const wall = this.wallOf(whole);
    return `${new Date(wall).toISOString().slice(0, 19)}${offsetText(wall - whole)}`;
  }

  /** `ms` as a jobs.md time field in this clock's StampStyle (`local`: cut to the minute). */
  formatStamp(ms: number): string {
    if (this.stampStyle === "offset") return this.formatInstant(ms);
    const minute = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
    const wall = this.wallOf(minute);
    const local = new Date(wall).toISOString().slice(0, 16);
    return this.instantsOf(wall).length > 1 ? `${local}${offsetText(wall - minute)}` : local;
  }

  /**
   * Epoch ms of a jobs.md time field: with an offset (or Z) as given; without, a wall time in this
   * zone. A wall time that occurs twice is the first (earlier) one; one that does not exist (the
   * spring-forward gap) is read with the offset before the gap, i.e. as the same distance after
   * the gap, as ECMAScript Temporal's "compatible" disambiguation does. Null when not a time.
   */
  parseStamp(text: string): number | null {
    const wall = parseLocalStamp(text);
    if (wall === null) return parseInstant(text);
    const instants = this.instantsOf(wall);
    return instants[0] ?? wall - (this.wallOf(wall - DAY_MS / 2) - (wall - DAY_MS / 2));
  }

  /** The instants whose wall time in this zone is `wall` (0, 1 or 2 of them), earliest first. */
  private instantsOf(wall: number): number[] {
    const offsets = new Set([this.offsetAt(wall - DAY_MS / 2), this.offsetAt(wall + DAY_MS / 2)]);
    return [...offsets]
      .map((offset) => wall - offset)
      .filter((t) => this.wallOf(t) === wall)
      .sort((a, b) => a - b);
  }

  private offsetAt(ms: number): number {
    return this.wallOf(ms) - ms;
  }

  /** The zone's wall-clock time at `ms` (whole seconds), as if it were UTC epoch ms. */
  private wallOf(ms: number): number {
    const parts = this.format.formatToParts(new Date(Math.floor(ms / 1000) * 1000));
    const get = (type: Intl.DateTimeFormatPartTypes): number =>
      Number(parts.find((p) => p.type === type)?.value ?? 0);
    return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
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

const DAY_MS = 24 * 60 * MINUTE_MS;

function offsetText(offsetMs: number): string {
  const offsetMin = Math.round(offsetMs / MINUTE_MS);
  const abs = Math.abs(offsetMin);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${offsetMin < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * The wall time of an offset-less ISO 8601 time (`2026-06-23T08:00`, seconds optional) as if it
 * were UTC epoch ms, or null when `text` is not one or names no real date and time (Feb 30, 24:00).
 */
function parseLocalStamp(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0)) as number[];
  const wall = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 0, hour ?? 0, minute ?? 0, second ?? 0);
  const back = new Date(wall);
  return back.getUTCFullYear() === year &&
    back.getUTCMonth() + 1 === month &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute
    ? wall
    : null;
}

/** Whether `text` is a jobs.md time field: ISO 8601 local (reference format) or with an offset. */
export function isStampText(text: string): boolean {
  return parseLocalStamp(text) !== null || parseInstant(text) !== null;
}

/** Epoch ms of an ISO 8601 timestamp with offset or Z, else null (see JobClock.parseStamp). */
export function parseInstant(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
