import type { RgbImage } from "../shared/image.js";
import { summedArea, windowMean } from "../shared/window-mean.js";
import { proposeDiscButtons } from "./disc-buttons.js";
import { type Blob, components, overCapClusters, resplitBold } from "./ink-blobs.js";
import { isMenuBars } from "./menu-bars.js";
import { findPageDots } from "./page-dots.js";
import type { Candidate } from "./row.js";
import { isWideIcon } from "./wide-icons.js";

/**
 * A classical proposer for icon-only buttons the UI detector misses: compact, isolated glyph-like ink
 * blobs on a flat background. iOS draws its toolbar, navigation-bar and row-end controls as SF Symbols
 * — thin strokes ~17–28 pt tall inside a hit area of at least 44 × 44 pt (Apple HIG, "Buttons"), set
 * on a plain bar or row colour. So: find ink as local contrast (each pixel's luma against the mean of
 * the ~20 pt around it), label its connected components, group the parts of one symbol (the dot and
 * stem of ⓘ, the three dots of ⋯, the bars of ≡), and keep a group that is symbol-sized (10–36 pt),
 * not clipped by the screen edge, and alone: within a 6 pt margin around it no other ink (a photo's
 * texture or a word's next letter is never alone), a flat margin (a bar, not a picture or a map) and
 * clear contrast with it. A blob whose centre lies on a row (OCR text, a detected icon, a key, a
 * switch, the status bar) is that row's ink and never joins a group; a group on a row, or leading a
 * text line (`⚙ General`: the text's row is the target), is not proposed.
 *
 * Sizes are in points, taken as screen width / 390 (iPhones are 320–430 pt wide; a glyph's size in
 * points varies less than that between models).
 *
 * A camera frame is not a screenshot: its lens and the rectifying resample blur a symbol's edges into
 * a halo of in-between greys around its ink (below the ink threshold, so outside the symbol's box),
 * which would read as a textured margin. So the image's blur is measured (`edgeWidth`: how wide its
 * sharpest transitions are), and flatness is measured where the margin is flattest among leaving out
 * a band as wide as the blur's spread (up to `haloPt`) next to the box, when that band is measurably a halo — shifted
 * from the margin beyond it towards the symbol's ink by more than that margin's spread. A blur halo is
 * confined to the band and fades out of it; a photo's or a map's texture fills the whole margin and
 * is not shifted towards the symbol. On a sharp screenshot the band is as flat as the rest.
 */

export interface GlyphOptions {
  /** Working resolution in pixels per point (the screen is downsampled to this first). */
  pxPerPt: number;
  /** Half-size of the local-mean window, in points. */
  windowPt: number;
  /** A pixel is ink when its luma differs from its local mean by more than this (0–255). */
  inkContrast: number;
  /** Parts of one symbol lie within this gap of each other, in points. */
  joinPt: number;
  /** A symbol's longer side, in points. */
  minPt: number;
  maxPt: number;
  /** The clear margin around a symbol, in points, and the share of it that may be ink. */
  marginPt: number;
  maxMarginInk: number;
  /** The margin's luma spread below ink level: a bar or row is flat, a photo or a map is not. */
  maxMarginStd: number;
  /** The widest blur halo left out of the margin's flatness, in points (the image's measured blur
   * sets it: none on a sharp screenshot). */
  haloPt: number;
  /** The symbol's strongest luma difference from its margin's mean (system greys and tints stand out
   * from their bar; faint map or photo marks do not). */
  minContrast: number;
}

export const DEFAULT_GLYPH_OPTIONS: GlyphOptions = {
  pxPerPt: 1.5,
  windowPt: 10,
  inkContrast: 40,
  joinPt: 4,
  minPt: 10,
  maxPt: 36,
  marginPt: 6,
  maxMarginInk: 0.02,
  maxMarginStd: 6,
  haloPt: 1,
  minContrast: 70,
};

/**
 * A sharp edge's 10–90% width at the working resolution, in pixels, and the width from which an image
 * counts as blurred. Measured (`edgeWidth`) on the real-screen set: screenshots 0.4–1.6 (one full-screen
 * night photo 2.07: a photo's own edges are soft), the simulated camera's rectified frames 2.1–3.1.
 */
const SHARP_EDGE = 1.5;
const BLURRED = 2.1;

/** Points per screen width: the width of the commonest iPhones (390 pt, iPhone 12–14). */
const SCREEN_PT = 390;

interface Work {
  w: number;
  h: number;
  /** Luma, one float per pixel. */
  px: Float32Array;
}

/** Area-average `screen`'s luma down to `targetW` pixels wide (never up). */
function downsample(screen: RgbImage, targetW: number): Work {
  const { width: W, height: H, data } = screen;
  const f = Math.max(1, W / targetW);
  const w = Math.max(1, Math.round(W / f));
  const h = Math.max(1, Math.round(H / f));
  // Column spans once; rows are summed into `acc` then divided.
  const xs = new Int32Array(w + 1);
  for (let x = 0; x <= w; x++) xs[x] = Math.min(W, Math.floor(x * f));
  const px = new Float32Array(w * h);
  if (f === 1) {
    // One source pixel per working pixel (a 585 px screen): the same luma as below (0 + v, then / 1).
    for (let i = 0, o = 0; i < w * h; i++, o += 3)
      px[i] = 0.299 * (data[o] as number) + 0.587 * (data[o + 1] as number) + 0.114 * (data[o + 2] as number);
    return { w, h, px };
  }
  for (let y = 0; y < h; y++) {
    const sy0 = Math.floor(y * f);
    const sy1 = Math.max(sy0 + 1, Math.min(H, Math.floor((y + 1) * f)));
    for (let x = 0; x < w; x++) {
      const sx0 = xs[x] as number;
      const sx1 = Math.max(sx0 + 1, xs[x + 1] as number);
      let acc = 0;
      for (let sy = sy0; sy < sy1; sy++) {
        let o = (sy * W + sx0) * 3;
        for (let sx = sx0; sx < sx1; sx++, o += 3)
          acc +=
            0.299 * (data[o] as number) + 0.587 * (data[o + 1] as number) + 0.114 * (data[o + 2] as number);
      }
      px[y * w + x] = acc / ((sy1 - sy0) * (sx1 - sx0));
    }
  }
  return { w, h, px };
}

/**
 * The image's blur as the mean width, in pixels, of its sharpest transitions: on every other row, each
 * strong step between two flat stretches (≥ 80 luma across 8 px, ≤ 4 within each end pixel pair)
 * counted across its 10–90% rise. A screenshot area-averaged to the working size measures ≈ 1.5; the
 * camera's optics and the rectifying resample widen it. 0 when the image has no such edges.
 */
function edgeWidth(img: Work): number {
  const { w, h, px } = img;
  const L = (i: number): number => px[i] ?? 0;
  let sum = 0;
  let n = 0;
  for (let y = 0; y < h; y += 2)
    for (let x = 4; x < w - 4; x++) {
      const o = y * w + x;
      const a = L(o - 4);
      const step = L(o + 4) - a;
      if (Math.abs(step) < 80 || Math.abs(a - L(o - 3)) > 4 || Math.abs(L(o + 4) - L(o + 3)) > 4) continue;
      // Counted once, at its steepest pixel pair.
      const g = Math.abs(L(o + 1) - L(o));
      let steepest = true;
      for (let k = -3; k <= 3 && steepest; k++) if (Math.abs(L(o + k + 1) - L(o + k)) > g) steepest = false;
      if (!steepest) continue;
      for (let k = -3; k <= 4; k++) {
        const f = (L(o + k) - a) / step;
        if (f > 0.1 && f < 0.9) sum++;
      }
      n++;
    }
  return n > 0 ? sum / n : 0;
}

/** Ink mask: luma differs from the mean of the `(2r+1)²` window around the pixel by more than `t`. */
function inkMask(img: Work, r: number, t: number): Uint8Array {
  const { w, h, px } = img;
  const table = summedArea(px, w, h);
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (Math.abs((px[y * w + x] as number) - windowMean(table, w, h, x, y, r)) > t) ink[y * w + x] = 1;
  return ink;
}

const near = (a: Blob, b: Blob, gap: number): boolean =>
  a.x0 - gap < b.x1 && b.x0 - gap < a.x1 && a.y0 - gap < b.y1 && b.y0 - gap < a.y1;

/**
 * New `[icon] ""` rows for icon-only buttons not on any of `rows`: filled circular buttons with a symbol
 * (`disc-buttons.ts`), then isolated symbol-sized ink groups (see the module comment; a disc's symbol is
 * its disc's ink). Returns only the new rows.
 */
export function proposeGlyphs(
  screen: RgbImage,
  rows: readonly Candidate[],
  options: GlyphOptions = DEFAULT_GLYPH_OPTIONS,
): Candidate[] {
  const discs = proposeDiscButtons(screen, rows);
  return [...discs, ...proposeInkGlyphs(screen, [...rows, ...discs], options)];
}

function proposeInkGlyphs(screen: RgbImage, rows: readonly Candidate[], options: GlyphOptions): Candidate[] {
  const img = downsample(screen, Math.round(SCREEN_PT * options.pxPerPt));
  const { w, h } = img;
  const pt = w / SCREEN_PT;
  const radius = Math.round(options.windowPt * pt);
  const ink = inkMask(img, radius, options.inkContrast);
  const first = components(ink, w, h);
  const maxPx = options.maxPt * pt;
  const boxes = rows.map((r) => [r.box[0] * w, r.box[1] * h, r.box[2] * w, r.box[3] * h] as const);
  // A blob whose centre is on a row is that row's ink (a letter of an OCR line, a detected icon) —
  // not on a wide "icon" (`wide-icons.ts`: the detector boxing a whole card, a segmented control or a
  // bar), whose symbols are the targets.
  const aspect = screen.height / Math.max(1, screen.width);
  const claiming = boxes.filter((_, k) => !isWideIcon(rows[k] as Candidate, aspect));
  const onRow = (b: Blob): boolean => {
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    return claiming.some((r) => cx >= r[0] - pt && cx <= r[2] + pt && cy >= r[1] - pt && cy <= r[3] + pt);
  };
  // A bold symbol merged with its surround, in one blob or in pieces of halo, is re-read
  // (`resplitBold`, `overCapClusters`); its pieces are one symbol.
  const free = first.blobs.flatMap((b, i) =>
    !onRow(b) && Math.max(b.x1 - b.x0, b.y1 - b.y0) <= maxPx ? [i + 1] : [],
  );
  const clusters = overCapClusters(first.blobs, free, options.joinPt * pt, maxPx);
  const bold = resplitBold(img.px, w, h, ink, first, radius, options.inkContrast, maxPx, clusters);
  const { labels, blobs } = bold ?? first;
  // The halo: on a blurred image, the blur's spread beyond a sharp edge's, at most `haloPt`.
  const blur = edgeWidth(img);
  // Under 1 px/pt (a screenshot under 390 px wide, as published halved) a sharp symbol's anti-aliased
  // edge pixel covers more than a point: its fringe is a band of one pixel, left out like a halo.
  const halo =
    blur >= BLURRED
      ? Math.min(Math.round(options.haloPt * pt), Math.round(blur - SHARP_EDGE))
      : pt < 1
        ? 1
        : 0;
  const covered = blobs.map(onRow);
  const parts = blobs.flatMap((b, i) =>
    !covered[i] && b.x1 - b.x0 <= maxPx && b.y1 - b.y0 <= maxPx ? [i] : [],
  );
  // Group parts within `joinPt` of each other (union-find over the few candidate parts).
  const parent = parts.map((_, k) => k);
  const find = (k: number): number => {
    let r = k;
    while (parent[r] !== r) r = parent[r] as number;
    parent[k] = r;
    return r;
  };
  const gap = options.joinPt * pt;
  for (let a = 0; a < parts.length; a++)
    for (let b = a + 1; b < parts.length; b++)
      if (
        near(blobs[parts[a] as number] as Blob, blobs[parts[b] as number] as Blob, gap) ||
        (bold &&
          bold.origin[parts[a] as number] !== 0 &&
          bold.origin[parts[a] as number] === bold.origin[parts[b] as number])
      )
        parent[find(a)] = find(b);
  const groups = new Map<number, { box: Blob; ids: Set<number> }>();
  parts.forEach((i, k) => {
    const b = blobs[i] as Blob;
    const root = find(k);
    const g = groups.get(root);
    if (!g) groups.set(root, { box: { ...b }, ids: new Set([i + 1]) });
    else {
      g.box = {
        x0: Math.min(g.box.x0, b.x0),
        y0: Math.min(g.box.y0, b.y0),
        x1: Math.max(g.box.x1, b.x1),
        y1: Math.max(g.box.y1, b.y1),
        n: g.box.n + b.n,
      };
      g.ids.add(i + 1);
    }
  });
  const icons: Candidate[] = [];
  for (const { box: g, ids } of groups.values()) {
    const gw = g.x1 - g.x0;
    const gh = g.y1 - g.y0;
    const long = Math.max(gw, gh);
    const short = Math.min(gw, gh);
    if (long < options.minPt * pt || long > maxPx || short < 2.5 * pt || long / short > 6) continue;
    if (g.n < 0.04 * gw * gh) continue;
    // Cut by the screen's edge: part of something larger (a glyph is never clipped by the edge).
    if (g.x0 <= 0 || g.y0 <= 0 || g.x1 >= w || g.y1 >= h) continue;
    const gcx = (g.x0 + g.x1) / 2;
    const gcy = (g.y0 + g.y1) / 2;
    if (claiming.some((r) => gcx >= r[0] && gcx <= r[2] && gcy >= r[1] && gcy <= r[3])) continue;
    // A leading icon: text starts just right of it on the same line (`⚙ General`); the text's row is
    // the target. Not the ≡ menu glyph (`menu-bars.ts`): a control of its own (read only for a glyph
    // with text beside it).
    const leading =
      rows.some((r, k) => {
        const b = boxes[k];
        if (r.kind !== "text" || !b) return false;
        const dx = b[0] - g.x1;
        return dx >= -pt && dx < 16 * pt && Math.abs((b[1] + b[3]) / 2 - gcy) < Math.max(b[3] - b[1], gh) / 2;
      }) && !isMenuBars(img.px, w, h, g);
    if (leading) continue;
    const m = marginStats(img, labels, g, ids, Math.round(options.marginPt * pt), halo);
    if (m.ink > options.maxMarginInk || m.std > options.maxMarginStd || m.contrast < options.minContrast)
      continue;
    // Passing only once the halo is left out: a symbol must be thicker than blurred fragments of a
    // word or a map label (a stroke's height), three quarters of the smallest symbol on its short side.
    if (m.plainStd > options.maxMarginStd && short < 0.75 * options.minPt * pt) continue;
    icons.push({ kind: "icon", label: "", box: [g.x0 / w, g.y0 / h, g.x1 / w, g.y1 / h], conf: 0.5 });
  }
  // A page control's dots are too small for a symbol each and too far apart to join into one.
  // The detector often boxes a page control with the space around it as one wide "icon" (dropped as
  // spurious later, `spurious.ts`): such a box does not claim the dots.
  const claims = boxes.filter((r, k) => rows[k]?.kind !== "icon" || r[2] - r[0] <= w / 2);
  const dots = findPageDots(
    blobs.filter((b) => {
      const cx = (b.x0 + b.x1) / 2;
      const cy = (b.y0 + b.y1) / 2;
      return !claims.some((r) => cx >= r[0] - pt && cx <= r[2] + pt && cy >= r[1] - pt && cy <= r[3] + pt);
    }),
    w,
    h,
    pt,
  );
  if (dots) icons.push(dots);
  return icons;
}

/**
 * The margin of `margin` pixels around group box `g`: the share of it that is ink of other blobs, the
 * luma spread of its ink-free pixels (the least over leaving out a band of 0…`halo` pixels next to the
 * box: a blur halo; `plainStd` leaving out none), and the group's strongest luma difference from their mean.
 */
function marginStats(
  img: Work,
  labels: Int32Array,
  g: Blob,
  ids: ReadonlySet<number>,
  margin: number,
  halo: number,
): { ink: number; std: number; plainStd: number; contrast: number } {
  const { w, h, px } = img;
  let ink = 0;
  let ring = 0;
  // Flat pixels' count, sum and sum of squares by their distance band from the box (1…margin).
  const bands = Array.from({ length: margin + 1 }, () => ({ n: 0, sum: 0, sum2: 0 }));
  for (let y = Math.max(0, g.y0 - margin); y < Math.min(h, g.y1 + margin); y++)
    for (let x = Math.max(0, g.x0 - margin); x < Math.min(w, g.x1 + margin); x++) {
      if (x >= g.x0 && x < g.x1 && y >= g.y0 && y < g.y1) continue;
      ring++;
      const l = labels[y * w + x] ?? 0;
      if (l && !ids.has(l)) ink++;
      if (!l) {
        const v = px[y * w + x] ?? 0;
        const dist = Math.max(g.x0 - x, x + 1 - g.x1, g.y0 - y, y + 1 - g.y1);
        const b = bands[Math.min(margin, dist)];
        if (b) {
          b.n++;
          b.sum += v;
          b.sum2 += v * v;
        }
      }
    }
  const statsFrom = (skip: number): { mean: number; std: number; n: number } => {
    let n = 0;
    let sum = 0;
    let sum2 = 0;
    for (let d = skip + 1; d <= margin; d++) {
      const b = bands[d];
      if (!b) continue;
      n += b.n;
      sum += b.sum;
      sum2 += b.sum2;
    }
    const mean = sum / Math.max(1, n);
    return { mean, std: Math.sqrt(Math.max(0, sum2 / Math.max(1, n) - mean * mean)), n };
  };
  const all = statsFrom(0);
  const mean = all.mean;
  let contrast = 0;
  let peak = mean;
  for (let y = g.y0; y < g.y1; y++)
    for (let x = g.x0; x < g.x1; x++) {
      const v = px[y * w + x] ?? 0;
      if (Math.abs(v - mean) > contrast) {
        contrast = Math.abs(v - mean);
        peak = v;
      }
    }
  let std = all.std;
  for (let skip = 1; skip <= Math.min(halo, margin - 2); skip++) {
    const beyond = statsFrom(skip);
    // A halo is the symbol's ink smeared outwards: the band left out is shifted from the margin beyond
    // it towards the symbol's ink, by more than that margin's own spread (texture is not).
    let n = 0;
    let sum = 0;
    for (let d = 1; d <= skip; d++) {
      n += bands[d]?.n ?? 0;
      sum += bands[d]?.sum ?? 0;
    }
    const shift = (sum / Math.max(1, n) - beyond.mean) * Math.sign(peak - beyond.mean);
    if (beyond.n > 0 && n > 0 && shift > beyond.std) std = Math.min(std, beyond.std);
  }
  return { ink: ring > 0 ? ink / ring : 1, std, plainStd: all.std, contrast };
}
