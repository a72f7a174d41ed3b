/**
 * Shared shapes of the simulated rig. Units are explicit in names: `Mm` is millimetres, `Px` pixels,
 * `Ms` milliseconds. Boxes are `[left, top, right, bottom]` in 0–1 fractions of the phone screen.
 */

import type { FracBox } from "../shared/box.js";
import type { RawImage } from "../shared/image.js";
import type { PhoneGeometry } from "../shared/phone-model.js";

/**
 * One touch sample on the glass, as the digitizer reports it. Glass coordinates: millimetres from the
 * top-left corner of the active screen area, x to the right, y down (toward the home indicator).
 */
export interface TouchEvent {
  type: "down" | "move" | "up";
  xMm: number;
  yMm: number;
  /** Milliseconds on the phone's clock. */
  tMs: number;
}

export type ElementKind = "icon" | "text" | "control";

/** Ground truth of one visible element, for tests and benchmarks (never shown to the agent). */
export interface ScreenElement {
  id: string;
  kind: ElementKind;
  label: string;
  box: FracBox;
  /**
   * Share of the element's height left inside its scroll viewport, present only when it is cut
   * (a row scrolled half out of view). Text cut to a sliver is still hittable but no longer readable.
   */
  visibleHeight?: number;
}

/** Anything the simulated camera can look at: the phone's current screen and its geometry. */
export interface ScreenSource {
  readonly geometry: PhoneGeometry;
  /** The screen exactly as the panel shows it now (RGB or RGBA at `geometry.screenPx`). */
  renderScreen(): Promise<RawImage>;
}
