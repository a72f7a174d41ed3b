import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { NewJob } from "../../src/agent/ports.js";
import { parseJobsFile } from "../../src/jobs/format.js";
import { jobsRig, runUntil } from "./helpers.js";

const periodic = (id: string, schedule: string): NewJob => ({
  id,
  schedule,
  type: "periodic",
  description: `job ${id}`,
  context: `do ${id}`,
});

describe("JobScheduler (injected clock)", () => {
  it("fires within the matching minute and not again in that minute, even after a restart", async () => {
    const rig = jobsRig("2026-01-05T07:59:00Z");
    await rig.store.create(periodic("news", "0 8 * * *"));
    expect(await runUntil(rig, "2026-01-05T08:00:29Z")).toEqual(["news@2026-01-05T08:00:00Z"]);
    // A new process on the same file in the same minute: nothing fires again.
    const restarted = jobsRig("2026-01-05T08:00:30Z", { file: rig.file });
    expect(await runUntil(restarted, "2026-01-05T08:05:00Z")).toEqual([]);
    const job = await restarted.store.get("news");
    expect(job?.lastFireTime).toBe("2026-01-05T08:00");
    expect(job?.nextFireTime).toBe("2026-01-06T08:00");
    expect(job?.status).toBe("pend");
  });

  it("while nothing is due, collectDue neither locks nor rewrites the file", async () => {
    const rig = jobsRig("2026-01-05T07:00:00Z");
    await rig.store.create(periodic("news", "0 8 * * *"));
    const before = statSync(rig.file).mtimeMs;
    expect(await runUntil(rig, "2026-01-05T07:59:59Z", 5_000)).toEqual([]);
    expect(statSync(rig.file).mtimeMs).toBe(before);
    expect(existsSync(`${rig.file}.lock`)).toBe(false);
  });

  it("*/30, ranges, lists and day-of-week (0 = Sunday) fire exactly at their matches", async () => {
    const rig = jobsRig("2026-01-09T23:59:00Z"); // Friday night
    await rig.store.create(periodic("range", "15 9-11 * * *"));
    await rig.store.create(periodic("list", "0 7,19 * * *"));
    await rig.store.create(periodic("sunday-noon", "0 12 * * 0"));
    await rig.store.create(periodic("weekdays", "45 6 * * 1-5"));
    const fired = await runUntil(rig, "2026-01-11T23:59:59Z", 30_000); // Saturday + Sunday
    const of = (id: string) => fired.filter((f) => f.startsWith(`${id}@`)).map((f) => f.slice(id.length + 1));
    expect(of("range")).toEqual([
      "2026-01-10T09:15:00Z",
      "2026-01-10T10:15:00Z",
      "2026-01-10T11:15:00Z",
      "2026-01-11T09:15:00Z",
      "2026-01-11T10:15:00Z",
      "2026-01-11T11:15:00Z",
    ]);
    expect(of("list")).toEqual([
      "2026-01-10T07:00:00Z",
      "2026-01-10T19:00:00Z",
      "2026-01-11T07:00:00Z",
      "2026-01-11T19:00:00Z",
    ]);
    expect(of("sunday-noon")).toEqual(["2026-01-11T12:00:00Z"]);
    expect(of("weekdays")).toEqual([]);
    expect(await runUntil(rig, "2026-01-12T06:46:00Z", 30_000)).toContain("weekdays@2026-01-12T06:45:00Z");
  });

  it("*/30 fires at :00 and :30 of every hour, once each", async () => {
    const rig = jobsRig("2026-01-09T23:59:00Z");
    await rig.store.create(periodic("half-hourly", "*/30 * * * *"));
    // 7 s steps: each fire lands in the first check inside its minute, whatever the second.
    const fired = await runUntil(rig, "2026-01-10T02:29:59Z", 7_000);
    expect(fired.map((f) => f.slice(0, -4))).toEqual([
      "half-hourly@2026-01-10T00:00",
      "half-hourly@2026-01-10T00:30",
      "half-hourly@2026-01-10T01:00",
      "half-hourly@2026-01-10T01:30",
      "half-hourly@2026-01-10T02:00",
    ]);
    expect(fired.every((f) => Number(f.slice(-3, -1)) < 7)).toBe(true);
  });

  it("a one-time job fires once, closes as fired, and finish() makes it done", async () => {
    const rig = jobsRig("2026-01-05T08:58:00Z");
    await rig.store.create({ ...periodic("once", "0 9 * * *"), type: "one-time" });
    expect(await runUntil(rig, "2026-01-07T10:00:00Z", 20_000)).toEqual(["once@2026-01-05T09:00:00Z"]);
    expect((await rig.store.get("once"))?.status).toBe("fired");
    expect((await rig.store.get("once"))?.nextFireTime).toBeNull();
    const done = await rig.store.finish("once", "checked the weather");
    expect(done).toMatchObject({ status: "done", executionResult: "checked the weather" });
  });

  it("finish() on a WAIT follow-up that was re-armed by upsert keeps it pending", async () => {
    const rig = jobsRig("2026-01-05T08:59:00Z");
    await rig.store.upsert({ ...periodic("wait-reply", "0 9 * * *"), type: "one-time" });
    expect(await runUntil(rig, "2026-01-05T09:00:10Z")).toEqual(["wait-reply@2026-01-05T09:00:00Z"]);
    await rig.store.upsert({ ...periodic("wait-reply", "30 9 * * *"), type: "one-time" }); // still waiting
    const after = await rig.store.finish("wait-reply", "WAIT: no reply yet");
    expect(after.status).toBe("pend");
    expect(await runUntil(rig, "2026-01-05T09:31:00Z")).toEqual(["wait-reply@2026-01-05T09:30:00Z"]);
  });

  it("DST in America/New_York: spring-forward and fall-back neither double-fire nor skip", async () => {
    const tz = "America/New_York";
    // 2026-03-08 02:00 EST → 03:00 EDT (07:00Z). 02:30 does not exist that night.
    const spring = jobsRig("2026-03-08T03:59:00Z", { timeZone: tz });
    await spring.store.create(periodic("at-0230", "30 2 * * *"));
    await spring.store.create(periodic("at-0300", "0 3 * * *"));
    await spring.store.create(periodic("every-30", "*/30 * * * *"));
    await spring.store.create(periodic("list", "30 2,14 * * *"));
    const s = await runUntil(spring, "2026-03-09T08:00:00Z", 20_000);
    expect(s.filter((f) => f.startsWith("at-0230"))).toEqual([
      "at-0230@2026-03-08T07:00:00Z", // first minute after the gap
      "at-0230@2026-03-09T06:30:00Z", // 02:30 EDT the next day
    ]);
    expect(s.filter((f) => f.startsWith("at-0300"))).toEqual([
      "at-0300@2026-03-08T07:00:00Z",
      "at-0300@2026-03-09T07:00:00Z",
    ]);
    expect(s.filter((f) => f.startsWith("list"))).toEqual([
      "list@2026-03-08T07:00:00Z",
      "list@2026-03-08T18:30:00Z",
      "list@2026-03-09T06:30:00Z",
    ]);
    const every30 = s.filter((f) => f.startsWith("every-30") && f < "every-30@2026-03-08T08:01");
    expect(every30).toEqual([
      "every-30@2026-03-08T04:00:00Z",
      "every-30@2026-03-08T04:30:00Z",
      "every-30@2026-03-08T05:00:00Z",
      "every-30@2026-03-08T05:30:00Z",
      "every-30@2026-03-08T06:00:00Z",
      "every-30@2026-03-08T06:30:00Z", // 01:30 EST
      "every-30@2026-03-08T07:00:00Z", // 03:00 EDT
      "every-30@2026-03-08T07:30:00Z",
      "every-30@2026-03-08T08:00:00Z",
    ]);

    // 2026-11-01 02:00 EDT → 01:00 EST (06:00Z). 01:30 happens twice.
    const fall = jobsRig("2026-11-01T03:00:00Z", { timeZone: tz });
    await fall.store.create(periodic("at-0130", "30 1 * * *"));
    await fall.store.create(periodic("range", "15 0-2 * * *"));
    const f = await runUntil(fall, "2026-11-02T07:00:00Z", 20_000);
    expect(f.filter((x) => x.startsWith("at-0130"))).toEqual([
      "at-0130@2026-11-01T05:30:00Z",
      "at-0130@2026-11-02T06:30:00Z",
    ]);
    expect(f.filter((x) => x.startsWith("range") && x < "range@2026-11-02")).toEqual([
      "range@2026-11-01T04:15:00Z", // 00:15 EDT
      "range@2026-11-01T05:15:00Z", // 01:15 EDT; not again at 01:15 EST
      "range@2026-11-01T07:15:00Z", // 02:15 EST
    ]);
    expect((await fall.store.get("at-0130"))?.lastFireTime).toBe("2026-11-02T01:30");
  });

  it("DST in Europe/Berlin: 02:30 fires once on both transition nights", async () => {
    const tz = "Europe/Berlin";
    const spring = jobsRig("2026-03-28T23:00:00Z", { timeZone: tz }); // 2026-03-29 02:00 CET → 03:00 CEST
    await spring.store.create(periodic("at-0230", "30 2 * * *"));
    expect(await runUntil(spring, "2026-03-29T04:00:00Z", 10_000)).toEqual(["at-0230@2026-03-29T01:00:00Z"]);
    const fall = jobsRig("2026-10-24T23:00:00Z", { timeZone: tz }); // 2026-10-25 03:00 CEST → 02:00 CET
    await fall.store.create(periodic("at-0230", "30 2 * * *"));
    expect(await runUntil(fall, "2026-10-25T04:00:00Z", 10_000)).toEqual(["at-0230@2026-10-25T00:30:00Z"]);
  });

  it("catch-up after downtime: a recent missed run fires once, late; an old one is skipped and says so", async () => {
    const rig = jobsRig("2026-01-05T07:00:00Z");
    await rig.store.create(periodic("daily", "0 8 * * *"));
    await rig.store.create(periodic("ten-min", "*/10 * * * *"));
    await rig.store.create({ ...periodic("once", "0 8 * * *"), type: "one-time" });
    await runUntil(rig, "2026-01-05T07:30:00Z", 60_000); // then the power goes
    // Back at 08:20: every job's latest missed run (08:00, 08:20 for ten-min) is within 60 min.
    const back = jobsRig("2026-01-05T08:20:30Z", { file: rig.file });
    const due = await back.scheduler.collectDue(back.clock.now());
    expect(due.map((d) => `${d.job.id} for ${d.scheduledFor}`).sort()).toEqual([
      "daily for 2026-01-05T08:00:00+00:00",
      "once for 2026-01-05T08:00:00+00:00",
      "ten-min for 2026-01-05T08:20:00+00:00", // 07:40 … 08:10 are not repeated
    ]);
    expect(await back.scheduler.collectDue(back.clock.now() + 5_000)).toEqual([]);

    // Off again from 08:21 until the next day 09:30: 08:00 is 90 min old, past the window.
    const late = jobsRig("2026-01-06T09:30:00Z", { file: rig.file });
    const lateDue = await late.scheduler.collectDue(late.clock.now());
    expect(lateDue.map((d) => d.job.id)).toEqual(["ten-min"]); // its 09:30 run is this minute
    const daily = await late.store.get("daily");
    expect(daily?.executionResult).toMatch(/^skipped: the run due 2026-01-06T08:00 .* 90 min old/);
    expect(daily?.nextFireTime).toBe("2026-01-07T08:00");
    await late.store.cancel("ten-min"); // keeps the day-long run below cheap
    expect(await runUntil(late, "2026-01-07T08:00:30Z", 30_000)).toContain("daily@2026-01-07T08:00:00Z");
  });

  it("a one-time job whose run is older than the window is closed as missed", async () => {
    const rig = jobsRig("2026-01-05T07:00:00Z", { catchUpWindowMinutes: 15 });
    await rig.store.create({ ...periodic("once", "0 8 * * *"), type: "one-time" });
    const back = jobsRig("2026-01-05T08:20:00Z", { file: rig.file, catchUpWindowMinutes: 15 });
    expect(await back.scheduler.collectDue(back.clock.now())).toEqual([]);
    expect(await back.store.get("once")).toMatchObject({ status: "missed", nextFireTime: null });
  });

  it("requestFire from another store (the CLI) fires on the next collectDue, whatever the schedule", async () => {
    const rig = jobsRig("2026-01-05T07:00:00Z");
    await rig.store.create(periodic("yearly", "0 0 1 1 *"));
    expect(await rig.scheduler.collectDue(rig.clock.now())).toEqual([]);
    const cli = jobsRig("2026-01-05T07:00:00Z", { file: rig.file, clock: rig.clock });
    await cli.store.requestFire("yearly");
    expect(readFileSync(rig.file, "utf8")).toContain("(fire requested)");
    rig.clock.advance(1000);
    const due = await rig.scheduler.collectDue(rig.clock.now());
    expect(due.map((d) => [d.job.id, d.scheduledFor])).toEqual([["yearly", "2026-01-05T07:00:00+00:00"]]);
    expect(await rig.scheduler.collectDue(rig.clock.now() + 1000)).toEqual([]);
    expect((await rig.store.get("yearly"))?.nextFireTime).toBe("2027-01-01T00:00");
  });

  it("a broken job is reported with its line number while the good jobs still fire", async () => {
    const rig = jobsRig("2026-01-05T07:59:00Z");
    await rig.store.create(periodic("good", "0 8 * * *"));
    const text = readFileSync(rig.file, "utf8");
    writeFileSync(
      rig.file,
      `${text}\n## broken\nBad cron\n\n- Type: periodic\n- Schedule: \`0 8 * * 9\`\n- Status: pend\n- Context: x\n`,
    );
    const line = text.split("\n").length + 5;
    expect(await runUntil(rig, "2026-01-05T08:01:00Z")).toEqual(["good@2026-01-05T08:00:00Z"]);
    expect(rig.scheduler.problems()).toEqual([expect.objectContaining({ line, id: "broken" })]);
    expect(rig.lines.filter((l) => l.includes("job skipped"))).toHaveLength(1); // logged once
    expect(rig.lines.find((l) => l.includes("job skipped"))).toContain(`"line":${line}`);
    // The runtime's own write (the fire) kept the broken section for a person to fix.
    expect(parseJobsFile(readFileSync(rig.file, "utf8")).problems).toHaveLength(1);
  });

  it("a hand-written job without times gets a Create time and fires at its next match", async () => {
    const rig = jobsRig("2026-01-05T07:59:30Z");
    writeFileSync(
      rig.file,
      "# mine\n\n## hand\nWritten by hand\n\n- Type: periodic\n- Schedule: `0 8 * * *`\n- Status: pend\n- Context: hi\n",
    );
    expect(await runUntil(rig, "2026-01-05T08:00:10Z")).toEqual(["hand@2026-01-05T08:00:00Z"]);
    const text = readFileSync(rig.file, "utf8");
    expect(text).toContain("- Create time: 2026-01-05T07:59\n");
    expect(text.startsWith("# mine\n\n## hand")).toBe(true);
  });
});
