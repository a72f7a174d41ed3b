import { lumaByte, type RgbImage } from "../shared/image.js";
import { median } from "../shared/median.js";

/**
 * The top edge of a card drawn over a page: a row where, over the middle of the screen, a plain fill
 * begins (the card's top margin, a few points of its background above any grabber or bar) under
 * something else. Page sheets (`sheet.ts`) and inset cards (`inset-card.ts`) are both found from such a
 * row and then told apart by their sides and by what lies beside and above them.
 */

/** Luma of the pixel (x, y), BT.601 weights in integers. */
export type Luma = (x: number, y: number) => number;

/** Luma of `screen`'s pixels, read in place. */
export function screenLuma(screen: RgbImage): Luma {
  const { width: W, data } = screen;
  return (x, y) => lumaByte(data, (y * W + x) * 3);
}

/** Luma levels within which a pixel is the card's fill (a camera frame's noise spreads it a few). */
export const FILL_TOL = 8;
/** The quick first pass looks at every this-many-th middle column. */
const PROBE_STRIDE = 12;
/** Fraction of the middle columns that are fill under the top (a grabber or a title may cover some). */
const FILL_COVER = 0.85;
/** Of the middle columns, this fraction differ from the fill by `step` levels one point above the top. */
const STEP_COVER = 0.6;
/** Rows under the top (points) that must be fill: the card's top margin. */
const FILL_ROWS_PT = [1.5, 2.5, 3.5];

/** Where a kind of card's top is looked for, and how sharp its edge must be. */
export interface CardTopScan {
  /** Points per pixel's inverse: the screen's width over its width in points. */
  pt: number;
  /** The middle of the screen sampled for the fill, clear of the card's rounded corners (fractions). */
  midL: number;
  midR: number;
  /** The top lies between these fractions of the height. */
  topMin: number;
  topMax: number;
  /** Luma levels between the fill and the row one point above the top. */
  step: number;
  /** Points under the top the caller will look at: rows closer than this to the bottom are not scanned. */
  depthPt: number;
}

/**
 * Calls `visit(y, fill)` for each row `y`, top to bottom, where a card's top may begin (`fill`: the
 * median luma of the middle columns 2.5 pt under it); the scan ends when `visit` returns false.
 */
export function scanCardTops(
  screen: RgbImage,
  luma: Luma,
  s: CardTopScan,
  visit: (y: number, fill: number) => boolean,
): void {
  const { width: W, height: H } = screen;
  const { pt } = s;
  const cols: number[] = [];
  for (let x = Math.round(s.midL * W); x <= Math.round(s.midR * W); x += Math.max(1, Math.round(pt)))
    cols.push(x);
  // A first pass on every `PROBE_STRIDE`-th middle column skips most rows cheaply; the full test follows.
  const probe = cols.filter((_, i) => i % PROBE_STRIDE === 0);
  const fillRows = FILL_ROWS_PT.map((p) => Math.max(1, Math.round(p * pt)));
  const above = Math.max(1, Math.round(pt));
  const deepest = Math.round(s.depthPt * pt);
  const passes = (xs: readonly number[], y: number, fill: number): boolean => {
    const isFill = (x: number, yy: number): boolean => Math.abs(luma(x, yy) - fill) <= FILL_TOL;
    if (xs.filter((x) => fillRows.every((d) => isFill(x, y + d))).length < FILL_COVER * xs.length)
      return false;
    return xs.filter((x) => Math.abs(luma(x, y - above) - fill) >= s.step).length >= STEP_COVER * xs.length;
  };
  for (let y = Math.round(s.topMin * H); y < Math.round(s.topMax * H) && y + deepest < H; y++) {
    const fillY = y + (fillRows[1] ?? 1);
    if (!passes(probe, y, median(probe.map((x) => luma(x, fillY))))) continue;
    const fill = median(cols.map((x) => luma(x, fillY)));
    if (!passes(cols, y, fill)) continue;
    if (!visit(y, fill)) return;
  }
}
