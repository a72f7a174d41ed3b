import type { BedPoint } from "../motion.js";
import type { RigProfile } from "../profile.js";

/** Absolute motor positions in (micro)steps: motor A and motor B. */
export interface MotorSteps {
  a: number;
  b: number;
}

/**
 * Bed millimetres ↔ motor steps. Cartesian: A drives X, B drives Y. CoreXY: A = X + Y and B = X − Y in
 * belt millimetres, each with its own steps/mm (`stepsPerMm.x` for A, `.y` for B).
 */
export interface Kinematics {
  /** Exact motor target: the *absolute* position rounded to whole steps, so errors never accumulate. */
  toSteps(p: BedPoint): MotorSteps;
  /** Where the carriage is for given motor positions (fractional steps allowed). */
  toBed(s: MotorSteps): BedPoint;
}

export function kinematicsFor(profile: Pick<RigProfile, "kinematics" | "stepsPerMm">): Kinematics {
  const { x: sa, y: sb } = profile.stepsPerMm;
  if (profile.kinematics === "corexy") {
    return {
      toSteps: (p) => ({ a: Math.round((p.xMm + p.yMm) * sa), b: Math.round((p.xMm - p.yMm) * sb) }),
      toBed: (s) => {
        const a = s.a / sa;
        const b = s.b / sb;
        return { xMm: (a + b) / 2, yMm: (a - b) / 2 };
      },
    };
  }
  return {
    toSteps: (p) => ({ a: Math.round(p.xMm * sa), b: Math.round(p.yMm * sb) }),
    toBed: (s) => ({ xMm: s.a / sa, yMm: s.b / sb }),
  };
}
