import type { FracBox } from "../shared/box.js";
import { FRONT_CARD } from "../shared/phone-model.js";
import type { SWIPE_DIRECTIONS } from "./args.js";

/**
 * Where gestures happen, in 0–1 fractions of the screen (x right, y down). System gestures start in the
 * edge zones phones reserve for them; their offsets are given in glass millimetres so they mean the same
 * on any screen size, and turned into fractions with the calibrated glass size.
 */

export interface ScreenPoint {
  x: number;
  y: number;
}

export type SwipeDirection = (typeof SWIPE_DIRECTIONS)[number];

export interface GlassSize {
  width: number;
  height: number;
}

/** Keep swipe ends this far (fraction) inside the screen: the stylus must not run off the glass. */
export const SCREEN_INSET = 0.01;

/** Home-indicator gestures start this far above the bottom glass edge (iOS's zone is ≈4 mm). */
const BOTTOM_EDGE_START_MM = 1.5;
/** Back swipes start this far from the left glass edge (iOS's zone is ≈3.5 mm). */
const LEFT_EDGE_START_MM = 1.2;
/** The home swipe's length: well past the ≈10 mm iOS needs, short enough to stay a flick. */
const HOME_SWIPE_MM = 30;
/** App switcher: up this far from the bottom edge, then hold (iOS needs ≈12 mm and a pause). */
const SWITCHER_DRAG_MM = 35;
/** A back swipe crosses this fraction of the width (iOS completes it past ≈35 %). */
const BACK_SWIPE_FRACTION = 0.6;
/** Throwing a card away: a fast stroke this long (far and fast enough for either rule). */
const CARD_FLICK_MM = 40;

export function bboxCentre(bbox: readonly number[] | FracBox): ScreenPoint {
  const [left = 0, top = 0, right = 0, bottom = 0] = bbox;
  return { x: (left + right) / 2, y: (top + bottom) / 2 };
}

export interface SwipePath {
  from: ScreenPoint;
  to: ScreenPoint;
  /** Length on the glass after keeping the end on the screen. */
  lengthMm: number;
  /** True when the screen edge cut the stroke short. */
  shortened: boolean;
}

/** A stroke of `lengthMm` from `from` in `direction`, ending at least SCREEN_INSET inside the screen. */
export function swipePath(
  from: ScreenPoint,
  direction: SwipeDirection,
  lengthMm: number,
  glass: GlassSize,
): SwipePath {
  const dx = direction === "left" ? -1 : direction === "right" ? 1 : 0;
  const dy = direction === "up" ? -1 : direction === "down" ? 1 : 0;
  const clamp = (v: number) => Math.min(1 - SCREEN_INSET, Math.max(SCREEN_INSET, v));
  const to = {
    x: clamp(from.x + (dx * lengthMm) / glass.width),
    y: clamp(from.y + (dy * lengthMm) / glass.height),
  };
  const actual = Math.hypot((to.x - from.x) * glass.width, (to.y - from.y) * glass.height);
  return { from, to, lengthMm: actual, shortened: actual < lengthMm - 0.05 };
}

/** Up from the home indicator: home from an app, the keypad from the lock screen. */
export function homeSwipe(glass: GlassSize): { from: ScreenPoint; to: ScreenPoint } {
  const from = { x: 0.5, y: 1 - BOTTOM_EDGE_START_MM / glass.height };
  return { from, to: { x: 0.5, y: from.y - HOME_SWIPE_MM / glass.height } };
}

/** Up from the home indicator a little way, to be held there: opens the app switcher. */
export function switcherDrag(glass: GlassSize): { from: ScreenPoint; to: ScreenPoint } {
  const from = { x: 0.5, y: 1 - BOTTOM_EDGE_START_MM / glass.height };
  return { from, to: { x: 0.5, y: from.y - SWITCHER_DRAG_MM / glass.height } };
}

/** Throw the front card up and off the screen. */
export function cardFlick(glass: GlassSize): { from: ScreenPoint; to: ScreenPoint } {
  return { from: FRONT_CARD, to: { x: FRONT_CARD.x, y: FRONT_CARD.y - CARD_FLICK_MM / glass.height } };
}

/** From the left edge to the right across most of the screen: "back" in iOS apps. */
export function backSwipe(glass: GlassSize): { from: ScreenPoint; to: ScreenPoint } {
  const from = { x: LEFT_EDGE_START_MM / glass.width, y: 0.5 };
  return { from, to: { x: from.x + BACK_SWIPE_FRACTION, y: 0.5 } };
}

/** `(0.512, 0.333)` */
export function fmtPoint(p: ScreenPoint): string {
  return `(${p.x.toFixed(3)}, ${p.y.toFixed(3)})`;
}
