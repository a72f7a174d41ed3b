import { PiclawError } from "../../util/errors.js";

/**
 * GRBL 1.1 reply codes and what they mean (from the GRBL 1.1 interface documentation). FluidNC and
 * grblHAL keep these numbers, so one table serves every board PiClaw drives over serial. The meanings are
 * returned to the model as data, so they are written for a reader who has never seen GRBL.
 */

const ERRORS: Readonly<Record<number, string>> = {
  1: "expected command letter: a G-code word has no letter",
  2: "bad number format: a word's value is missing or not a number",
  3: "invalid statement: '$' system command not recognised or supported",
  4: "negative value received for an expected positive value",
  5: "setting disabled: homing is not enabled in the settings",
  6: "minimum step pulse time must be greater than 3 µs",
  7: "EEPROM read failed: affected settings restored to defaults",
  8: "'$' command cannot be used unless the machine is idle",
  9: "G-code locked out during alarm or jog state",
  10: "soft limits cannot be enabled without homing also enabled",
  11: "line overflow: too many characters in one line, line not executed",
  12: "a setting would make the step rate exceed the maximum supported",
  13: "safety door detected as opened",
  14: "build info or startup line exceeded the EEPROM line length",
  15: "travel exceeds machine travel (soft limit): jog target ignored",
  16: "invalid jog command",
  17: "laser mode requires PWM output",
  18: "reserved error code",
  19: "reserved error code",
  20: "unsupported or invalid G-code command in block",
  21: "more than one G-code command from the same modal group in block",
  22: "feed rate has not yet been set or is undefined",
  23: "G-code command in block requires an integer value",
  24: "more than one G-code command that requires axis words in block",
  25: "repeated G-code word in block",
  26: "no axis words in block for a command that requires them",
  27: "line number value is invalid",
  28: "G-code command is missing a required value word",
  29: "G59.x work coordinate systems are not supported",
  30: "G53 only allowed with G0 and G1 motion modes",
  31: "axis words in block when no command or modal state uses them",
  32: "G2/G3 arcs require at least one in-plane axis word",
  33: "motion command target is invalid",
  34: "arc radius value is invalid",
  35: "G2/G3 arcs require at least one in-plane offset word",
  36: "unused value words in block",
  37: "G43.1 tool length offset is not assigned to the tool length axis",
  38: "tool number greater than the maximum supported",
};

const ALARMS: Readonly<Record<number, string>> = {
  1: "hard limit triggered: position likely lost, re-reference",
  2: "soft limit: motion target exceeds machine travel (position retained)",
  3: "reset while in motion: position cannot be guaranteed, re-reference",
  4: "probe fail: probe not in the expected initial state",
  5: "probe fail: probe did not contact within the programmed travel",
  6: "homing fail: reset during the homing cycle",
  7: "homing fail: safety door opened during homing",
  8: "homing fail: could not clear the limit switch when pulling off",
  9: "homing fail: limit switch not found within the search distance",
  10: "homing fail: second limit switch of a dual axis not found",
};

/** Alarms after which GRBL blocks everything but status and soft reset ("Reset to continue"). */
export const CRITICAL_ALARMS: ReadonlySet<number> = new Set([1, 2, 10]);

export function grblErrorMeaning(code: number): string {
  return ERRORS[code] ?? `unknown GRBL error ${code}`;
}

export function grblAlarmMeaning(code: number): string {
  return ALARMS[code] ?? `unknown GRBL alarm ${code}`;
}

/** A GRBL `error:N` reply to `line` as the PiclawError a run() rejects with. */
export function grblError(code: number, line?: string): PiclawError {
  const meaning = grblErrorMeaning(code);
  return new PiclawError(
    "MOTION_GRBL_ERROR",
    `GRBL error ${code}: ${meaning}${line ? ` (in "${line}")` : ""}`,
    {
      grblCode: code,
      meaning,
      ...(line ? { line } : {}),
    },
  );
}

/** A GRBL `ALARM:N` report as a PiclawError; the back-end is in state alarm afterwards. */
export function grblAlarm(code: number): PiclawError {
  const meaning = grblAlarmMeaning(code);
  return new PiclawError("MOTION_ALARM", `GRBL alarm ${code}: ${meaning}`, { grblCode: code, meaning });
}
