import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { jobsCommand } from "../../src/app/commands/jobs.js";
import { jobsConfigSchema } from "../../src/jobs/config.js";
import { formatJobsFile, parseJobsFile } from "../../src/jobs/format.js";
import { JobClock } from "../../src/jobs/schedule.js";
import { jobsRig, memoryLog, runUntil } from "./helpers.js";

/**
 * A jobs.md as the reference system writes it (PhysiClaw, engine/jobs.py `create_job`: a `# Jobs`
 * title, then per job the fields in this order, times from `format_minute` — naive local time to
 * the minute — and `(never)` for unset ones).
 */
const MORNING_WEATHER = `# Jobs

## morning-weather
Check the weather for the day

- Type: periodic
- Status: pend
- Schedule: \`0 8 * * *\`
- Context: Open the weather app and write today's forecast and the chance of rain in the daily log.
- Create time: 2026-06-22T21:40
- Next fire time: 2026-06-23T08:00
- Last fire time: (never)
- Execution time: (never)
- Execution result: (never)
`;

describe("jobs.md in the reference format (issue 16)", () => {
  it("the morning-weather example validates, schedules at 08:00 local and is written back unchanged", async () => {
    // 22:00 in Berlin (CEST, +02:00), twenty minutes after the job was created.
    const rig = jobsRig("2026-06-22T20:00:00Z", { timeZone: "Europe/Berlin" });
    writeFileSync(rig.file, MORNING_WEATHER);

    const out: string[] = [];
    const code = await jobsCommand(
      "validate",
      undefined,
      {},
      {
        config: jobsConfigSchema.parse({}),
        timeZone: "Europe/Berlin",
        stateDir: dirname(rig.file),
        clock: rig.clock,
        log: memoryLog().log,
        write: (t) => out.push(t),
      },
    );
    expect({ code, out: out.join("") }).toEqual({ code: 0, out: `ok: ${rig.file} (1 job)\n` });
    expect(formatJobsFile(parseJobsFile(MORNING_WEATHER).doc)).toBe(MORNING_WEATHER);

    const job = await rig.store.get("morning-weather");
    expect(job).toMatchObject({ createTime: "2026-06-22T21:40", nextFireTime: "2026-06-23T08:00" });
    const record = rig.store.read().jobs[0];
    if (!record) throw new Error("the example must parse");
    expect(new Date(rig.store.dueAt(record)).toISOString()).toBe("2026-06-23T06:00:00.000Z");

    // Nothing is due at 22:00: the scheduler leaves the file alone; a write for another job keeps
    // this one byte for byte.
    expect(await rig.scheduler.collectDue(rig.clock.now())).toEqual([]);
    expect(readFileSync(rig.file, "utf8")).toBe(MORNING_WEATHER);
    await rig.store.create({
      id: "other",
      type: "one-time",
      schedule: "0 12 23 6 *",
      description: "Another job",
      context: "Something else",
    });
    const after = readFileSync(rig.file, "utf8");
    expect(after.startsWith(`${MORNING_WEATHER}\n## other\n`)).toBe(true);
    // The new job is written in the same format: local times to the minute, reference field order.
    expect(after.slice(MORNING_WEATHER.length)).toBe(
      "\n## other\nAnother job\n\n- Type: one-time\n- Status: pend\n- Schedule: `0 12 23 6 *`\n- Context: Something else\n" +
        "- Create time: 2026-06-22T22:00\n- Next fire time: 2026-06-23T12:00\n- Last fire time: (never)\n" +
        "- Execution time: (never)\n- Execution result: (never)\n",
    );

    // It fires at 08:00 Berlin time (06:00Z) and records that in the same format.
    const fired = await runUntil(rig, "2026-06-23T06:00:30Z", 30_000);
    expect(fired).toEqual(["morning-weather@2026-06-23T06:00:00Z"]);
    expect(await rig.store.get("morning-weather")).toMatchObject({
      lastFireTime: "2026-06-23T08:00",
      nextFireTime: "2026-06-24T08:00",
    });
  });

  it("times with an offset are read as given; the offset style still writes them", async () => {
    const clock = new JobClock("Europe/Berlin", 60);
    expect(clock.parseStamp("2026-06-22T21:40")).toBe(Date.parse("2026-06-22T19:40:00Z"));
    expect(clock.parseStamp("2026-06-22T21:40+05:00")).toBe(Date.parse("2026-06-22T16:40:00Z"));
    expect(clock.parseStamp("2026-06-22T21:40:00Z")).toBe(Date.parse("2026-06-22T21:40:00Z"));
    expect(clock.parseStamp("2026-02-30T08:00")).toBeNull();
    expect(clock.parseStamp("2026-06-22 21:40")).toBeNull();
    const offset = new JobClock("Europe/Berlin", 60, "offset");
    expect(offset.formatStamp(Date.parse("2026-06-22T19:40:30Z"))).toBe("2026-06-22T21:40:30+02:00");
    expect(clock.formatStamp(Date.parse("2026-06-22T19:40:30Z"))).toBe("2026-06-22T21:40");
    const rig = jobsRig("2026-06-22T20:00:00Z", { timeZone: "Europe/Berlin" });
    writeFileSync(rig.file, MORNING_WEATHER.replace("2026-06-22T21:40", "2026-06-23T07:30+02:00"));
    // Created 07:30 the next day (as given): 08:00 that day is still its first run.
    expect((await rig.store.get("morning-weather"))?.nextFireTime).toBe("2026-06-23T08:00");
  });

  it("DST: local times keep the rules (the repeated hour is written with its offset, the gap reads forward)", async () => {
    const ny = new JobClock("America/New_York", 60);
    // 2026-11-01: 01:00–01:59 happens twice (EDT, then EST).
    expect(ny.formatStamp(Date.parse("2026-11-01T05:30:00Z"))).toBe("2026-11-01T01:30-04:00");
    expect(ny.formatStamp(Date.parse("2026-11-01T06:30:00Z"))).toBe("2026-11-01T01:30-05:00");
    expect(ny.formatStamp(Date.parse("2026-11-01T07:30:00Z"))).toBe("2026-11-01T02:30");
    expect(ny.parseStamp("2026-11-01T01:30")).toBe(Date.parse("2026-11-01T05:30:00Z")); // the first
    // 2026-03-08: 02:00–02:59 does not exist; 02:30 reads as 03:30 EDT.
    expect(ny.parseStamp("2026-03-08T02:30")).toBe(Date.parse("2026-03-08T07:30:00Z"));

    // Through the repeated hour, a */30 job fires at each real half hour once, and a fixed 01:30 job
    // once, although both write their Last fire time without seconds.
    const fall = jobsRig("2026-11-01T04:00:00Z", { timeZone: "America/New_York" });
    await fall.store.create({
      id: "every-30",
      type: "periodic",
      schedule: "*/30 * * * *",
      description: "d",
      context: "c",
    });
    await fall.store.create({
      id: "at-0130",
      type: "periodic",
      schedule: "30 1 * * *",
      description: "d",
      context: "c",
    });
    const fired = await runUntil(fall, "2026-11-01T08:00:00Z", 20_000);
    expect(fired.filter((f) => f.startsWith("every-30"))).toEqual(
      ["04:30", "05:00", "05:30", "06:00", "06:30", "07:00", "07:30", "08:00"].map(
        (t) => `every-30@2026-11-01T${t}:00Z`,
      ),
    );
    expect(fired.filter((f) => f.startsWith("at-0130"))).toEqual(["at-0130@2026-11-01T05:30:00Z"]);
  });
});
