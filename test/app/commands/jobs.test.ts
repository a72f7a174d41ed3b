import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { jobsCommand } from "../../../src/app/commands/jobs.js";
import { configSchema } from "../../../src/app/config/schema.js";
import { type JobsConfig, jobsConfigSchema } from "../../../src/jobs/config.js";
import { ManualClock } from "../../../src/util/clock.js";
import { rejection } from "../../helpers/errors.js";
import { memoryLog, tempJobsFile } from "../../jobs/helpers.js";

function cli(config: Partial<JobsConfig> = {}) {
  const stateDir = dirname(tempJobsFile());
  const out: string[] = [];
  const deps = {
    config: jobsConfigSchema.parse(config),
    timeZone: "Europe/Berlin",
    stateDir,
    clock: new ManualClock(Date.parse("2026-01-05T06:30:00Z")),
    log: memoryLog().log,
    write: (t: string) => out.push(t),
  };
  const run = async (sub: string, arg?: string, flags = {}) => {
    out.length = 0;
    const code = await jobsCommand(sub, arg, flags, deps);
    return { code, out: out.join("") };
  };
  return { run, file: join(stateDir, "jobs.md"), stateDir };
}

describe("piclaw jobs", () => {
  it("add, list, fire, cancel on <stateDir>/jobs.md", async () => {
    const { run, file } = cli();
    const added = await run("add", undefined, {
      id: "morning",
      schedule: "0 8 * * 1-5",
      description: "Morning check",
    });
    expect(added).toEqual({ code: 0, out: "added morning: next fire 2026-01-05T08:00\n" });
    expect(readFileSync(file, "utf8")).toContain("- Context: Morning check");
    const listed = await run("list");
    expect(listed.out).toMatch(/^ID\s+TYPE\s+STATUS\s+SCHEDULE\s+NEXT FIRE\s+DESCRIPTION\n/);
    expect(listed.out).toMatch(
      /morning\s+periodic\s+pend\s+0 8 \* \* 1-5\s+2026-01-05T08:00\s+Morning check/,
    );
    expect((await run("fire", "morning")).code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("(fire requested)");
    expect((await run("cancel", "morning")).out).toBe("morning cancelled\n");
    expect(readFileSync(file, "utf8")).toContain("- Status: cancelled");
    expect((await rejection(run("cancel", "nope"))).code).toBe("JOB_NOT_FOUND");
    expect(
      (await rejection(run("add", undefined, { id: "Bad", schedule: "0 8 * * *", description: "x" }))).code,
    ).toBe("JOB_INVALID");
    expect((await rejection(run("frobnicate"))).code).toBe("USAGE");
  });

  it("refuses ids over 64 characters without echoing them (issue 19)", async () => {
    const { run, file } = cli();
    const long = "a".repeat(20_000);
    for (const attempt of [
      run("add", undefined, { id: long, schedule: "0 8 * * *", description: "x" }),
      run("fire", long),
      run("cancel", long),
    ]) {
      const err = await rejection(attempt);
      expect(err.code).toBe("JOB_INVALID");
      expect(err.message).toContain("at most 64 characters (got 20000)");
      expect(err.message.length).toBeLessThan(200);
    }
    expect(
      (await run("add", undefined, { id: "a".repeat(64), schedule: "0 8 * * *", description: "x" })).code,
    ).toBe(0);
    expect(readFileSync(file, "utf8")).toContain(`## ${"a".repeat(64)}\n`);
  });

  it("validate prints FILE:LINE: reason and exits 1 on problems, 0 when clean", async () => {
    const { run, file, stateDir } = cli();
    await run("add", undefined, { id: "ok", schedule: "*/5 * * * *", description: "fine" });
    expect(await run("validate")).toEqual({ code: 0, out: `ok: ${file} (1 job)\n` });
    const other = join(stateDir, "other.md");
    writeFileSync(
      other,
      "## bad\nBad one\n- Type: periodic\n- Schedule: `99 * * * *`\n- Status: pend\n- Context: x\n",
    );
    const res = await run("validate", other);
    expect(res.code).toBe(1);
    expect(res.out).toContain(`${other}:4: bad schedule "99 * * * *"`);
    expect((await rejection(run("validate", join(stateDir, "missing.md")))).code).toBe("JOBS_FILE");
  });

  it("jobs.file may point elsewhere; the time zone is the appliance's (top-level) and validated", () => {
    expect(configSchema.safeParse({ timeZone: "Mars/Olympus" }).success).toBe(false);
    expect(configSchema.safeParse({ jobs: { timeZone: "Europe/Berlin" } }).success).toBe(false);
    const config = jobsConfigSchema.parse({});
    expect(config).toMatchObject({ file: "jobs.md", catchUpWindowMinutes: 60, lockStaleMs: 30_000 });
  });
});
