import { windowMean } from "../shared/window-mean.js";
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
 * `clusters` (optional, per 1-based label): blobs to re-read as well, each mapped to one label of its
 * cluster (`overCapClusters`: a thick symbol whose surround broke into separate pieces of halo).
 *
 * Returns the new labels and blobs, and `origin`: for each new blob, the 1-based label of the blob (or
 * cluster) it was re-read from (0 for a blob not re-read) — the pieces of one merged blob (the two bars
 * of ⏸) are one symbol.
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
  clusters?: Int32Array,
): { labels: Int32Array; blobs: Blob[]; origin: Int32Array } | undefined {
  const { labels, blobs } = found;
  // Per label, the label its re-read pieces count as one symbol with (0: not re-read).
  const picked = clusters ? clusters.slice() : new Int32Array(blobs.length + 1);
  let any = picked.some((v) => v !== 0);
  blobs.forEach((b, i) => {
    const long = Math.max(b.x1 - b.x0, b.y1 - b.y0);
    if (long > maxPx && long <= BOLD_OVER * maxPx) {
      picked[i + 1] = i + 1;
      any = true;
    }
  });
  if (!any) return undefined;
  // Only the picked blobs' pixels are re-read: walk the union of their boxes (raster order within it,
  // as over the whole screen), and build the two tables only as far as their windows reach. A table's
  // entry sums the pixels above and left of it, so its prefix is the same numbers, summed in the same
  // order, as the full table's (float sums bit for bit): the speed-up changes no ink.
  let ux0 = w;
  let uy0 = h;
  let ux1 = 0;
  let uy1 = 0;
  blobs.forEach((b, i) => {
    if (!picked[i + 1]) return;
    ux0 = Math.min(ux0, b.x0);
    uy0 = Math.min(uy0, b.y0);
    ux1 = Math.max(ux1, b.x1);
    uy1 = Math.max(uy1, b.y1);
  });
  if (ux0 >= ux1 || uy0 >= uy1) return undefined;
  const { sums, counts } = backgroundTables(px, ink, w, Math.min(w, ux1 + r), Math.min(h, uy1 + r));
  const out = ink.slice();
  for (let y = uy0; y < uy1; y++)
    for (let x = ux0; x < ux1; x++) {
      const i = y * w + x;
      if (!picked[labels[i] as number]) continue;
      const share = windowMean(counts, w, h, x, y, r);
      if (share < MIN_BACKGROUND) continue;
      const mean = windowMean(sums, w, h, x, y, r) / share;
      out[i] = Math.abs((px[i] as number) - mean) > REREAD_SHARE * t ? 1 : 0;
    }
  const next = components(out, w, h);
  const origin = new Int32Array(next.blobs.length);
  for (let y = uy0; y < uy1; y++)
    for (let x = ux0; x < ux1; x++) {
      const i = y * w + x;
      const l = next.labels[i] as number;
      const old = labels[i] as number;
      if (l && picked[old]) origin[l - 1] = picked[old] as number;
    }
  return { ...next, origin };
}

/**
 * Summed-area tables (`summedArea`'s layout, row stride `w + 1`) of the non-ink pixels' values and of
 * their count, filled only for the first `yEnd` rows and `xEnd` columns: every entry there is the
 * number the full table holds, computed in the same order (a row's running sum plus the entry above).
 * Typed and transient (peak RSS): `yEnd + 1` rows, not the screen's.
 */
function backgroundTables(
  px: Float32Array,
  ink: Uint8Array,
  w: number,
  xEnd: number,
  yEnd: number,
): { sums: Float64Array; counts: Float64Array } {
  const W1 = w + 1;
  const sums = new Float64Array(W1 * (yEnd + 1));
  const counts = new Float64Array(W1 * (yEnd + 1));
  for (let y = 0; y < yEnd; y++) {
    let row = 0;
    let n = 0;
    const above = y * W1 + 1;
    const at = above + W1;
    for (let x = 0, i = y * w; x < xEnd; x++, i++) {
      if (!ink[i]) {
        row += px[i] as number;
        n += 1;
      }
      sums[at + x] = (sums[above + x] as number) + row;
      counts[at + x] = (counts[above + x] as number) + n;
    }
  }
  return { sums, counts };
}

/** A cluster of at most this many blobs is one symbol and its halo (≡ with its gaps: ~6). */
const CLUSTER_MAX = 8;

/**
 * Blobs that together make a symbol over the size cap: `candidates` (1-based labels of blobs not on a
 * row, each under the cap) joined when within `gap` of each other, where the cluster's box is over
 * `maxPx` but within `BOLD_OVER` of it and it has ≤ `CLUSTER_MAX` blobs. Returns, per label, the
 * cluster's first label (0 for blobs in no such cluster), or undefined when there is none.
 *
 * Why: a thick black symbol on white (a web page's hamburger, three 4–5 pt bars) drags the local mean
 * so far that the white round and between its strokes is ink too; through a camera's blur that halo
 * breaks into separate slivers above, between and below the bars, each under the cap but together a
 * ~40 pt group, so the symbol was dropped as too big — the merged-surround case `resplitBold` re-reads,
 * only split into pieces.
 */
export function overCapClusters(
  blobs: readonly Blob[],
  candidates: readonly number[],
  gap: number,
  maxPx: number,
): Int32Array | undefined {
  const order = [...candidates].sort((a, b) => (blobs[a - 1]?.x0 ?? 0) - (blobs[b - 1]?.x0 ?? 0));
  const parent = new Map<number, number>(order.map((l) => [l, l]));
  const find = (l: number): number => {
    let r = l;
    while (parent.get(r) !== r) r = parent.get(r) as number;
    parent.set(l, r);
    return r;
  };
  for (let i = 0; i < order.length; i++) {
    const a = blobs[(order[i] as number) - 1] as Blob;
    for (let j = i + 1; j < order.length; j++) {
      const b = blobs[(order[j] as number) - 1] as Blob;
      if (b.x0 - gap >= a.x1) break;
      if (a.y0 - gap < b.y1 && b.y0 - gap < a.y1)
        parent.set(find(order[i] as number), find(order[j] as number));
    }
  }
  const groups = new Map<number, { n: number; x0: number; y0: number; x1: number; y1: number }>();
  for (const l of order) {
    const b = blobs[l - 1] as Blob;
    const root = find(l);
    const g = groups.get(root);
    if (!g) groups.set(root, { n: 1, x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 });
    else
      groups.set(root, {
        n: g.n + 1,
        x0: Math.min(g.x0, b.x0),
        y0: Math.min(g.y0, b.y0),
        x1: Math.max(g.x1, b.x1),
        y1: Math.max(g.y1, b.y1),
      });
  }
  const out = new Int32Array(blobs.length + 1);
  let any = false;
  for (const l of order) {
    const root = find(l);
    const g = groups.get(root);
    if (!g || g.n < 2 || g.n > CLUSTER_MAX) continue;
    const long = Math.max(g.x1 - g.x0, g.y1 - g.y0);
    if (long <= maxPx || long > BOLD_OVER * maxPx) continue;
    out[l] = root;
    any = true;
  }
  return any ? out : undefined;
}
