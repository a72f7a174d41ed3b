import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * A bar of ink, not a glyph: an icon row a few points wide whose ink runs unbroken from its top to its
 * bottom.
 *
 * An icon-only control draws a symbol (SF Symbols, HIG "Icons"), and even the narrowest symbols a button
 * shows are wider than 4 pt at a bar's 17 pt or are broken into parts along their height: `⋮`
 * (`ellipsis` rotated) is three dots with gaps between them, `!` and `i` a stroke and a dot. What a
 * screen draws as a solid vertical bar that thin is never a control: the sliver of a picture or a row
 * peeking out from behind a card or a floating button at its edge, a text field's caret (2 pt; the field
 * is the target), a scroll indicator (UIKit's is 3 pt wide), a separator between bar items. Such a row
 * points at no target.
 */

/** An icon row narrower than this fraction of the width (4 pt of a 390 pt screen) … */
const SLIVER_WIDTH = 4 / 390;
/** … and at least this many times taller than wide (in pixels) … */
const SLIVER_ASPECT = 3;
/**
 * … whose ink covers at least this fraction of its pixel rows is a bar (see the module comment). A row
 * holds ink when its strongest contrast with the background beside the box is at least half the box's
 * strongest; `⋮`'s dots and gaps are about equal, so it covers ~50–60%.
 */
const SOLID = 0.9;
const INK_SHARE = 0.5;

/** The icon rows of `rows` that are solid bars a few points wide (see the module comment). */
export function inkSlivers(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const aspect = screen.height / Math.max(1, screen.width);
  for (const r of rows) {
    if (r.kind !== "icon" || boxWidth(r.box) >= SLIVER_WIDTH) continue;
    if (boxHeight(r.box) * aspect < SLIVER_ASPECT * boxWidth(r.box)) continue;
    if (solidBar(screen, r.box)) out.add(r);
  }
  return out;
}

/** Whether the ink in `box` (screen fractions) covers `SOLID` of its pixel rows. */
function solidBar(screen: RgbImage, box: Candidate["box"]): boolean {
  const { width: W, height: H, data } = screen;
  const luma = (x: number, y: number): number => {
    const i = (y * W + x) * 3;
    return 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  };
  const l = Math.max(0, Math.floor(box[0] * W));
  const r = Math.min(W - 1, Math.ceil(box[2] * W));
  const t = Math.max(0, Math.floor(box[1] * H));
  const b = Math.min(H - 1, Math.ceil(box[3] * H));
  if (b - t < 3 || r < l) return false;
  // The background: the median of the pixels a little outside the box's sides, beside the bar.
  const side = Math.max(2, Math.round(W / 200));
  const beside: number[] = [];
  for (let y = t; y <= b; y++)
    beside.push(luma(Math.max(0, l - side), y), luma(Math.min(W - 1, r + side), y));
  beside.sort((p, q) => p - q);
  const bg = beside[Math.floor(beside.length / 2)] ?? 0;
  const contrast: number[] = [];
  for (let y = t; y <= b; y++) {
    let c = 0;
    for (let x = l; x <= r; x++) c = Math.max(c, Math.abs(luma(x, y) - bg));
    contrast.push(c);
  }
  const peak = Math.max(...contrast);
  if (peak <= 0) return false;
  return contrast.filter((c) => c >= INK_SHARE * peak).length >= SOLID * contrast.length;
}
