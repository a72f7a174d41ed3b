import { z } from "zod";

/** The runtime loop: triggers (cron, poll) that wake agent sessions. */
export const runtimeConfigSchema = z
  .strictObject({})
  .describe("The runtime loop: triggers (cron, poll) that wake agent sessions.");

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
