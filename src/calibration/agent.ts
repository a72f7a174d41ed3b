import type { CalibrationPattern } from "./pattern.js";

/** One touch-down as the phone reported it: where on the screen (0–1 fractions) and when. */
export interface ScreenTouch {
  /** 0–1 fraction of the screen width, from the left edge. */
  x: number;
  /** 0–1 fraction of the screen height, from the top edge. */
  y: number;
  /** Milliseconds on the calibration's clock (an agent translates from the phone's own clock). */
  tMs: number;
}

/**
 * The phone-side half of calibration: a full-screen page that draws a pattern and reports touches.
 * Contract:
 * - `showPattern` resolves once the pattern is on screen; while it shows, the page swallows every touch
 *   (nothing beneath reacts: no app, no system gesture), but reports each touch-down.
 * - `clearPattern` removes it (idempotent).
 * - `touchesSince(ms)` resolves with every touch-down at or after `ms`, oldest first; it never waits for
 *   new touches (callers poll) and reports touches whether or not a pattern shows.
 * On a real phone this is a web page talking to the appliance (a later issue); `SimPhoneAgent` is the
 * simulated phone's.
 */
export interface PhoneAgent {
  showPattern(pattern: CalibrationPattern): Promise<void>;
  clearPattern(): Promise<void>;
  touchesSince(ms: number): Promise<ScreenTouch[]>;
}
