import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";

/**
 * Text cut by the edge of something drawn over it.
 *
 * iOS sets a line of text inside its container with padding around it: a cell's, a bar's, a sheet's
 * content never touches its edge (HIG "Layout": content sits within the layout margins, 8 pt or more,
 * and a table row is at least 44 pt for text of 17 pt). So a line's ink never straddles the boundary
 * between two backgrounds. What does is a line of the screen behind something opaque that covers part of
 * it — a sheet's top edge slid over a page (`UISheetPresentationController`, the share sheet), a bar's
 * edge over scrolled content — with the rest of the line hidden; the OCR reads its visible top half as
 * a fragment, never the line as it is.
 *
 * Found in the pixels beside the line: the edge of an overlay spans the screen's width, so on both sides
 * of the row (in the margins left and right of its box) two flat backgrounds meet in one horizontal edge
 * at the same height, inside the row's height; a background fill under the text alone (a tag, a
 * highlighted word, a button) ends at its own side, short of the screen's margins.
 */

/**
 * The edge lies at least this far (fraction of the row's height) below the box's top and above its bottom:
 * the box hugs the ink (±1 pt), so an edge that deep runs through the ink.
 */
const INSIDE_TOP = 0.2;
const INSIDE_BOTTOM = 0.12;
/** The two backgrounds differ by at least this many luma levels … */
const STEP = 12;
/** … and each is flat: its luma spreads at most this many levels down a sampled column. */
const FLAT = 6;
/** The edge is at the same height on both sides within this fraction of the screen's width (~2 pt). */
const SAME_Y = 0.006;
/**
 * Under the edge, a pixel is ink when it differs from the overlay's fill by more than this (JPEG ringing
 * beside a cut line reaches ~20 levels; text, even secondary grey, ≥ 60) …
 */
const INK = 40;
/** … and at most this share of the row's pixels there are. */
const MAX_INK = 0.01;
/**
 * Below the edge the overlay's fill is looked at down to at least this fraction of the row's height
 * past the edge's blur, even beyond the box: the box hugs the visible ink, which stops at the edge, so
 * on a camera frame (whose blur spreads the edge over ~4 rows) the box may end a row or two under it.
 */
const BELOW = 0.4;
/** A margin beside the row is sampled only when at least this wide (fraction of the width). */
const MIN_MARGIN = 0.015;
/** Columns sampled in each margin; the screen's outermost 1% (rounded corners) is left out. */
const COLUMNS = 5;
const OUTER = 0.01;

/** The text rows of `rows` whose line is cut by an overlay's edge (see the module comment). */
export function textCutByOverlay(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  for (const r of rows) {
    if (r.kind !== "text") continue;
    // A margin may hold the end of the line's own ink or a sheet's rounded corner: one side suffices
    // when the other shows nothing, and the two must agree when both show an edge.
    const left = edgeIn(screen, r.box, OUTER, r.box[0] - OUTER);
    const right = edgeIn(screen, r.box, r.box[2] + OUTER, 1 - OUTER);
    const edge = left ?? right;
    if (edge === undefined) continue;
    if (left && right && Math.abs(left.y - right.y) > SAME_Y * screen.width) continue;
    if (coveredBelow(screen, r.box, edge)) out.add(r);
  }
  return out;
}

/**
 * Whether, across the whole width of the row's box, everything below the `edge` is the overlay's fill:
 * the line's ink stops at the edge (the overlay hides the rest), where a line drawn on a background
 * that changes under it would carry on.
 */
function coveredBelow(screen: RgbImage, box: Candidate["box"], edge: Edge): boolean {
  const { width: W, height: H, data } = screen;
  const blur = Math.max(2, Math.round(0.004 * W));
  const y0 = edge.y + blur;
  const y1 = Math.max(Math.ceil(box[3] * H), y0 + Math.ceil(BELOW * (box[3] - box[1]) * H));
  if (y1 - y0 < 2) return false;
  let n = 0;
  let ink = 0;
  for (let x = Math.floor(box[0] * W); x < Math.ceil(box[2] * W); x += 2)
    for (let y = y0; y < y1; y++) {
      const i = (Math.min(H - 1, y) * W + Math.min(W - 1, x)) * 3;
      const v = 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
      n++;
      if (Math.abs(v - edge.below) > INK) ink++;
    }
  return ink <= MAX_INK * n;
}

/** An edge in a margin: its y (pixels) and the mean luma of the fill below it. */
interface Edge {
  y: number;
  below: number;
}

/**
 * The y (pixels) of a horizontal edge between two flat backgrounds crossing the margin `x0`…`x1` (screen
 * fractions) inside `box`'s height, or undefined when the margin is too narrow or not all of its sampled
 * columns show one at one height. Each column is tested on its own; the side's edge is their median.
 */
function edgeIn(screen: RgbImage, box: Candidate["box"], x0: number, x1: number): Edge | undefined {
  if (x1 - x0 < MIN_MARGIN) return undefined;
  const { width: W, height: H } = screen;
  const top = Math.floor(box[1] * H);
  const bottom = Math.ceil(box[3] * H);
  const h = bottom - top;
  if (h < 6) return undefined;
  const from = top + Math.ceil(INSIDE_TOP * h);
  const to = bottom - Math.floor(INSIDE_BOTTOM * h);
  const blur = Math.max(2, Math.round(0.004 * W));
  const edges: Edge[] = [];
  for (let i = 0; i < COLUMNS; i++) {
    const x = Math.min(W - 1, Math.round((x0 + ((i + 0.5) * (x1 - x0)) / COLUMNS) * W));
    const e = columnEdge(screen, x, top, bottom, from, to, blur);
    if (e) edges.push(e);
  }
  // An overlay's edge runs on to the screen's side: every column shows it, at one height (a card's or
  // widget's bottom edge, short of the side, leaves columns without one).
  if (edges.length < COLUMNS) return undefined;
  const ys = edges.map((e) => e.y).sort((a, b) => a - b);
  if ((ys[ys.length - 1] ?? 0) - (ys[0] ?? 0) > SAME_Y * W) return undefined;
  return edges.sort((a, b) => a.y - b.y)[Math.floor(edges.length / 2)];
}

/**
 * In column `x`, the y of the largest step (rows two apart) between `from` and `to`, when it is ≥ `STEP`
 * and the column is flat (≤ `FLAT`) from `top` to `blur` rows above it and from `blur` rows below it to
 * `bottom` (a camera's blur spreads an edge over a few rows).
 */
function columnEdge(
  screen: RgbImage,
  x: number,
  top: number,
  bottom: number,
  from: number,
  to: number,
  blur: number,
): Edge | undefined {
  const { width: W, height: H, data } = screen;
  const luma = (y: number): number => {
    const i = (Math.max(0, Math.min(H - 1, y)) * W + x) * 3;
    return 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  };
  let best = -1;
  let bestStep = 0;
  for (let y = from; y < to; y++) {
    const step = Math.abs(luma(y + 1) - luma(y - 1));
    if (step > bestStep) [best, bestStep] = [y, step];
  }
  if (best < 0 || bestStep < STEP) return undefined;
  const range = (y0: number, y1: number): [number, number] | undefined => {
    if (y1 - y0 < 2) return undefined;
    let lo = 255;
    let hi = 0;
    for (let y = y0; y < y1; y++) {
      const v = luma(y);
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    return hi - lo <= FLAT ? [lo, hi] : undefined;
  };
  const above = range(top, best - blur);
  const below = range(best + blur, Math.max(bottom, best + blur + Math.ceil(BELOW * (bottom - top))));
  if (!above || !below) return undefined;
  const fill = (below[0] + below[1]) / 2;
  return Math.abs((above[0] + above[1]) / 2 - fill) >= STEP ? { y: best, below: fill } : undefined;
}
