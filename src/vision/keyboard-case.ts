import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";

/**
 * Whether a letter keyboard shows its caps in upper or lower case, measured in the pixels.
 *
 * OCR cannot tell: a lone cap is a hard crop, and for `c o s u v w x z` the two cases differ only in
 * size (and a lower-case `n` is easily read `N`), so a vote over the letters OCR read follows the
 * recogniser's habits, not the keyboard. The glyphs' heights settle it without knowing the font size:
 * in upper case every letter stands at cap height, while in lower case the x-height letters
 * (`a c e m n o r s u v w x z`) are ≈ 0.7 of the ascender letters (`b d f h k l`) — SF Pro's x-height
 * is 1096 and its ascenders ≈ 1520 of 2048 units (Apple, SF Pro font metrics, developer.apple.com/fonts),
 * and iOS shows lower-case caps whenever shift is off (since iOS 9; Settings › General › Keyboard ›
 * "Show Lowercase Keys", on by default).
 */

/** Letters without ascender or descender in lower case. */
const X_HEIGHT = new Set("acemnorsuvwxz");
/** Letters with an ascender in lower case (`t` left out: it is shorter than the others). */
const ASCENDER = new Set("bdfhkl");
/** Between ≈ 0.7 (lower case) and ≈ 1.0 (upper case). */
const SPLIT = 0.85;
/** Fewest measured keys in each group before the pixels are believed. */
const MIN_KEYS = 3;

/** A letter key: its lower-case letter and its cap's box (fractions of the screen). */
export interface LetterCap {
  letter: string;
  box: FracBox;
}

/**
 * The glyph's ink height on one cap in pixels, or null when the cap shows no clear glyph. The cap's
 * fill is its median luma; a pixel row is ink where its strongest difference from the fill is at least
 * half the cap's strongest (so camera blur and dark mode both work). Only the cap's middle is read:
 * x over its middle 60%, y from 8% to 88% (the cap's rounded corners and its bottom shadow line stay
 * out).
 */
function inkHeight(screen: RgbImage, box: FracBox): number | null {
  const { width: W, height: H, data } = screen;
  const bw = (box[2] - box[0]) * W;
  const x0 = Math.max(0, Math.round(box[0] * W + 0.2 * bw));
  const x1 = Math.min(W - 1, Math.round(box[2] * W - 0.2 * bw));
  const bh = (box[3] - box[1]) * H;
  const y0 = Math.max(0, Math.round(box[1] * H + 0.08 * bh));
  const y1 = Math.min(H - 1, Math.round(box[1] * H + 0.88 * bh));
  if (x1 - x0 < 3 || y1 - y0 < 6) return null;
  const values: number[] = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) values.push(luma(data, (y * W + x) * 3));
  const sorted = [...values].sort((a, b) => a - b);
  const fill = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const cols = x1 - x0 + 1;
  const rowPeak: number[] = [];
  for (let r = 0; r <= y1 - y0; r++) {
    let peak = 0;
    for (let c = 0; c < cols; c++) peak = Math.max(peak, Math.abs((values[r * cols + c] ?? fill) - fill));
    rowPeak.push(peak);
  }
  const strongest = Math.max(...rowPeak);
  if (strongest < 40) return null;
  const first = rowPeak.findIndex((p) => p >= strongest / 2);
  const last = rowPeak.length - 1 - [...rowPeak].reverse().findIndex((p) => p >= strongest / 2);
  return last - first + 1;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/**
 * `true` when the caps show upper case, `false` for lower case, `null` when the pixels do not say
 * (too few clear glyphs in either group): the caller then keeps what OCR read.
 */
export function capsUpperCase(screen: RgbImage, caps: readonly LetterCap[]): boolean | null {
  const xs: number[] = [];
  const asc: number[] = [];
  for (const cap of caps) {
    const group = X_HEIGHT.has(cap.letter) ? xs : ASCENDER.has(cap.letter) ? asc : null;
    if (!group) continue;
    const h = inkHeight(screen, cap.box);
    if (h !== null) group.push(h);
  }
  if (xs.length < MIN_KEYS || asc.length < MIN_KEYS) return null;
  const ratio = median(xs) / median(asc);
  return ratio > SPLIT;
}
