/**
 * Shared shapes of the simulated rig. Units are explicit in names: `Mm` is millimetres, `Px` pixels,
 * `Ms` milliseconds. Boxes are `[left, top, right, bottom]` in 0–1 fractions of the phone screen.
 */

/** Raw interleaved pixels, row-major, top-left origin. */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}

export type Box = [left: number, top: number, right: number, bottom: number];

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
  box: Box;
  /**
   * Share of the element's height left inside its scroll viewport, present only when it is cut
   * (a row scrolled half out of view). Text cut to a sliver is still hittable but no longer readable.
   */
  visibleHeight?: number;
}

/** Physical layout of a phone model. */
export interface PhoneGeometry {
  name: string;
  screenPx: { width: number; height: number };
  screenPt: { width: number; height: number };
  /** Active screen area on the glass. */
  glassMm: { width: number; height: number };
  body: {
    widthMm: number;
    heightMm: number;
    thicknessMm: number;
    cornerRadiusMm: number;
    /** Offset of the active area's top-left corner from the body's top-left corner. */
    screenInsetMm: { x: number; y: number };
  };
  screenCornerRadiusMm: number;
}

/** A 6.1-inch iPhone-like phone (iPhone 13/14 class): 1170×2532 px at 460 ppi, 390×844 pt. */
export const IPHONE_61: PhoneGeometry = {
  name: "iphone-6.1",
  screenPx: { width: 1170, height: 2532 },
  screenPt: { width: 390, height: 844 },
  glassMm: { width: (1170 / 460) * 25.4, height: (2532 / 460) * 25.4 },
  body: {
    widthMm: 71.5,
    heightMm: 146.7,
    thicknessMm: 7.8,
    cornerRadiusMm: 9.5,
    screenInsetMm: { x: (71.5 - (1170 / 460) * 25.4) / 2, y: (146.7 - (2532 / 460) * 25.4) / 2 },
  },
  screenCornerRadiusMm: 7.5,
};

/** Anything the simulated camera can look at: the phone's current screen and its geometry. */
export interface ScreenSource {
  readonly geometry: PhoneGeometry;
  /** The screen exactly as the panel shows it now (RGB or RGBA at `geometry.screenPx`). */
  renderScreen(): Promise<RawImage>;
}
