import { area, type FracBox, intersection } from "../shared/box.js";
import { luma as lumaAt, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY, contains } from "./row.js";

/**
 * An icon box the detector drew over a line of text and the symbol beside it, cut back to the symbol.
 * UIKit puts a row's accessory button a standard 8 pt after its trailing text (a favourite `star`, a
 * bell, an info symbol: HIG "Layout", UITableViewCell `accessoryView`); the UI detector often boxes the
 * pair as one icon whose centre lies on the words, so a tap on that row presses the text, and the
 * button has no row of its own (the words keep theirs). When the icon box holds a text line (its centre
 * inside, most of it covered) and, after the line, one compact blob of ink no taller than two text
 * heights, clear of the box's top and bottom, the icon row's box becomes that blob's.
 */

/** The line belongs to the icon box when this share of its area lies inside. */
const LINE_INSIDE = 0.5;
/** The box must reach at least this many text heights past the line for a symbol to fit there. */
const MIN_REACH = 0.6;
/** Ink past this share of the text height from the line's edge (anti-aliasing, a descender's tail). */
const PAD = 0.15;
/** A pixel is ink above this share of the strip's largest luma difference from its background, and at
 * least `MIN_INK` levels (JPEG noise and a camera's sensor noise stay below it). */
const INK_SHARE = 0.4;
const MIN_INK = 30;
/** The blob's height against the text's: an SF Symbol beside text is drawn at 0.8–1.4 of its size. */
const HEIGHT = [0.5, 2] as const;
/** Its aspect (width / height): a symbol is about square; a word is wider. */
const ASPECT = [0.5, 1.6] as const;

/** `rows` with each icon box that covers a text line and a symbol beside it cut back to the symbol. */
export function trimIconsBesideText(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const lines = rows.filter((r) => r.kind === "text" && [...r.label.replace(/\s/gu, "")].length >= 2);
  return rows.map((r) => {
    if (r.kind !== "icon") return r;
    const line = lines.find(
      (l) =>
        intersection(l.box, r.box) >= LINE_INSIDE * area(l.box) &&
        contains(r.box, centreX(l.box), centreY(l.box)),
    );
    if (!line) return r;
    const h = boxHeight(line.box) * screen.height;
    const side = (strip: FracBox): FracBox | null => {
      if ((strip[2] - strip[0]) * screen.width < MIN_REACH * h) return null;
      // Another text line there: the box covers two lines, not a line and a symbol.
      if (lines.some((l) => l !== line && contains(strip, centreX(l.box), centreY(l.box)))) return null;
      return inkBlob(screen, strip, h);
    };
    // Trailing side only: an accessory follows its text (a leading symbol is a row's decoration or a
    // section header's, which the passes before this one already list or drop).
    const blob = side([line.box[2] + (PAD * h) / screen.width, r.box[1], r.box[2], r.box[3]]);
    return blob ? { ...r, box: blob } : r;
  });
}

/** The bounding box of the ink in `strip` when it is one symbol-sized blob against text height `h` px. */
function inkBlob(screen: RgbImage, strip: FracBox, h: number): FracBox | null {
  const { width: W, height: H, data } = screen;
  const x0 = Math.max(0, Math.floor(strip[0] * W));
  const x1 = Math.min(W, Math.ceil(strip[2] * W));
  const y0 = Math.max(0, Math.floor(strip[1] * H));
  const y1 = Math.min(H, Math.ceil(strip[3] * H));
  if (x1 - x0 < 3 || y1 - y0 < 3) return null;
  const luma = (x: number, y: number): number => lumaAt(data, (y * W + x) * 3);
  // Background: the median of the strip's border pixels (the cell's fill around the symbol).
  const border: number[] = [];
  for (let x = x0; x < x1; x++) border.push(luma(x, y0), luma(x, y1 - 1));
  for (let y = y0; y < y1; y++) border.push(luma(x0, y), luma(x1 - 1, y));
  border.sort((a, b) => a - b);
  const bg = border[Math.floor(border.length / 2)] ?? 0;
  let peak = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) peak = Math.max(peak, Math.abs(luma(x, y) - bg));
  const t = Math.max(MIN_INK, INK_SHARE * peak);
  let l = x1;
  let r = -1;
  let top = y1;
  let bottom = -1;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (Math.abs(luma(x, y) - bg) > t) {
        l = Math.min(l, x);
        r = Math.max(r, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
  // Ink from the box's top to its bottom is the box's own shape (a route badge holding its name, its fill
  // running to the detector's edge), not a symbol drawn inside it with a margin.
  if (r < 0 || (top <= y0 + 1 && bottom >= y1 - 2)) return null;
  // Ink from the strip's start runs on from under the text (a card or a badge holding the words, its fill
  // reaching past them): an accessory stands its 8 pt clear of the text (dev rc-300hero-profile-dark, a
  // score card's light fill right of `2368` was boxed as a symbol).
  if (l <= x0 + 1) return null;
  const bw = r - l + 1;
  const bh = bottom - top + 1;
  if (bh < HEIGHT[0] * h || bh > HEIGHT[1] * h || bw < ASPECT[0] * bh || bw > ASPECT[1] * bh) return null;
  return [l / W, top / H, (r + 1) / W, (bottom + 1) / H];
}
