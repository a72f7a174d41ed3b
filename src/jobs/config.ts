import { z } from "zod";

/** The jobs.md schedule (cron jobs the runtime fires). */
export const jobsConfigSchema = z
  .strictObject({})
  .describe("The jobs.md schedule (cron jobs the runtime fires).");

export type JobsConfig = z.infer<typeof jobsConfigSchema>;
