import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { jobsCommand } from "../../src/app/commands/jobs.js";
import { jobsConfigSchema } from "../../src/jobs/config.js";
import { formatJobsFile, parseJobsFile } from "../../src/jobs/format.js";
import { assertJobsSurvive } from "../../src/jobs/store.js";
import { jobsRig, memoryLog, runUntil } from "./helpers.js";

/** Every line break JavaScript or a Markdown reader might split on, besides LF. */
const BREAKS = ["\r", "\r\n", "\u2028", "\u2029", "\u0085", "\v", "\f"];

/** `piclaw jobs add` on the rig's file, as the CLI runs it. */
async function cliAdd(rig: ReturnType<typeof jobsRig>, flags: Record<string, string>) {
  const out: string[] = [];
  const code = await jobsCommand("add", undefined, flags, {
    config: jobsConfigSchema.parse({}),
    timeZone: "UTC",
    stateDir: dirname(rig.file),
    clock: rig.clock,
    log: memoryLog().log,
    write: (t) => out.push(t),
  });
  return { code, out: out.join("") };
}

describe("jobs.md text with foreign line breaks (issue 19 item 2)", () => {
  it("`piclaw jobs add` with CR, U+2028, U+2029 … in its text: the job is stored readable and fires", async () => {
    const rig = jobsRig("2026-03-02T07:00:00Z");
    for (const [i, br] of BREAKS.entries()) {
      const { code } = await cliAdd(rig, {
        id: `job-${i}`,
        schedule: `${i} 8 * * *`,
        description: `Check${br}the weather`,
        context: `Open the app${br}read the forecast${br}`,
      });
      expect(code).toBe(0);
    }
    const parsed = parseJobsFile(readFileSync(rig.file, "utf8"));
    expect(parsed.problems).toEqual([]);
    expect(parsed.jobs.map((j) => j.id)).toEqual(BREAKS.map((_, i) => `job-${i}`));
    for (const job of parsed.jobs) expect(job.description).toBe("Check the weather");
    // CRLF is a line break like LF (a Windows paste); the others are spaces.
    expect(parsed.jobs[1]?.context).toBe("Open the app\nread the forecast");
    expect(parsed.jobs[2]?.context).toBe("Open the app read the forecast");
    const fired = await runUntil(rig, "2026-03-02T08:07:00Z", 60_000);
    expect(fired.sort()).toEqual(BREAKS.map((_, i) => `job-${i}@2026-03-02T08:0${i}:00Z`).sort());
  });

  it("finish_job with such a result keeps a periodic job scheduled", async () => {
    const rig = jobsRig("2026-03-02T07:00:00Z");
    await rig.store.create({
      id: "sms-watch",
      type: "periodic",
      schedule: "0 8 * * *",
      description: "Watch for the SMS",
      context: "Read new messages",
    });
    expect(await runUntil(rig, "2026-03-02T08:00:30Z", 30_000)).toEqual(["sms-watch@2026-03-02T08:00:00Z"]);
    for (const br of BREAKS) {
      const view = await rig.store.finish("sms-watch", `Reply was:${br}"See you at 8"${br}— Anna`);
      expect(view.status).toBe("pend");
    }
    const parsed = parseJobsFile(readFileSync(rig.file, "utf8"));
    expect(parsed.problems).toEqual([]);
    expect(parsed.jobs[0]).toMatchObject({ id: "sms-watch", status: "pend" });
    expect(parsed.jobs[0]?.executionResult).toBe('Reply was: "See you at 8" — Anna');
    expect(await runUntil(rig, "2026-03-03T08:00:30Z", 30_000)).toEqual(["sms-watch@2026-03-03T08:00:00Z"]);
  });

  it("a write that would turn a job into a skipped section is refused, naming the job", () => {
    const parsed = parseJobsFile(
      "## ok\nFine\n\n- Type: periodic\n- Schedule: `0 8 * * *`\n- Status: pend\n- Context: x\n",
    );
    const job = parsed.jobs[0];
    if (!job) throw new Error("the fixture must parse");
    job.context = "raw\u2028break"; // what normalisation prevents; the guard is the last line
    const text = formatJobsFile(parsed.doc);
    expect(() => assertJobsSurvive(parsed.doc, text, "jobs.md")).toThrow(
      expect.objectContaining({ code: "JOB_INVALID", details: { ids: ["ok"] } }),
    );
  });
});
