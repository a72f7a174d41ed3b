import { z } from "zod";

/** How the daemon talks to its supervisor (systemd notify, watchdog). */
export const serviceConfigSchema = z
  .strictObject({})
  .describe("How the daemon talks to its supervisor (systemd notify, watchdog).");

export type ServiceConfig = z.infer<typeof serviceConfigSchema>;
