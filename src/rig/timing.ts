import { grblDwellMs } from "./grbl/program.js";
import type { BedPoint, MotionStep } from "./motion.js";
import type { RigProfile } from "./profile.js";
import { trapezoid } from "./speed-law.js";

/** Predicted duration of each phase of a program on a profile's timing model (no planner blending). */
export interface ProgramTiming {
  totalMs: number;
  travelMs: number;
  contactMs: number;
  waitMs: number;
}

/**
 * Predict how long `program` takes from `start` on `profile`: trapezoidal moves at the profile's rate and
 * acceleration (the slower axis limits a diagonal), the strike inside every stylus-down, dwells as given
 * — or, with `grblDwell`, as GRBL really dwells them (the 50 ms steps `programToGcode` writes).
 */
export function predictProgram(
  program: readonly MotionStep[],
  profile: RigProfile,
  start: BedPoint,
  options: { grblDwell?: boolean } = {},
): ProgramTiming {
  let credit = 0;
  let at = start;
  let down = false;
  const t: ProgramTiming = { totalMs: 0, travelMs: 0, contactMs: 0, waitMs: 0 };
  const maxRate = Math.min(profile.maxRateMmPerMin.x, profile.maxRateMmPerMin.y) / 60;
  const accel = Math.min(profile.accelMmPerS2.x, profile.accelMmPerS2.y);
  for (const step of program) {
    let ms = 0;
    const carried = credit;
    credit = 0;
    if (step.kind === "travel" || step.kind === "feed") {
      const rate = step.kind === "feed" ? Math.min(step.feedMmPerMin / 60, maxRate) : maxRate;
      ms = trapezoid(Math.hypot(step.to.xMm - at.xMm, step.to.yMm - at.yMm), rate, accel).durationMs;
      at = step.to;
      if (down) t.contactMs += ms;
      else t.travelMs += ms;
    } else if (step.kind === "dwell") {
      ms = options.grblDwell ? grblDwellMs(Math.max(0, step.ms - carried)) : step.ms;
      if (down) t.contactMs += ms;
      else t.waitMs += ms;
    } else {
      if (step.down && !down) {
        ms = profile.stylus.strikeMs;
        if (options.grblDwell) {
          ms = grblDwellMs(ms);
          credit = ms - profile.stylus.strikeMs;
        }
        t.contactMs += ms;
      }
      down = step.down;
    }
    t.totalMs += ms;
  }
  return t;
}
