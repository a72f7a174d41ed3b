import type { BedArea } from "../rig/controller.js";
import type { BedPoint, MotionStep } from "../rig/motion.js";
import type { Point } from "../shared/homography.js";
import type { Clock } from "../util/clock.js";
import type { Random } from "../util/random.js";
import type { PhoneAgent, ScreenTouch } from "./agent.js";

/**
 * What screen↔arm calibration needs from motion: the MotionController has exactly this, so every tap
 * goes through its validation (soft limits, stylus time) and a real back-end.
 */
export interface ArmMotion {
  readonly gestures: { tap(at: BedPoint): MotionStep[] };
  readonly allowedArea: BedArea;
  run(program: readonly MotionStep[]): Promise<void>;
  setAllowedArea(area: BedArea | null): void;
  /** Move the carriage out of the camera's view of the phone. */
  park(): Promise<void>;
}

/** Everything the tapping steps share. */
export interface TapDeps {
  motion: ArmMotion;
  agent: PhoneAgent;
  clock: Clock;
  /** Waits between polls for the phone's touch report (real time on a real rig). */
  sleep: (ms: number) => Promise<void>;
  random: Random;
  /** Size of the phone's active screen area (glass mm): fractions × this = mm on the glass. */
  glassMm: { width: number; height: number };
  /** One human-readable progress line per step. */
  report: (line: string) => void;
}

const POLL_MS = 20;

/**
 * Tap once at `at` (bed mm) and return where the phone says it was touched, or null when no touch
 * arrives within `timeoutMs` (the tip landed off the screen). More than one touch-down in the window
 * (a bounce) counts as the first.
 */
export async function tapAndRead(
  deps: TapDeps,
  at: BedPoint,
  timeoutMs: number,
): Promise<ScreenTouch | null> {
  const since = deps.clock.now();
  await deps.motion.run(deps.motion.gestures.tap(at));
  // Polling counts requested sleep, not clock time, so a hand-driven clock cannot stall it.
  for (let waited = 0; ; waited += POLL_MS) {
    const touches = await deps.agent.touchesSince(since);
    const first = touches[0];
    if (first) return first;
    if (waited >= timeoutMs) return null;
    await deps.sleep(POLL_MS);
  }
}

/** Distance in glass mm between two screen points given as fractions. */
export function glassDistanceMm(a: Point, b: Point, glassMm: { width: number; height: number }): number {
  return Math.hypot((a.x - b.x) * glassMm.width, (a.y - b.y) * glassMm.height);
}

/** A uniformly random screen point inside the margins. */
export function randomTarget(
  random: Random,
  margins: { marginX: number; marginTop: number; marginBottom: number },
): Point {
  return {
    x: margins.marginX + random.next() * (1 - 2 * margins.marginX),
    y: margins.marginTop + random.next() * (1 - margins.marginTop - margins.marginBottom),
  };
}

export const fmtMm = (v: number): string => `${v.toFixed(3)} mm`;
export const fmtBed = (p: BedPoint): string => `(${p.xMm.toFixed(2)}, ${p.yMm.toFixed(2)}) mm`;
export const fmtFrac = (p: Point): string => `(${p.x.toFixed(4)}, ${p.y.toFixed(4)})`;
