import { summedArea, windowMean } from "../shared/window-mean.js";
import { type MaskComponent, maskComponents } from "./mask-components.js";

/**
 * Connected ink blobs for the glyph proposer (`glyphs.ts`), and the re-reading of a bold symbol's ink
 * that its own local mean merged with the fill around it.
 */

/** A blob's box (end-exclusive) and pixel count. */
export type Blob = MaskComponent;

/** 8-connected components of `ink`: a label per pixel (0 = none) and each label's box (index label-1). */
export function components(ink: Uint8Array, w: number, h: number): { labels: Int32Array; blobs: Blob[] } {
  const labels = new Int32Array(w * h);
  return { labels, blobs: maskComponents(ink, w, h, true, labels) };
}

/**
 * A blob up to this many times the largest symbol is re-read when it is over the cap (`maxPx`): a bold
 * symbol's merged surround reaches one window radius (10 pt) beyond its ink on each side, so a 30 pt
 * ⏸ merges to ~50 pt; a photo's or a card's blob is larger.
 */
const BOLD_OVER = 2;
/** The window must keep this share of its pixels as background for its background mean to count. */
const MIN_BACKGROUND = 0.15;
/**
 * Re-read, a pixel is ink when it differs from the background's mean by this share of the ink
 * threshold: the background mean is no longer pulled towards the symbol, so the symbol's anti-aliased
 * rim (a fraction of its contrast) is ink too, and not left as a ragged ring in its margin; a flat
 * fill's noise (σ ≈ 2–3 levels in a JPEG) stays well below it.
 */
const REREAD_SHARE = 0.35;

/**
 * The ink of over-sized blobs re-read against the mean of the *background* round each pixel (the
 * window's pixels that are not ink), or undefined when no blob is a candidate.
 *
 * Why: the ink mask compares a pixel with the mean of the ~20 pt window round it. A bold, filled SF
 * Symbol drawn in high contrast (the white ⏸ and ⏭ of the lock screen's and Control Center's Now
 * Playing controls on a dark material, HIG "Materials"; `play.fill` in a media bar) covers so much of
 * that window that the mean moves halfway to the symbol, and the dark fill round it then differs from
 * that mean by more than the ink threshold: symbol and surround form one blob, over the symbol size
 * cap, and the button is lost. Against the mean of the window's non-ink pixels the surround is
 * background again and the symbol's own strokes stay ink. Only blobs just over the cap are re-read
 * (`BOLD_OVER`), so text lines, photos and cards keep their ink as it was.
 *
 * Returns the new labels and blobs, and `origin`: for each new blob, the 1-based label of the blob it
 * was re-read from (0 for a blob not re-read) — the pieces of one merged blob (the two bars of ⏸) are
 * one symbol.
 */
export function resplitBold(
  px: Float32Array,
  w: number,
  h: number,
  ink: Uint8Array,
  found: { labels: Int32Array; blobs: readonly Blob[] },
  r: number,
  t: number,
  maxPx: number,
): { labels: Int32Array; blobs: Blob[]; origin: Int32Array } | undefined {
  const { labels, blobs } = found;
  const picked = new Uint8Array(blobs.length + 1);
  let any = false;
  blobs.forEach((b, i) => {
    const long = Math.max(b.x1 - b.x0, b.y1 - b.y0);
    if (long > maxPx && long <= BOLD_OVER * maxPx) {
      picked[i + 1] = 1;
      any = true;
    }
  });
  if (!any) return undefined;
  // Typed and transient (a 585 px screen: ~3 MB each, the two tables ~6 MB each): peak RSS.
  const bg = new Float32Array(w * h);
  const open = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++)
    if (!ink[i]) {
      bg[i] = px[i] as number;
      open[i] = 1;
    }
  const sums = summedArea(bg, w, h);
  const counts = summedArea(open, w, h);
  const out = ink.slice();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!picked[labels[i] as number]) continue;
      const share = windowMean(counts, w, h, x, y, r);
      if (share < MIN_BACKGROUND) continue;
      const mean = windowMean(sums, w, h, x, y, r) / share;
      out[i] = Math.abs((px[i] as number) - mean) > REREAD_SHARE * t ? 1 : 0;
    }
  const next = components(out, w, h);
  const origin = new Int32Array(next.blobs.length);
  for (let i = 0; i < w * h; i++) {
    const l = next.labels[i] as number;
    const old = labels[i] as number;
    if (l && picked[old]) origin[l - 1] = old;
  }
  return { ...next, origin };
}
