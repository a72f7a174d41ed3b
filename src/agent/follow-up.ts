import type { Logger } from "../log/logger.js";
import type { AgentJobs, Trigger, WakeContext } from "./ports.js";

/**
 * The canonical follow-up after a WAIT: one one-time job with a fixed id (so repeated WAITs replace
 * it rather than pile up), firing `minutes` from now, carrying the recap and the triggers that woke
 * the waiting session. Failures are logged, never thrown: the session is already over.
 */

export interface FollowUpRequest {
  jobs: AgentJobs;
  id: string;
  minutes: number;
  nowMs: number;
  timeZone: string | undefined;
  recap: string;
  wake: WakeContext;
  log: Logger;
  /** What the follow-up comes after, for its description and context (default "a WAIT"). */
  after?: string;
}

export async function scheduleFollowUp(request: FollowUpRequest): Promise<boolean> {
  const { jobs, id, minutes, nowMs, timeZone, recap, wake, log } = request;
  const after = request.after ?? "a WAIT";
  const schedule = cronAt(nowMs + minutes * 60_000, timeZone);
  const context = [
    `Follow-up of a session that ended after ${after}. Its recap: ${recap}`,
    "",
    "It was woken by:",
    ...wake.triggers.map(describeTrigger),
  ].join("\n");
  try {
    await jobs.upsert({
      id,
      description: `Follow up (${minutes} min after ${after}): ${oneLine(recap, 120)}`,
      type: "one-time",
      schedule,
      context,
    });
    log.info("follow-up job scheduled", { id, schedule });
    return true;
  } catch (err) {
    log.error("cannot schedule the follow-up job", { id, err });
    return false;
  }
}

/**
 * A 5-field cron matching the minute at or after `ms` in `timeZone` (minute, hour, day, month, any
 * weekday). Rounded up so a follow-up never fires earlier than asked.
 */
export function cronAt(ms: number, timeZone: string | undefined): string {
  const minuteMs = 60_000;
  const at = Math.ceil(ms / minuteMs) * minuteMs;
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  return `${get("minute")} ${get("hour")} ${get("day")} ${get("month")} *`;
}

export function describeTrigger(trigger: Trigger): string {
  switch (trigger.kind) {
    case "cron":
      return `- job ${trigger.jobId} (${trigger.description}), scheduled for ${trigger.scheduledFor}; context: ${trigger.context}`;
    case "poll":
      return `- the screen watcher: ${trigger.reason}`;
    case "manual":
      return `- ${trigger.from}: ${trigger.text}`;
  }
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
