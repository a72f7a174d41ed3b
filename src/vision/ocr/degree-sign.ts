import type { PixelBox } from "./detect.js";
import { type InkImage, inkBounds, inkMask } from "./ink.js";

/**
 * The degree sign in temperatures (`18°`, `57.0°`, `H: 88°`), from the ink. SF Pro draws `°` as a small
 * round ring standing on the cap height right after the digits, about a third of the digit height tall
 * and as wide as it is tall, with a hole; weather apps and widgets (UIKit's Weather, WidgetKit's
 * `Text(measurement)`, `MeasurementFormatter`'s `.temperatureWithoutUnit`) print it straight after the
 * number. PP-OCRv4 drops that ring now and then, mostly on big thin digits (`57.0°` → `57.0`) and short
 * lines (`17°` → `17`); this puts it back when the pixels show one.
 */

/** The ring's top is within this share of the line's ink height from the line's top (cap height). */
const TOP_SLACK = 0.15;
/** The ring ends in the upper part of the line: its bottom above this share of the line height. */
const MAX_BOTTOM = 0.55;
/** A ring is at least this share of the line height tall (smaller is a dot or noise)… */
const MIN_HEIGHT = 0.15;
/** …and at most this share (taller is a glyph: `0`, `o`). */
const MAX_HEIGHT = 0.5;
/** Width over height of a ring: round (an apostrophe or a quote is narrow, a bar flat). */
const MIN_ASPECT = 0.6;
const MAX_ASPECT = 1.7;
/** From this many pixels tall and wide, the ring's centre must be background (a hole; `*` has none). */
const HOLLOW_FROM = 5;

/** How far past a region's right edge a dropped ring is looked for, in region heights: DB's box often
 * stops at the last digit, the ring's thin stroke scoring low (like a lone minus, `withLeadingDash`). */
const REACH = 0.6;

/** The right edge to look for a degree ring up to: the region's, plus `REACH` of its height. */
export function ringReach(box: PixelBox, width: number): number {
  return Math.min(width, box.x1 + Math.round(REACH * (box.y1 - box.y0)));
}

/**
 * Whether the line's last mark is a degree ring: the rightmost run of ink columns, set apart from the
 * rest of the line by a background column, is a small round mark at cap height with a hole. Only for a
 * line whose read text ends in a digit (the caller checks): a ring after a digit is a degree sign.
 */
export function endsWithDegreeRing(image: InkImage, box: PixelBox): boolean {
  const m = inkMask(image, box);
  const b = m && inkBounds(m);
  if (!m || !b) return false;
  const height = b.y1 - b.y0 + 1;
  const hasInk = (x: number) => {
    for (let y = b.y0; y <= b.y1; y++) if (m.ink[y * m.w + x]) return true;
    return false;
  };
  let left = b.x1;
  while (left > b.x0 && hasInk(left - 1)) left--;
  // The mark must stand apart from ink before it (a gap column), with ink before the gap (the digits).
  if (left <= b.x0) return false;
  let top = m.h;
  let bottom = -1;
  for (let y = b.y0; y <= b.y1; y++)
    for (let x = left; x <= b.x1; x++)
      if (m.ink[y * m.w + x]) {
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
  const markH = bottom - top + 1;
  const markW = b.x1 - left + 1;
  if (top - b.y0 > TOP_SLACK * height || bottom - b.y0 + 1 > MAX_BOTTOM * height) return false;
  if (markH < MIN_HEIGHT * height || markH > MAX_HEIGHT * height) return false;
  if (markW < MIN_ASPECT * markH || markW > MAX_ASPECT * markH) return false;
  if (markW >= HOLLOW_FROM && markH >= HOLLOW_FROM) {
    const cx = Math.round((left + b.x1) / 2);
    const cy = Math.round((top + bottom) / 2);
    if (m.ink[cy * m.w + cx]) return false;
  }
  return true;
}

/**
 * `°℃` and `°℉` → `°C`, `°F`: the recogniser reads the ring, then the `C` as the one-glyph `℃` (its
 * dictionary has `℃`), so the ring comes out twice. A screen never draws `°` before `℃`.
 */
export function singleDegreeRing(text: string): string {
  return text.replace(/°\s?℃/gu, "°C").replace(/°\s?℉/gu, "°F");
}
