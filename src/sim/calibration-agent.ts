import type { PhoneAgent, ScreenTouch } from "../calibration/agent.js";
import { type CalibrationPattern, patternSvg } from "../calibration/pattern.js";
import type { PhoneGeometry } from "../shared/phone-model.js";
import type { TouchReport } from "./phone/index.js";

/** The part of the simulated phone the agent uses (SimPhone has it). */
export interface PatternPhone {
  readonly geometry: PhoneGeometry;
  showPattern(svgBody: string | null): void;
  touchReports(sinceMs: number): TouchReport[];
}

/**
 * PhoneAgent for the simulated phone: draws the pattern over everything and reads the digitizer's
 * touch log. The simulated phone shares the rig's clock, so times need no translation.
 */
export class SimPhoneAgent implements PhoneAgent {
  constructor(private readonly phone: PatternPhone) {}

  async showPattern(pattern: CalibrationPattern): Promise<void> {
    this.phone.showPattern(patternSvg(pattern, this.phone.geometry.screenPt));
  }

  async clearPattern(): Promise<void> {
    this.phone.showPattern(null);
  }

  async touchesSince(ms: number): Promise<ScreenTouch[]> {
    return this.phone.touchReports(ms);
  }
}
