import { z } from "zod";
import { PiclawError } from "../util/errors.js";

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

/** A moment as read on a wall clock in one time zone. */
export interface ZoneTime {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM` (24 h) */
  time: string;
}

/**
 * Wall-clock date and time of `ms` in `timeZone` (IANA name; undefined = this machine's zone). The
 * daily log is named by this date, so a log written at 00:30 in Tokyo lands in Tokyo's new day even
 * when UTC is still on the previous one.
 */
export function zoneTime(ms: number, timeZone: string | undefined): ZoneTime {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(new Date(ms));
  } catch (err) {
    throw new PiclawError(
      "MEMORY_TIME_ZONE",
      `unknown time zone ${JSON.stringify(timeZone)}`,
      { timeZone },
      {
        cause: err,
      },
    );
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "00";
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}` };
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === date;
}
