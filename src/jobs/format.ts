import type { JobType, JobView } from "../agent/ports.js";
import { cronProblem, isStampText } from "./schedule.js";

/**
 * jobs.md as data. The file is free text (a header for humans) followed by one `## <id>` section
 * per job: a one-line description, then `- Field: value` lines; a value may continue on following
 * lines indented by two spaces. A section with any problem is kept verbatim (so a rewrite never
 * destroys a hand edit) and reported with its line number; the other jobs are unaffected.
 * Contract: `parseJobsFile(formatJobsFile(doc)).doc` deep-equals `doc` for every `doc` this module
 * or the store produces (values normalised by `normalizeValue`).
 */

export const JOB_ID = /^[a-z0-9][a-z0-9-]*$/;
/** Longest id a job may be given or looked up by (a CLI once took 20,000-character ids). */
export const MAX_JOB_ID_CHARS = 64;
export const JOB_TYPES: readonly JobType[] = ["periodic", "one-time"];
/**
 * `pend` waits for its schedule; `fired` is a one-time job handed to a session (closes on finish);
 * `done` ran; `cancelled` by a person or the agent; `missed` a one-time job whose run was older than
 * the catch-up window when the appliance came back.
 */
export const JOB_STATUSES = ["pend", "fired", "done", "cancelled", "missed"] as const;

/** A job as stored: the agent's view plus a pending manual fire (`piclaw jobs fire`). */
export interface JobRecord extends JobView {
  /** Set by `requestFire`; written as `- Next fire time: <time> (fire requested)`. */
  fireRequestedAt: string | null;
}

/** A section that did not parse, kept byte for byte (minus trailing blank lines). */
export interface RawSection {
  kind: "raw";
  /** The heading's id when it is a valid id, else null. */
  id: string | null;
  text: string;
}

export type JobSection = { kind: "job"; job: JobRecord } | RawSection;

export interface JobsDocument {
  /** Free text before the first job (trailing whitespace trimmed). */
  header: string;
  sections: JobSection[];
}

/** One reason a section was skipped; `line` is 1-based in the parsed text. */
export interface JobProblem {
  line: number;
  id: string | null;
  reason: string;
}

export interface ParsedJobs {
  doc: JobsDocument;
  /** The well-formed jobs, in file order. */
  jobs: JobRecord[];
  problems: JobProblem[];
}

type FieldKey = Exclude<keyof JobRecord, "id" | "description" | "fireRequestedAt">;

/**
 * Field labels in the order they are written: the reference format's order (PhysiClaw's
 * `create_job` in engine/jobs.py), so a jobs.md brought from it is written back unchanged.
 * Reading accepts any order.
 */
const FIELDS: readonly [label: string, key: FieldKey][] = [
  ["Type", "type"],
  ["Status", "status"],
  ["Schedule", "schedule"],
  ["Context", "context"],
  ["Create time", "createTime"],
  ["Next fire time", "nextFireTime"],
  ["Last fire time", "lastFireTime"],
  ["Execution time", "executionTime"],
  ["Execution result", "executionResult"],
];
const REQUIRED: readonly FieldKey[] = ["type", "schedule", "status", "context"];
const TIME_KEYS: readonly FieldKey[] = ["createTime", "nextFireTime", "lastFireTime", "executionTime"];
const LABEL_OF = new Map(FIELDS.map(([label, key]) => [key, label]));
const KEY_OF = new Map(FIELDS.map(([label, key]) => [label.toLowerCase(), key]));
const NEVER = "(never)";
const NONE = "(none)";
const FIRE_REQUESTED = " (fire requested)";
const HEADING = /^##\s+(.*)$/;
const FIELD_LINE = /^-\s+([^:]+?)\s*:\s?(.*)$/;
const CONTINUATION = /^ {2,}\S/;

/**
 * Line breaks other than LF that a value can carry in from outside (an SMS, a web page, a Windows
 * paste): a lone CR, U+2028/U+2029, NEL, VT, FF. JavaScript's `.` and `$` treat CR, U+2028 and
 * U+2029 as line ends, so one of them inside a `- Field: value` line made the whole job malformed
 * and skipped (issue 19). CRLF is a line break like LF and handled by `normalizeValue`'s split.
 */
const STRAY_BREAKS = /\r(?!\n)|[\u2028\u2029\u0085\v\f]/g;

/**
 * The text form of a value: CRLF read as LF, the other line separators (STRAY_BREAKS) become
 * spaces, each line trimmed, blank lines dropped (a blank line would end the field in the file).
 * Descriptions additionally collapse to one line. Every text written into jobs.md passes here.
 */
export function normalizeValue(text: string): string {
  return text
    .replace(STRAY_BREAKS, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join("\n");
}

export function parseJobsFile(text: string): ParsedJobs {
  const lines = text.split(/\r?\n/);
  const firstHeading = lines.findIndex((line) => HEADING.test(line));
  const headerEnd = firstHeading < 0 ? lines.length : firstHeading;
  const doc: JobsDocument = { header: lines.slice(0, headerEnd).join("\n").trimEnd(), sections: [] };
  const jobs: JobRecord[] = [];
  const problems: JobProblem[] = [];
  const firstLineOf = new Map<string, number>();
  let start = headerEnd;
  while (start < lines.length) {
    let end = start + 1;
    while (end < lines.length && !HEADING.test(lines[end] ?? "")) end++;
    const sectionLines = lines.slice(start, end);
    const parsed = parseSection(sectionLines, start + 1);
    const id = parsed.id;
    if (parsed.job && id !== null && firstLineOf.has(id)) {
      parsed.problems.push({
        line: start + 1,
        id,
        reason: `duplicate id "${id}" (first defined at line ${firstLineOf.get(id)}); this one is skipped`,
      });
    }
    if (parsed.job && parsed.problems.length === 0) {
      doc.sections.push({ kind: "job", job: parsed.job });
      jobs.push(parsed.job);
    } else {
      const raw = trimTrailingBlank(sectionLines).join("\n");
      doc.sections.push({ kind: "raw", id, text: raw });
      problems.push(...parsed.problems.sort((x, y) => x.line - y.line));
    }
    if (id !== null && !firstLineOf.has(id)) firstLineOf.set(id, start + 1);
    start = end;
  }
  return { doc, jobs, problems };
}

export function formatJobsFile(doc: JobsDocument): string {
  const blocks = doc.sections.map((s) => (s.kind === "raw" ? s.text : formatJob(s.job)));
  const all = doc.header ? [doc.header, ...blocks] : blocks;
  return all.length > 0 ? `${all.join("\n\n")}\n` : "";
}

export function formatJob(job: JobRecord): string {
  const lines = [`## ${job.id}`, job.description, ""];
  for (const [label, key] of FIELDS) {
    let value: string;
    if (key === "schedule") value = `\`${job.schedule}\``;
    else if (key === "nextFireTime" && job.fireRequestedAt !== null)
      value = `${job.fireRequestedAt}${FIRE_REQUESTED}`;
    else if (key === "nextFireTime") value = job.nextFireTime ?? NONE;
    else value = job[key] ?? NEVER;
    lines.push(`- ${label}: ${value.split("\n").join("\n  ")}`.trimEnd());
  }
  return lines.join("\n");
}

interface SectionResult {
  id: string | null;
  job: JobRecord | null;
  problems: JobProblem[];
}

function parseSection(lines: string[], firstLine: number): SectionResult {
  const headingText = HEADING.exec(lines[0] ?? "")?.[1]?.trim() ?? "";
  const id = JOB_ID.test(headingText) ? headingText : null;
  const problems: JobProblem[] = [];
  const problem = (offset: number, reason: string) => problems.push({ line: firstLine + offset, id, reason });
  if (id === null)
    problem(
      0,
      `invalid job id "${headingText}" (lowercase letters, digits and "-", starting with a letter or digit)`,
    );
  let description: string | null = null;
  const values = new Map<FieldKey, { value: string; offset: number }>();
  let current: FieldKey | null = null;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      current = null;
      continue;
    }
    if (CONTINUATION.test(line) && current !== null) {
      const entry = values.get(current);
      if (entry) entry.value = `${entry.value}\n${line.trim()}`;
      continue;
    }
    const field = FIELD_LINE.exec(line);
    if (field) {
      const label = field[1] ?? "";
      const key = KEY_OF.get(label.toLowerCase());
      current = null;
      if (!key) problem(i, `unknown field "${label}" (fields: ${FIELDS.map(([l]) => l).join(", ")})`);
      else if (values.has(key)) problem(i, `field "${LABEL_OF.get(key)}" appears twice`);
      else {
        values.set(key, { value: (field[2] ?? "").trim(), offset: i });
        current = key;
      }
      continue;
    }
    if (description === null && values.size === 0 && !line.startsWith(" ")) {
      description = line.trim();
      continue;
    }
    problem(
      i,
      `unexpected text "${line.trim().slice(0, 40)}" (the description is one line under the heading; fields are "- Name: value")`,
    );
  }
  if (description === null) problem(0, "missing the one-line description under the heading");
  const missing = REQUIRED.filter((key) => !values.has(key)).map((key) => `"${LABEL_OF.get(key)}"`);
  if (missing.length > 0) problem(0, `missing field${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
  const job = buildJob(id, description, values, problem);
  return { id, job: problems.length === 0 ? job : null, problems };
}

function buildJob(
  id: string | null,
  description: string | null,
  values: Map<FieldKey, { value: string; offset: number }>,
  problem: (offset: number, reason: string) => void,
): JobRecord | null {
  const text = (key: FieldKey): string => values.get(key)?.value ?? "";
  const at = (key: FieldKey): number => values.get(key)?.offset ?? 0;
  const type = text("type");
  if (values.has("type") && !(JOB_TYPES as readonly string[]).includes(type))
    problem(at("type"), `bad Type "${type}" (periodic or one-time)`);
  const schedule = text("schedule")
    .replace(/^`(.*)`$/, "$1")
    .trim();
  const scheduleProblem = values.has("schedule") ? cronProblem(schedule) : null;
  if (scheduleProblem) problem(at("schedule"), scheduleProblem);
  const status = text("status");
  if (values.has("status") && !(JOB_STATUSES as readonly string[]).includes(status))
    problem(at("status"), `bad Status "${status}" (${JOB_STATUSES.join(", ")})`);
  let fireRequestedAt: string | null = null;
  const times = new Map<FieldKey, string | null>();
  for (const key of TIME_KEYS) {
    let value = text(key);
    if (key === "nextFireTime" && value.endsWith(FIRE_REQUESTED)) {
      value = value.slice(0, -FIRE_REQUESTED.length).trim();
      fireRequestedAt = value;
    }
    if (value === "" || value === NEVER || value === NONE) {
      times.set(key, null);
      if (fireRequestedAt !== null && key === "nextFireTime")
        problem(at(key), `"(fire requested)" needs the time it was requested`);
    } else if (!isStampText(value)) {
      problem(
        at(key),
        `bad ${LABEL_OF.get(key)} "${value}" (ISO 8601 local time in the configured zone, e.g. 2026-01-05T08:00, or with an offset, e.g. 2026-01-05T08:00+01:00)`,
      );
    } else times.set(key, value);
  }
  const result = text("executionResult");
  if (id === null || description === null) return null;
  return {
    id,
    description,
    type: type as JobType,
    schedule,
    status,
    context: text("context"),
    createTime: times.get("createTime") ?? null,
    nextFireTime: times.get("nextFireTime") ?? null,
    lastFireTime: times.get("lastFireTime") ?? null,
    executionTime: times.get("executionTime") ?? null,
    executionResult: result === "" || result === NEVER ? null : result,
    fireRequestedAt,
  };
}

function trimTrailingBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? "").trim() === "") end--;
  return lines.slice(0, end);
}

/** The header a new jobs.md starts with (free text; the parser keeps whatever a person writes here). */
export const DEFAULT_JOBS_HEADER = `# PiClaw jobs

Each \`## <id>\` section below is one job the appliance runs on a schedule. The agent, \`piclaw jobs\`
and you may all edit this file; writes are atomic and locked, so nobody loses an update. Id: lowercase
letters, digits and "-". Under the heading: a one-line description, then the fields:

- Type: \`periodic\` (fires at every match) or \`one-time\` (fires once, then closes)
- Schedule: 5-field cron in backticks, \`minute hour day-of-month month day-of-week\` (\`*\`, \`N\`,
  \`N,M\`, \`*/N\`, \`A-B\`; day-of-week 0 = Sunday), read in the configured time zone
- Status: \`pend\` (waiting), \`fired\` (one-time, running), \`done\`, \`cancelled\`, \`missed\`
- Context: the brief the agent gets when the job fires (may continue on lines indented two spaces)
- Create time, Next fire time, Last fire time, Execution time, Execution result: kept by PiClaw.
  Times are local times in the configured time zone (\`2026-01-05T08:00\`; one in the hour that
  repeats when DST ends carries its offset). Next fire time is always recomputed; editing it has
  no effect.

A job fires when its schedule matches the current minute and its Status is \`pend\` (a job added during
a matching minute first fires at the next match). Runs missed while the appliance was off or busy:
the most recent one fires once, late, if it is at most \`jobs.catchUpWindowMinutes\` old (default 60);
otherwise it is skipped and Execution result says so. Runs that came due while the job's own
session was still running are not repeated. \`piclaw jobs fire ID\` marks Next fire time
"(fire requested)": the job then fires within a second, whatever its schedule.
A section with a mistake is reported (\`piclaw jobs validate\`) and skipped; the others keep running.
Example (without the indentation):

    ## morning-news
    Read the morning news headlines

    - Type: periodic
    - Status: pend
    - Schedule: \`0 8 * * *\`
    - Context: Open the news app and summarise the top three headlines in the daily log.`;
