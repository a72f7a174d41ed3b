import type { RgbImage } from "../types.js";
import type { PixelBox } from "./detect.js";

/**
 * Tighten a text region to its ink. DB's unclip pads each region generously (the recogniser needs the
 * margin), so a reported box would be up to twice the text's height; the listing should show where the
 * text is. Background = the median grey of the region's border; ink = pixels differing from it by more
 * than a third of the region's largest difference (at least 24 levels). Returns the region unchanged when
 * it holds no clear ink (a low-contrast read is better boxed loosely than lost).
 */
export function tightenToInk(image: RgbImage, box: PixelBox): PixelBox {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(image.width, Math.ceil(box.x1));
  const y1 = Math.min(image.height, Math.ceil(box.y1));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 3 || h < 3) return box;
  const grey = new Float32Array(w * h);
  const d = image.data;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = ((y0 + y) * image.width + x0 + x) * 3;
      grey[y * w + x] = 0.299 * (d[o] ?? 0) + 0.587 * (d[o + 1] ?? 0) + 0.114 * (d[o + 2] ?? 0);
    }
  const border: number[] = [];
  for (let x = 0; x < w; x++) border.push(grey[x] ?? 0, grey[(h - 1) * w + x] ?? 0);
  for (let y = 0; y < h; y++) border.push(grey[y * w] ?? 0, grey[y * w + w - 1] ?? 0);
  border.sort((a, b) => a - b);
  const bg = border[Math.floor(border.length / 2)] ?? 0;
  let maxDiff = 0;
  for (const v of grey) maxDiff = Math.max(maxDiff, Math.abs(v - bg));
  const threshold = Math.max(24, maxDiff / 3);
  if (maxDiff < threshold) return box;
  let ix0 = w;
  let iy0 = h;
  let ix1 = -1;
  let iy1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (Math.abs((grey[y * w + x] ?? 0) - bg) > threshold) {
        if (x < ix0) ix0 = x;
        if (x > ix1) ix1 = x;
        if (y < iy0) iy0 = y;
        if (y > iy1) iy1 = y;
      }
  if (ix1 < 0) return box;
  return {
    x0: Math.max(box.x0, x0 + ix0 - 1),
    y0: Math.max(box.y0, y0 + iy0 - 1),
    x1: Math.min(box.x1, x0 + ix1 + 2),
    y1: Math.min(box.y1, y0 + iy1 + 2),
    score: box.score,
  };
}
