import { z } from "zod";

/**
 * The appliance's one time zone: jobs.md schedules, daily logs, the agent's day budget, its WAIT
 * follow-up and the wake message all use it, so they can never disagree about what "today" is.
 */

/** True when `zone` is an IANA time zone this Node's Intl knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .min(1)
  .refine(isTimeZone, "must be an IANA time zone, e.g. Europe/Berlin")
  .optional()
  .describe(
    "IANA time zone of the appliance (jobs.md schedules, daily logs, the agent's day budget and wake message), e.g. `Europe/Berlin`. Default: this machine's zone (`UTC` when it has none).",
  );

/** The configured zone, else this machine's (what `Intl` resolves; `UTC` when it resolves nothing). */
export function resolveTimeZone(config: { timeZone?: string | undefined }): string {
  return config.timeZone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
}
