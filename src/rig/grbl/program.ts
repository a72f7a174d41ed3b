import { PiclawError } from "../../util/errors.js";
import type { MotionStep } from "../motion.js";
import type { RigProfile } from "../profile.js";
import { gnum } from "./protocol.js";

/** One G-code line of a translated program, with what it does to the solenoid once GRBL acknowledges it. */
export interface GcodeLine {
  line: string;
  /** `on`: the spindle output (solenoid) is energised when this line's `ok` arrives; `off`: released. */
  stylus?: "on" | "off";
  /** Index of the program step this line came from (for error messages); -1 for the closing barrier. */
  step: number;
}

/** `G4 P0`: GRBL acknowledges it only after all queued motion ended — the "program finished" barrier. */
export const BARRIER = "G4 P0";

/** GRBL 1.1 dwells in 50 ms steps (config.h DWELL_TIME_STEP; nuts_bolts.c delay_sec: `ceil(1000/50*s)`). */
export const GRBL_DWELL_STEP_MS = 50;

/** How long GRBL really dwells for a requested `ms`: rounded up to the next 50 ms step. */
export function grblDwellMs(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.ceil(ms / GRBL_DWELL_STEP_MS - 1e-9) * GRBL_DWELL_STEP_MS;
}

/** An F word that is never `F0` (GRBL: error:22) for a positive feed; refuses anything else. */
export function feedWord(feedMmPerMin: number): string {
  const text = gnum(feedMmPerMin);
  if (!(feedMmPerMin > 0) || text === "0") {
    throw new PiclawError(
      "MOTION_BAD_FEED",
      `feed ${feedMmPerMin} mm/min cannot be sent to GRBL (it would be written as F${text}); feeds must be ≥ 0.001 mm/min`,
      { feedMmPerMin },
    );
  }
  return `F${text}`;
}

/**
 * Translate a motion program into G-code for GRBL 1.1 (absolute millimetres, G90 G21, set at reference).
 * Stylus down is a strike at full power for `strikeMs`, then hold power; M3 waits for queued motion to end
 * before switching (GRBL syncs the planner for spindle changes when laser mode $32 is off), which is the
 * "never energise while travelling" guarantee. G4's P is in seconds in GRBL and FluidNC.
 * Dwells are written as the 50 ms multiple GRBL will really wait; the strike's rounding is taken off the
 * hold dwell that follows it, so a press lasts what the profile asks rounded up to 50 ms, not more.
 * Throws MOTION_BAD_FEED before anything is sent for a feed that would be written as F0.
 */
export function programToGcode(program: readonly MotionStep[], profile: RigProfile): GcodeLine[] {
  const { strikePower, holdPower, strikeMs, spindleMaxS } = profile.stylus;
  const out: GcodeLine[] = [];
  /** Contact time the rounded-up strike already gave beyond `strikeMs`. */
  let credit = 0;
  const dwell = (ms: number, index: number) => {
    const q = grblDwellMs(ms);
    if (q > 0) out.push({ line: `G4 P${gnum(q / 1000)}`, step: index });
  };
  program.forEach((step, index) => {
    const carried = credit;
    credit = 0;
    switch (step.kind) {
      case "travel":
        out.push({ line: `G0 X${gnum(step.to.xMm)} Y${gnum(step.to.yMm)}`, step: index });
        break;
      case "feed":
        out.push({
          line: `G1 X${gnum(step.to.xMm)} Y${gnum(step.to.yMm)} ${feedWord(step.feedMmPerMin)}`,
          step: index,
        });
        break;
      case "dwell":
        if (step.ms < 0)
          out.push({ line: `G4 P${gnum(step.ms / 1000)}`, step: index }); // GRBL: error:4
        else dwell(Math.max(0, step.ms - carried), index);
        break;
      case "stylus":
        if (step.down) {
          out.push({ line: `M3 S${Math.round(strikePower * spindleMaxS)}`, stylus: "on", step: index });
          if (strikeMs > 0) {
            dwell(strikeMs, index);
            credit = grblDwellMs(strikeMs) - strikeMs;
            out.push({ line: `M3 S${Math.round(holdPower * spindleMaxS)}`, step: index });
          }
        } else {
          out.push({ line: "M5", stylus: "off", step: index });
        }
        break;
    }
  });
  out.push({ line: BARRIER, step: -1 });
  return out;
}
