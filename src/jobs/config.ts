import { isAbsolute, join } from "node:path";
import { z } from "zod";

/** The jobs.md schedule (cron jobs the runtime fires). */
export const jobsConfigSchema = z
  .strictObject({
    file: z
      .string()
      .min(1)
      .default("jobs.md")
      .describe(
        "The jobs file (human-readable Markdown, one `## id` section per job); relative to the state directory.",
      ),
    catchUpWindowMinutes: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 60)
      .default(60)
      .describe(
        "Catch-up for runs missed while the appliance was off or busy: a pending job whose most recent missed run is at most this many minutes old fires once, late (older missed runs of it are not repeated); when even the most recent missed run is older, the job does not fire, its Execution result says it was skipped, and a one-time job gets status `missed`. 0 = only fire within the matching minute.",
      ),
    lockStaleMs: z
      .number()
      .int()
      .min(1000)
      .max(600_000)
      .default(30_000)
      .describe(
        "A jobs.md lock file (`<file>.lock`) older than this, or held by a process that no longer runs, is taken over (a writer that was killed mid-write leaves one behind).",
      ),
    lockTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(10_000)
      .describe("How long a writer waits for the jobs.md lock before giving up with JOBS_LOCK_TIMEOUT."),
    timeStamps: z
      .enum(["local", "offset"])
      .default("local")
      .describe(
        "How jobs.md's time fields are written. `local` (the reference format): local time in `timeZone` to the minute, `2026-06-23T08:00` (a time in the hour that repeats when DST ends gets its offset). `offset`: with offset and seconds, `2026-06-23T08:00:00+02:00`. Both are read either way.",
      ),
  })
  .describe(
    "The jobs.md schedule: cron jobs the runtime fires, read in the top-level `timeZone` (`0 8 * * *` is 08:00 there; times in jobs.md are written there too). Across DST changes a job neither fires twice nor is skipped: a time that does not exist (spring forward) fires at the first minute after the gap, a time that occurs twice (fall back) fires once; `*/N`-style schedules follow real elapsed time. The agent, `piclaw jobs` and the runtime all write the file under a lock, atomically, so none loses another's update.",
  );

export type JobsConfig = z.infer<typeof jobsConfigSchema>;

/** Absolute path of the jobs file: `jobs.file`, relative to the state directory unless absolute. */
export function jobsFilePath(config: Pick<JobsConfig, "file">, stateDir: string): string {
  return isAbsolute(config.file) ? config.file : join(stateDir, config.file);
}
