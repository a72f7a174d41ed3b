import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { FILL_TOL, scanCardTops, screenLuma } from "./card-top.js";

/**
 * A page or form sheet presented over the screen, and the card it is drawn in.
 *
 * UIKit's sheets (iOS 13+ `UIModalPresentationStyle.pageSheet` / `.formSheet`, which compact-width
 * iPhones show as a page sheet; iOS 15+ `UISheetPresentationController` with `.medium()` / `.large()`
 * detents; share sheets, `UIActivityViewController`) are a full-width card rising from the bottom of
 * the screen, its top corners rounded (10 pt on iOS 13–14, the display's corner radius, ~38–55 pt, on
 * later systems; square bottom), its top a few points of plain background (the grabber, 36×5 pt, sits
 * 5 pt down). The page behind it is dimmed by a black dimming view (a large detent shrinks it to a
 * darker card behind the status bar), and it is inert until the sheet is dismissed: a tap on it only
 * dismisses the sheet (HIG "Sheets", "Modality").
 *
 * Found as a row where, over the middle of the screen, a plain fill begins (the sheet's top) under
 * something else, whose fill reaches the screen's sides a little below it but not at the top edge
 * itself (its rounded corners keep the colour above for the first few points at each side), with the
 * page above it dimmed — no near-white left on it. A navigation bar's hairline and a keyboard's top
 * run straight to both sides (no corners); a grouped table's section card is inset 16–20 pt from the
 * sides (HIG "Layout"); a custom rounded panel in an app's page has its page above it at full
 * brightness.
 */

/** Screen width in points used to turn points into pixels: iPhones are 320–440 pt wide. */
const WIDTH_PT = 390;
/**
 * The sheet's top lies between these fractions of the height: under the status bar, and no lower than
 * a medium detent's (UIKit: "approximately half the height of the screen") — a keyboard's top (iOS 26
 * rounds its corners too) is lower, 0.6 of the height or more.
 */
const TOP_MIN = 0.06;
const TOP_MAX = 0.56;
/** The middle of the screen, clear of the rounded corners (≤ 55 pt of 320 pt: 0.17), sampled for fill. */
const MID_L = 0.18;
const MID_R = 0.82;
/**
 * The row above the top differs from the fill by this many levels (in 60% of the middle columns: the
 * page's text cut by the sheet may match it; `card-top.ts`).
 */
const STEP = 12;
/** Depths (points) below the top where the sheet's side is measured, past any corner radius (≤ 55 pt). */
const SIDE_DEPTHS_PT = [12, 30, 60];
/** The sheet's sides are within this fraction of the width of the screen's (a grouped card is ≥ 0.036 in). */
const SIDE_MAX = 0.03;
/** At this depth (points) under the top, a rounded corner (≥ 10 pt radius) keeps the sides … */
const CORNER_DEPTH_PT = 1.5;
/** … at least this many points in from the sheet's side (10 pt radius: 4.7 pt) and at most this many. */
const CORNER_MIN_PT = 3;
const CORNER_MAX_PT = 60;
/**
 * The dimmed page: its luma (all but `DIM_BRIGHT` of it) is at most the sheet's fill less this many levels
 * (light: the dimming view's black over a white page leaves ≤ ~200), or `DIM_DARK` for a dark sheet
 * (white text on black dimmed to ≤ ~150 under a dark sheet's ~30 fill).
 */
const DIM_BELOW_FILL = 25;
const DIM_DARK = 160;
/** Pixels sampled from the page above to judge its dimming … */
const DIM_SAMPLES = 4000;
/** … of which at most this fraction may be brighter than the limit (a JPEG's ringing, a frame's edge). */
const DIM_BRIGHT = 0.01;
/**
 * The status bar ends by this fraction of the height. It is drawn over every modal (not dimmed by a
 * sheet's dimming view) and stays live; `spurious.ts` uses the same line for alerts and inset cards.
 */
export const STATUS_END = 0.065;

/**
 * The sheet's card (screen fractions: full width, from its top to the bottom of the screen), or
 * undefined when no sheet is up over a dimmed page (see the module comment).
 */
export function findSheet(screen: RgbImage): FracBox | undefined {
  const { width: W, height: H } = screen;
  const luma = screenLuma(screen);
  const pt = W / WIDTH_PT;
  const scan = { pt, midL: MID_L, midR: MID_R, topMin: TOP_MIN, topMax: TOP_MAX, step: STEP };
  let found: number | undefined;
  scanCardTops(screen, luma, { ...scan, depthPt: Math.max(...SIDE_DEPTHS_PT) }, (y, fill) => {
    const isFill = (x: number, yy: number): boolean => Math.abs(luma(x, yy) - fill) <= FILL_TOL;
    // Sheets stack (a sheet presented from a sheet pushes the first back, up and dimmed): the front
    // one, the only one taking touches, is the lowest.
    if (roundedTop(W, pt, y, isFill) && dimmedAbove(luma, W, H, pt, y, fill)) found = y;
    return true;
  });
  return found === undefined ? undefined : [0, found / H, 1, 1];
}

/**
 * Whether the fill starting at row `y` reaches both sides of the screen (within `SIDE_MAX`) below its
 * corners but not at its top: a card with rounded top corners spanning the screen.
 */
function roundedTop(W: number, pt: number, y: number, isFill: (x: number, y: number) => boolean): boolean {
  const run = Math.max(2, Math.round(2 * pt)); // a side is where ≥ 2 pt of fill in a row begin
  const limit = Math.round(0.25 * W);
  // Columns from the side inwards (`dir` 1: from the left) to where the fill begins in row `yy`.
  const side = (yy: number, dir: 1 | -1): number => {
    let on = 0;
    for (let i = 0; i < limit; i++) {
      const x = dir === 1 ? i : W - 1 - i;
      on = isFill(x, yy) ? on + 1 : 0;
      if (on >= run) return i - run + 1;
    }
    return limit;
  };
  const top = y + Math.max(1, Math.round(CORNER_DEPTH_PT * pt));
  return ([1, -1] as const).every((dir) => {
    const edge = Math.min(...SIDE_DEPTHS_PT.map((d) => side(y + Math.round(d * pt), dir)));
    if (edge > SIDE_MAX * W) return false;
    const inset = side(top, dir) - edge;
    return inset >= CORNER_MIN_PT * pt && inset <= CORNER_MAX_PT * pt;
  });
}

/** Whether the page above row `y` (below the status bar) is dimmed relative to a sheet of `fill`. */
function dimmedAbove(
  luma: (x: number, y: number) => number,
  W: number,
  H: number,
  pt: number,
  y: number,
  fill: number,
): boolean {
  const y0 = Math.round(STATUS_END * H);
  const y1 = y - Math.round(2 * pt);
  if (y1 <= y0) return true; // a large detent: only the presenting card's sliver is left above
  // About `DIM_SAMPLES` pixels on a grid, counted in a histogram.
  const step = Math.max(1, Math.round(Math.sqrt(((y1 - y0) * 0.9 * W) / DIM_SAMPLES)));
  const counts = new Uint32Array(256);
  let n = 0;
  for (let yy = y0; yy < y1; yy += step)
    for (let x = Math.round(0.05 * W); x < 0.95 * W; x += step) {
      counts[luma(x, yy)] = (counts[luma(x, yy)] ?? 0) + 1;
      n++;
    }
  const limit = Math.max(fill - DIM_BELOW_FILL, DIM_DARK);
  let over = 0;
  for (let v = limit + 1; v < 256; v++) over += counts[v] ?? 0;
  return over <= DIM_BRIGHT * n;
}

/**
 * Whether a row (its centre) lies on the page behind a sheet whose card is `sheet` (`findSheet`):
 * above the sheet's top and below the status bar — the status bar is drawn over the dimming view and
 * stays live (its "back to app" breadcrumb still switches apps).
 */
export function behindSheet(box: FracBox, sheet: FracBox): boolean {
  const cy = (box[1] + box[3]) / 2;
  return cy < sheet[1] && cy > STATUS_END;
}
