import { PiclawError } from "../../util/errors.js";
import { sleep } from "../../util/sleep.js";
import { CRITICAL_ALARMS, grblAlarm, grblAlarmMeaning } from "./codes.js";
import type { GrblSession } from "./session.js";
import type { GrblTimings } from "./timings.js";

/** The alarm the back-end last saw; `atMs` is when (critical alarms make GRBL deaf to resets for a while). */
export interface AlarmState {
  code: string;
  message: string;
  critical: boolean;
  atMs: number;
}

/** The state an `ALARM:code` leaves, stamped now (ALARM:1/2 are critical: see `recoverCritical`). */
export function alarmState(code: number): AlarmState {
  return {
    code: `ALARM:${code}`,
    message: grblAlarmMeaning(code),
    critical: CRITICAL_ALARMS.has(code),
    atMs: Date.now(),
  };
}

/** The error that refuses motion while `alarm` stands. */
export function alarmError(alarm: AlarmState): PiclawError {
  const code = Number(alarm.code.replace(/^ALARM:/, ""));
  return Number.isFinite(code) ? grblAlarm(code) : new PiclawError("MOTION_ALARM", alarm.message);
}

/**
 * Feed hold then soft reset, within `budgetMs`. In a critical alarm GRBL ignores a reset that comes
 * within ~500 ms of the alarm (protocol.c protocol_exec_rt_system clears EXEC_RESET on entry), so wait
 * that out first, as far as the budget allows. Rejects when no banner came in time.
 */
export async function resetNow(
  s: GrblSession,
  alarm: AlarmState | null,
  timings: GrblTimings,
  budgetMs: number,
): Promise<void> {
  const end = Date.now() + budgetMs;
  s.realtime("!");
  if (alarm?.critical) await sleep(Math.min(alarm.atMs + timings.criticalResetDelayMs, end) - Date.now());
  await s.softReset(Math.max(50, Math.min(timings.resetWaitMs, end - Date.now())));
}

/**
 * After ALARM:1/2: wait out GRBL's deaf window, then reset until the banner comes (3 tries). Throws
 * MOTION_TIMEOUT, asking for a power cycle, when none of them is answered.
 */
export async function recoverCritical(
  s: GrblSession,
  alarm: AlarmState | null,
  timings: GrblTimings,
): Promise<void> {
  const at = alarm?.atMs ?? Date.now();
  await sleep(at + timings.criticalResetDelayMs - Date.now());
  let last: unknown;
  for (let i = 0; i < 3; i++) {
    try {
      await s.softReset(timings.resetWaitMs);
      return;
    } catch (err) {
      last = err;
      await sleep(timings.criticalResetDelayMs);
    }
  }
  throw new PiclawError(
    "MOTION_TIMEOUT",
    `the GRBL board answered none of 3 resets after ${alarm?.code ?? "an alarm"}: power-cycle it (${(last as Error).message})`,
  );
}
