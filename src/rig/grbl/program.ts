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

/**
 * Translate a motion program into G-code for GRBL 1.1 (absolute millimetres, G90 G21, set at reference).
 * Stylus down is a strike at full power for `strikeMs`, then hold power; M3 waits for queued motion to end
 * before switching (GRBL syncs the planner for spindle changes when laser mode $32 is off), which is the
 * "never energise while travelling" guarantee. G4's P is in seconds in GRBL and FluidNC.
 */
export function programToGcode(program: readonly MotionStep[], profile: RigProfile): GcodeLine[] {
  const { strikePower, holdPower, strikeMs, spindleMaxS } = profile.stylus;
  const out: GcodeLine[] = [];
  program.forEach((step, index) => {
    switch (step.kind) {
      case "travel":
        out.push({ line: `G0 X${gnum(step.to.xMm)} Y${gnum(step.to.yMm)}`, step: index });
        break;
      case "feed":
        out.push({
          line: `G1 X${gnum(step.to.xMm)} Y${gnum(step.to.yMm)} F${gnum(step.feedMmPerMin)}`,
          step: index,
        });
        break;
      case "dwell":
        out.push({ line: `G4 P${gnum(step.ms / 1000)}`, step: index });
        break;
      case "stylus":
        if (step.down) {
          out.push({ line: `M3 S${Math.round(strikePower * spindleMaxS)}`, stylus: "on", step: index });
          if (strikeMs > 0) {
            out.push({ line: `G4 P${gnum(strikeMs / 1000)}`, step: index });
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
