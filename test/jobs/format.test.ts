import { describe, expect, it } from "vitest";
import {
  DEFAULT_JOBS_HEADER,
  formatJobsFile,
  type JobRecord,
  type JobsDocument,
  parseJobsFile,
} from "../../src/jobs/format.js";

const job = (over: Partial<JobRecord> = {}): JobRecord => ({
  id: "morning-news",
  description: "Read the morning headlines",
  type: "periodic",
  schedule: "0 8 * * *",
  status: "pend",
  context: "Open the news app.\nSummarise the top three headlines.",
  createTime: "2026-01-05T07:00:00+01:00",
  nextFireTime: "2026-01-05T08:00:00+01:00",
  lastFireTime: null,
  executionTime: null,
  executionResult: null,
  fireRequestedAt: null,
  ...over,
});

const GOOD = `# My jobs
Some words for humans.

## morning-news
Read the morning headlines

- Type: periodic
- Schedule: \`0 8 * * *\`
- Status: pend
- Context: Open the news app.
`;

describe("jobs.md format", () => {
  it("round-trips: parse(format(doc)) equals doc, header and all fields included", () => {
    const doc: JobsDocument = {
      header: DEFAULT_JOBS_HEADER,
      sections: [
        { kind: "job", job: job() },
        {
          kind: "job",
          job: job({
            id: "wait-followup",
            type: "one-time",
            schedule: "*/30 9-17 * 1,6 1-5",
            status: "fired",
            lastFireTime: "2026-01-05T09:30:00Z",
            executionTime: "2026-01-05T09:31:12+01:00",
            executionResult: "done: replied to Anna\nand set a reminder",
            fireRequestedAt: "2026-01-05T09:29:00+01:00",
            nextFireTime: "2026-01-05T09:29:00+01:00",
          }),
        },
      ],
    };
    const text = formatJobsFile(doc);
    const parsed = parseJobsFile(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.doc).toEqual(doc);
    expect(formatJobsFile(parsed.doc)).toBe(text);
    expect(text).toContain("- Schedule: `0 8 * * *`");
    expect(text).toContain("- Execution result: (never)");
    expect(text).toContain("- Next fire time: 2026-01-05T09:29:00+01:00 (fire requested)");
    expect(text).toContain("- Context: Open the news app.\n  Summarise the top three headlines.");
  });

  it("keeps the free text before the first job and reads hand-written jobs without the time fields", () => {
    const parsed = parseJobsFile(GOOD);
    expect(parsed.problems).toEqual([]);
    expect(parsed.doc.header).toBe("# My jobs\nSome words for humans.");
    expect(parsed.jobs).toHaveLength(1);
    expect(parsed.jobs[0]).toMatchObject({ id: "morning-news", createTime: null, executionResult: null });
    expect(parseJobsFile(formatJobsFile(parsed.doc)).doc).toEqual(parsed.doc);
  });

  it("the default header parses as a header with no jobs (its example is indented)", () => {
    const parsed = parseJobsFile(`${DEFAULT_JOBS_HEADER}\n`);
    expect(parsed.jobs).toEqual([]);
    expect(parsed.problems).toEqual([]);
  });

  it("reports every malformed job with its line and reason, keeps it verbatim, and keeps the good ones", () => {
    const text = [
      "header", // 1
      "", // 2
      "## good-one", // 3
      "A good job", // 4
      "- Type: periodic", // 5
      "- Schedule: `*/30 * * * *`", // 6
      "- Status: pend", // 7
      "- Context: fine", // 8
      "", // 9
      "## bad-cron", // 10
      "Bad cron", // 11
      "- Type: periodic", // 12
      "- Schedule: `0 25 * * *`", // 13
      "- Status: pend", // 14
      "- Context: x", // 15
      "## unknown-field", // 16
      "Unknown field", // 17
      "- Type: periodic", // 18
      "- Schedule: `0 8 * * *`", // 19
      "- Colour: blue", // 20
      "- Status: pend", // 21
      "- Context: x", // 22
      "## missing-field", // 23
      "Missing status", // 24
      "- Type: periodic", // 25
      "- Schedule: `0 8 * * *`", // 26
      "- Context: x", // 27
      "## good-one", // 28
      "Duplicate", // 29
      "- Type: periodic", // 30
      "- Schedule: `0 9 * * *`", // 31
      "- Status: pend", // 32
      "- Context: x", // 33
      "## Bad Id", // 34
      "x", // 35
      "## bad-status", // 36
      "Bad status", // 37
      "- Type: periodic", // 38
      "- Schedule: `0 8 * * *`", // 39
      "- Status: sleeping", // 40
      "- Context: x", // 41
      "## bad-type", // 42
      "Bad type", // 43
      "- Type: weekly", // 44
      "- Schedule: `0 8 * *`", // 45
      "- Status: pend", // 46
      "- Context: x", // 47
      "- Last fire time: yesterday", // 48
      "## no-description", // 49
      "- Type: periodic", // 50
      "- Schedule: `0 8 * * *`", // 51
      "- Status: pend", // 52
      "- Context: x", // 53
      "## bad-syntax", // 54
      "Names are not allowed", // 55
      "- Type: periodic", // 56
      "- Schedule: `0 8 * * MON`", // 57
      "- Status: pend", // 58
      "- Context: x", // 59
      "stray text", // 60
    ].join("\n");
    const parsed = parseJobsFile(text);
    expect(parsed.jobs.map((j) => j.id)).toEqual(["good-one"]);
    const got = parsed.problems.map((p) => `${p.line}: ${p.reason}`);
    const expected: [number, RegExp][] = [
      [13, /hour.*25/],
      [20, /unknown field "Colour"/],
      [23, /missing field "Status"/],
      [28, /duplicate id "good-one" \(first defined at line 3\)/],
      [34, /invalid job id "Bad Id"/],
      [34, /missing fields "Type", "Schedule", "Status", "Context"/],
      [40, /bad Status "sleeping"/],
      [44, /bad Type "weekly"/],
      [45, /5 fields/],
      [48, /bad Last fire time "yesterday"/],
      [49, /missing the one-line description/],
      [57, /bad day of week field "MON"/],
      [60, /unexpected text "stray text"/],
    ];
    expect(got, got.join("\n")).toHaveLength(expected.length);
    for (const [i, [line, reason]] of expected.entries()) {
      expect(parsed.problems[i]?.line, got.join("\n")).toBe(line);
      expect(parsed.problems[i]?.reason).toMatch(reason);
    }
    // Malformed sections survive a rewrite byte for byte.
    const again = parseJobsFile(formatJobsFile(parsed.doc));
    expect(again.doc).toEqual(parsed.doc);
    expect(formatJobsFile(parsed.doc)).toContain("- Colour: blue");
  });
});
