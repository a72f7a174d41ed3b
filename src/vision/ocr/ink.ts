import { type GrayImage, luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";

/**
 * The ink of a text region: background = the median grey of the region's border; ink = pixels differing
 * from it by more than a third of the region's largest difference (at least 24 levels). `null` when the
 * region is degenerate or holds no clear ink.
 */
export interface InkMask {
  /** Region origin in image pixels and its size. */
  x0: number;
  y0: number;
  w: number;
  h: number;
  /** 1 where the pixel is ink, row-major `w`×`h`. */
  ink: Uint8Array;
}

/** A box's luma, its background (the median grey of its border) and its largest difference from it. */
export interface GreyCrop {
  /** Crop origin in image pixels and its size. */
  x0: number;
  y0: number;
  w: number;
  h: number;
  /** Luma, row-major `w`×`h`. */
  grey: Float32Array;
  bg: number;
  maxDiff: number;
}

/**
 * A colour screen or a one-plane grey one (the OCR's contrast-normalised screen): a grey pixel reads as
 * the RGB pixel with that value in all three channels would, to the bit.
 */
export type InkImage = RgbImage | GrayImage;

/** `luma` of three equal channels `v`, term by term (so the float32 stored is the same), by `v`. */
const GREY_LUMA = Float32Array.from({ length: 256 }, (_, v) => 0.299 * v + 0.587 * v + 0.114 * v);

/** The box clipped to the image and cropped to luma; null when smaller than `minW`×`minH`. */
export function greyCrop(image: InkImage, box: PixelBox, minW: number, minH: number): GreyCrop | null {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(image.width, Math.ceil(box.x1));
  const y1 = Math.min(image.height, Math.ceil(box.y1));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < minW || h < minH) return null;
  const grey = new Float32Array(w * h);
  const d = image.data;
  if ("channels" in image)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const o = ((y0 + y) * image.width + x0 + x) * 3;
        grey[y * w + x] = luma(d, o);
      }
  else
    for (let y = 0; y < h; y++)
      for (let x = 0, o = (y0 + y) * image.width + x0; x < w; x++, o++)
        grey[y * w + x] = GREY_LUMA[d[o] as number] as number;
  // Typed, sorted numerically in place (no comparator call per pair, no boxed numbers): the same median.
  const border = new Float64Array(2 * (w + h));
  let k = 0;
  for (let x = 0; x < w; x++) {
    border[k++] = grey[x] as number;
    border[k++] = grey[(h - 1) * w + x] as number;
  }
  for (let y = 0; y < h; y++) {
    border[k++] = grey[y * w] as number;
    border[k++] = grey[y * w + w - 1] as number;
  }
  border.sort();
  const bg = border[Math.floor(border.length / 2)] ?? 0;
  let maxDiff = 0;
  for (let i = 0; i < grey.length; i++) maxDiff = Math.max(maxDiff, Math.abs((grey[i] as number) - bg));
  return { x0, y0, w, h, grey, bg, maxDiff };
}

/** The ink mask of a region (see `InkMask`), or null when it holds no clear ink. */
export function inkMask(image: InkImage, box: PixelBox): InkMask | null {
  const crop = greyCrop(image, box, 3, 3);
  if (!crop) return null;
  const { x0, y0, w, h, grey, bg, maxDiff } = crop;
  const threshold = Math.max(24, maxDiff / 3);
  if (maxDiff < threshold) return null;
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < ink.length; i++) ink[i] = Math.abs((grey[i] ?? 0) - bg) > threshold ? 1 : 0;
  return { x0, y0, w, h, ink };
}

/** Bounding rows and columns of the ink, in mask coordinates (inclusive), or null without ink. */
export function inkBounds(m: InkMask): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = m.w;
  let y0 = m.h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < m.h; y++)
    for (let x = 0; x < m.w; x++)
      if (m.ink[y * m.w + x]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/**
 * Tighten a text region to its ink. DB's unclip pads each region generously (the recogniser needs the
 * margin), so a reported box would be up to twice the text's height; the listing should show where the
 * text is. Returns the region unchanged when it holds no clear ink (a low-contrast read is better boxed
 * loosely than lost).
 */
export function tightenToInk(image: InkImage, box: PixelBox): PixelBox {
  const m = inkMask(image, box);
  const b = m && inkBounds(m);
  if (!m || !b) return box;
  return {
    x0: Math.max(box.x0, m.x0 + b.x0 - 1),
    y0: Math.max(box.y0, m.y0 + b.y0 - 1),
    x1: Math.min(box.x1, m.x0 + b.x1 + 2),
    y1: Math.min(box.y1, m.y0 + b.y1 + 2),
    score: box.score,
  };
}

/**
 * Whether the line's last glyph is a raised mark (a degree sign's ring): the ink in the rightmost sliver
 * of the line, a fifth of the line's ink height wide, ends in the upper half of the line. The recogniser
 * reads `9°` as `90` now and then; a real trailing `0` or `o` reaches the baseline.
 */
export function endsWithRaisedMark(image: RgbImage, box: PixelBox): boolean {
  const m = inkMask(image, box);
  const b = m && inkBounds(m);
  if (!m || !b) return false;
  const { y0: top, y1: bottom, x1: right } = b;
  const height = bottom - top + 1;
  const from = Math.max(0, right + 1 - Math.max(2, Math.round(height / 5)));
  let sliverBottom = -1;
  for (let y = top; y <= bottom; y++)
    for (let x = from; x <= right; x++) if (m.ink[y * m.w + x] && y > sliverBottom) sliverBottom = y;
  return sliverBottom >= 0 && sliverBottom - top + 1 < 0.55 * height;
}

/**
 * Widen a text region leftwards over a leading minus sign. DB's text kernel often starts after a
 * lone dash (`-8HRS` is found as `8HRS`): its thin stroke scores low. When the strip left of the region
 * (as wide as the region is tall) holds one flat, wide-enough blob of ink in the middle band of the
 * line and touching nothing above or below, the region grows to take it in; otherwise it is unchanged.
 */
export function withLeadingDash(image: InkImage, box: PixelBox): PixelBox {
  const h = box.y1 - box.y0;
  const strip: PixelBox = {
    x0: Math.max(0, box.x0 - h),
    y0: box.y0,
    x1: box.x0,
    y1: box.y1,
    score: box.score,
  };
  if (strip.x1 - strip.x0 < 3) return box;
  const m = inkMask(image, strip);
  const b = m && inkBounds(m);
  if (!m || !b) return box;
  const inkH = b.y1 - b.y0 + 1;
  const inkW = b.x1 - b.x0 + 1;
  const mid = (b.y0 + b.y1) / 2 / m.h;
  // A dash: at most a fifth of the line tall, at least a sixth of it wide, in its middle band, and
  // ending near the text (within a third of the line's height of the region's left edge). It starts
  // inside the strip: a minus or an en dash is 0.3–0.6 em wide (SF Pro), the strip a line height, so a
  // bar running in from the strip's far edge is a track or a rule (an audio bubble's progress line
  // before `0:04`), not a dash.
  const dashLike =
    inkH <= 0.2 * h && inkW >= h / 6 && mid > 0.3 && mid < 0.75 && m.w - 1 - b.x1 <= h / 3 && b.x0 > 0;
  return dashLike ? { ...box, x0: Math.max(0, m.x0 + b.x0 - 2) } : box;
}

/** An ink component of a grey crop: its id (its pixels hold `id + 1` in the label plane) and bounds, crop pixels. */
export interface LabelledComponent {
  id: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The 8-connected ink components of `crop`, in scan order (by first pixel, top to bottom): ink is what differs
 * from the crop's border grey by more than `threshold`. `label` holds each pixel's component id + 1 (0: none).
 */
export function labelInk(
  crop: GreyCrop,
  threshold: number,
): { label: Int32Array; comps: LabelledComponent[] } {
  const { w, h, grey, bg } = crop;
  const label = new Int32Array(w * h);
  const comps: LabelledComponent[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (label[start] || Math.abs((grey[start] ?? 0) - bg) <= threshold) continue;
    const id = comps.length;
    const c = { id, x0: w, y0: h, x1: -1, y1: -1 };
    label[start] = id + 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop() ?? 0;
      const px = p % w;
      const py = (p - px) / w;
      c.x0 = Math.min(c.x0, px);
      c.x1 = Math.max(c.x1, px);
      c.y0 = Math.min(c.y0, py);
      c.y1 = Math.max(c.y1, py);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = px + dx;
          const ny = py + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (!label[q] && Math.abs((grey[q] ?? 0) - bg) > threshold) {
            label[q] = id + 1;
            stack.push(q);
          }
        }
    }
    comps.push(c);
  }
  return { label, comps };
}
