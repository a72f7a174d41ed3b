/**
 * Phone models: the physical layout of a phone and the layout facts of its system UI that tools rely on.
 * Units are explicit in names: `Mm` millimetres, `Px` pixels, `Pt` points.
 */

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

/**
 * Where the most recently used app's card lies in the app switcher, in screen fractions. This is the
 * layout of iOS's app switcher as the simulated phone draws it (cards from the left, most recent first); a phone that lays cards out
 * differently needs a different point.
 */
export const FRONT_CARD = { x: 0.29, y: 0.48 };
