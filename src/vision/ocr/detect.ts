import type { RgbImage } from "../../shared/image.js";

/**
 * DB (differentiable binarisation) text detection, pre- and post-processing for PaddleOCR's det
 * models. The screen is upright after rectification, so regions are axis-aligned rectangles (no
 * rotated boxes, no angle classifier) and the post-process is a single connected-components pass.
 */

/** A text region in pixels of some image: `[x0, y0)`–`[x1, y1)`, with the region's mean det score. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  score: number;
}

export interface DbOptions {
  /** A map pixel above this is text. */
  binaryThreshold: number;
  /** Drop regions whose mean score over their rectangle is below this. */
  boxThreshold: number;
  /** Grow a region by area × ratio / perimeter on every side (DB's unclip). */
  unclipRatio: number;
  /** Drop regions whose shorter side (before unclip) is below this many map pixels. */
  minSide?: number;
}

/** Detection input size for a source image: `width` wide (≤ source), aspect kept, multiples of 32. */
export function detectionSize(
  srcWidth: number,
  srcHeight: number,
  width: number,
): { width: number; height: number } {
  const w = Math.min(width, srcWidth);
  const round32 = (v: number) => Math.max(32, Math.round(v / 32) * 32);
  return { width: round32(w), height: round32((w * srcHeight) / srcWidth) };
}

/** ImageNet mean/std per channel, in the order the det model was trained with (RGB here). */
const DET_MEAN = [0.485, 0.456, 0.406] as const;
const DET_STD = [0.229, 0.224, 0.225] as const;

/** Source index ranges `[start, end)` for each of `dst` output cells over `src` input cells (≥ 1 each). */
function spans(src: number, dst: number): Int32Array {
  const out = new Int32Array(dst * 2);
  const scale = src / dst;
  for (let i = 0; i < dst; i++) {
    let a = Math.floor(i * scale + 0.5);
    let b = Math.floor((i + 1) * scale + 0.5);
    if (b <= a) b = a + 1;
    if (b > src) b = src;
    if (a >= b) a = b - 1;
    out[2 * i] = a;
    out[2 * i + 1] = b;
  }
  return out;
}

/**
 * The det model's input for `image` resized to `width`×`height`: area-averaged (every source pixel
 * counts once, so thin strokes survive a 3–4× shrink), ImageNet-normalised, planar `[1, 3, h, w]`.
 * Done in one pass in JS rather than through an image library: ~10 ms for a 1170×2532 screen, and no
 * image cache or extra thread pool held in memory.
 */
export function detectionInput(image: RgbImage, width: number, height: number): Float32Array {
  const { data, width: sw, height: sh } = image;
  const xs = spans(sw, width);
  const ys = spans(sh, height);
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  const acc = new Float64Array(width * 3);
  const scale = DET_STD.map((sd) => 1 / (255 * sd));
  const shift = DET_MEAN.map((m, c) => m / (DET_STD[c] ?? 1));
  for (let oy = 0; oy < height; oy++) {
    acc.fill(0);
    const y0 = ys[2 * oy] ?? 0;
    const y1 = ys[2 * oy + 1] ?? 1;
    for (let y = y0; y < y1; y++) {
      const row = y * sw * 3;
      for (let ox = 0; ox < width; ox++) {
        const x0 = xs[2 * ox] ?? 0;
        const x1 = xs[2 * ox + 1] ?? 1;
        let r = 0;
        let g = 0;
        let b = 0;
        for (let x = x0, i = row + x0 * 3; x < x1; x++, i += 3) {
          r += data[i] ?? 0;
          g += data[i + 1] ?? 0;
          b += data[i + 2] ?? 0;
        }
        acc[ox * 3] = (acc[ox * 3] ?? 0) + r;
        acc[ox * 3 + 1] = (acc[ox * 3 + 1] ?? 0) + g;
        acc[ox * 3 + 2] = (acc[ox * 3 + 2] ?? 0) + b;
      }
    }
    for (let ox = 0; ox < width; ox++) {
      const n = ((xs[2 * ox + 1] ?? 1) - (xs[2 * ox] ?? 0)) * (y1 - y0);
      const o = oy * width + ox;
      for (let c = 0; c < 3; c++)
        out[c * plane + o] = ((acc[ox * 3 + c] ?? 0) / n) * (scale[c] ?? 1) - (shift[c] ?? 0);
    }
  }
  return out;
}

/**
 * `detectionInput` of an image whose three channels all hold `grey` (`sw`×`sh`, one byte a pixel; a
 * contrast-normalised screen): one sum per output pixel instead of three, the same floats.
 */
export function detectionInputGrey(
  grey: Uint8Array,
  sw: number,
  sh: number,
  width: number,
  height: number,
): Float32Array {
  const xs = spans(sw, width);
  const ys = spans(sh, height);
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  const acc = new Float64Array(width);
  // Per-channel constants in plain locals (the same floats as `detectionInput`'s arrays): this loop
  // stays in optimised code from screen to screen; reading them from fresh arrays each call had V8
  // deoptimise it ("wrong map") and run it unoptimised, boxing every float (~20 MB of garbage a peek).
  const scale0 = 1 / (255 * DET_STD[0]);
  const scale1 = 1 / (255 * DET_STD[1]);
  const scale2 = 1 / (255 * DET_STD[2]);
  const shift0 = DET_MEAN[0] / DET_STD[0];
  const shift1 = DET_MEAN[1] / DET_STD[1];
  const shift2 = DET_MEAN[2] / DET_STD[2];
  for (let oy = 0; oy < height; oy++) {
    acc.fill(0);
    const y0 = ys[2 * oy] as number;
    const y1 = ys[2 * oy + 1] as number;
    for (let y = y0; y < y1; y++) {
      const row = y * sw;
      for (let ox = 0; ox < width; ox++) {
        const end = row + (xs[2 * ox + 1] as number);
        let v = 0;
        for (let i = row + (xs[2 * ox] as number); i < end; i++) v += grey[i] as number;
        acc[ox] = (acc[ox] as number) + v;
      }
    }
    for (let ox = 0; ox < width; ox++) {
      const n = ((xs[2 * ox + 1] as number) - (xs[2 * ox] as number)) * (y1 - y0);
      const o = oy * width + ox;
      const mean = (acc[ox] as number) / n;
      out[o] = mean * scale0 - shift0;
      out[plane + o] = mean * scale1 - shift1;
      out[2 * plane + o] = mean * scale2 - shift2;
    }
  }
  return out;
}

/** The already-visited 8-neighbours in a row-major scan: W, NW, N, NE. */
const NEIGHBOUR_DX = [-1, -1, 0, 1] as const;
const NEIGHBOUR_DY = [0, -1, -1, -1] as const;

/** Union-find root with path halving. */
function root(parent: Int32Array, i: number): number {
  let r = i;
  while (parent[r] !== r) {
    const p = parent[r] ?? r;
    parent[r] = parent[p] ?? p;
    r = parent[r] ?? r;
  }
  return r;
}

/**
 * Text regions in a DB probability map (`width`×`height`, row-major): 8-connected components of the
 * thresholded map, scored by the mean probability over their bounding rectangle (DB's "fast" score) or,
 * when that is too low, over their filled outline (`spanScore`, held to `OUTLINE_THRESHOLD`), grown by
 * the unclip offset and clipped to the map. Coordinates are map pixels.
 */
export function dbBoxes(prob: Float32Array, width: number, height: number, opts: DbOptions): PixelBox[] {
  const minSide = opts.minSide ?? 3;
  const n = width * height;
  const label = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n);
  let next = 0;
  // Pass 1: provisional labels from the already-visited neighbours (W, NW, N, NE).
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if ((prob[i] ?? 0) <= opts.binaryThreshold) continue;
      let l = -1;
      for (let k = 0; k < 4; k++) {
        const nx = x + (NEIGHBOUR_DX[k] ?? 0);
        const ny = y + (NEIGHBOUR_DY[k] ?? 0);
        if (nx < 0 || nx >= width || ny < 0) continue;
        const nb = label[ny * width + nx];
        if (nb === undefined || nb < 0) continue;
        const a = root(parent, nb);
        if (l < 0) l = a;
        else if (a !== l) {
          // Two provisional labels meet: join them under the smaller one.
          const lo = Math.min(a, l);
          parent[Math.max(a, l)] = lo;
          l = lo;
        }
      }
      if (l < 0) {
        l = next++;
        parent[l] = l;
      }
      label[i] = l;
    }
  }
  // Pass 2: bounding rectangle per component.
  const x0 = new Int32Array(next).fill(width);
  const y0 = new Int32Array(next).fill(height);
  const x1 = new Int32Array(next).fill(-1);
  const y1 = new Int32Array(next).fill(-1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const l0 = label[y * width + x] ?? -1;
      if (l0 < 0) continue;
      const l = root(parent, l0);
      label[y * width + x] = l;
      if (x < (x0[l] ?? width)) x0[l] = x;
      if (x > (x1[l] ?? -1)) x1[l] = x;
      if (y < (y0[l] ?? height)) y0[l] = y;
      if (y > (y1[l] ?? -1)) y1[l] = y;
    }
  }
  const kernels: PixelBox[] = [];
  for (let l = 0; l < next; l++) {
    if (parent[l] !== l) continue;
    const bx0 = x0[l] ?? 0;
    const by0 = y0[l] ?? 0;
    const w = (x1[l] ?? 0) - bx0 + 1;
    const h = (y1[l] ?? 0) - by0 + 1;
    if (Math.min(w, h) < minSide) continue;
    let rect = 0;
    for (let y = by0; y < by0 + h; y++) for (let x = bx0; x < bx0 + w; x++) rect += prob[y * width + x] ?? 0;
    rect /= w * h;
    // A region that fills too little of its rectangle is kept only on a confident outline (`spanScore`).
    const score = rect >= opts.boxThreshold ? rect : spanScore(prob, label, width, l, bx0, by0, w, h);
    if (rect >= opts.boxThreshold || score >= OUTLINE_THRESHOLD)
      kernels.push({ x0: bx0, y0: by0, x1: bx0 + w, y1: by0 + h, score });
  }
  return unclip(kernels, opts.unclipRatio, width, height);
}

/**
 * Mean outline score (`spanScore`) a region needs when it fills less than `boxThreshold` of its upright
 * rectangle. Most such regions are icons and photo fragments (52 of 68 on the real set's screenshots,
 * scoring 0.5–0.96 over their outline); a label joined to an icon at a slant is read with near
 * certainty there (`Alarm` 0.99, `Today` 0.95), so only those are kept.
 */
const OUTLINE_THRESHOLD = 0.85;

/**
 * Mean probability over a component's filled outline: on each of its rows, every map pixel from its
 * leftmost to its rightmost pixel on that row. DB scores a region over its polygon (Liao et al., "Real-time
 * Scene Text Detection with Differentiable Binarization", AAAI 2020; PaddleOCR's `box_score_fast` over
 * the minimum-area rotated rectangle); the mean over the upright bounding rectangle instead sinks a
 * label joined at a slant to the icon beside it (`Alarm` and a bell below its end: 0.44) under the
 * threshold, though every pixel of it is confident text.
 */
function spanScore(
  prob: Float32Array,
  label: Int32Array,
  width: number,
  l: number,
  bx0: number,
  by0: number,
  w: number,
  h: number,
): number {
  let sum = 0;
  let count = 0;
  for (let y = by0; y < by0 + h; y++) {
    const row = y * width;
    let a = -1;
    let b = -1;
    for (let x = bx0; x < bx0 + w; x++)
      if (label[row + x] === l) {
        if (a < 0) a = x;
        b = x;
      }
    for (let x = a; a >= 0 && x <= b; x++) sum += prob[row + x] ?? 0;
    if (a >= 0) count += b - a + 1;
  }
  return count > 0 ? sum / count : 0;
}

/**
 * Grow each shrunk text kernel by area × ratio / perimeter on every side, then settle overlaps: where
 * two grown boxes overlap, both are cut at the middle of the gap between their kernels (along the
 * axis the kernels are apart on). Otherwise a box reaches into its neighbour and the recogniser reads
 * a stray glyph of it (`回来！手` beside `我带甜点`); merging instead would join separate labels.
 */
function unclip(kernels: readonly PixelBox[], ratio: number, width: number, height: number): PixelBox[] {
  const boxes = kernels.map((k) => {
    const w = k.x1 - k.x0;
    const h = k.y1 - k.y0;
    const d = (w * h * ratio) / (2 * (w + h));
    return {
      x0: Math.max(0, k.x0 - d),
      y0: Math.max(0, k.y0 - d),
      x1: Math.min(width, k.x1 + d),
      y1: Math.min(height, k.y1 + d),
      score: k.score,
    };
  });
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const ka = kernels[i];
      const kb = kernels[j];
      if (!a || !b || !ka || !kb) continue;
      if (a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0) continue;
      const gapX = Math.max(kb.x0 - ka.x1, ka.x0 - kb.x1);
      const gapY = Math.max(kb.y0 - ka.y1, ka.y0 - kb.y1);
      if (gapX < 0 && gapY < 0) continue; // kernels interleave: no clean cut
      const [first, second, kFirst, kSecond] =
        gapX >= gapY
          ? ka.x0 < kb.x0
            ? [a, b, ka, kb]
            : [b, a, kb, ka]
          : ka.y0 < kb.y0
            ? [a, b, ka, kb]
            : [b, a, kb, ka];
      if (gapX >= gapY) {
        const cut = (kFirst.x1 + kSecond.x0) / 2;
        first.x1 = Math.min(first.x1, cut);
        second.x0 = Math.max(second.x0, cut);
      } else {
        const cut = (kFirst.y1 + kSecond.y0) / 2;
        first.y1 = Math.min(first.y1, cut);
        second.y0 = Math.max(second.y0, cut);
      }
    }
  }
  return boxes;
}
