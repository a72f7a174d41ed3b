import type { RgbImage } from "../shared/image.js";
import { PiclawError } from "../util/errors.js";

/**
 * Averaging successive camera frames of a still screen. A sensor's shot and read noise is independent
 * from frame to frame, while the phone's screen and the optics stay the same between taps; the mean of N
 * frames keeps the picture and cuts the noise's σ by √N (blur, glare and the lens stay). Frames are
 * averaged after rectification, so only the screen's quadrilateral is summed (585 × 1266 px, not the
 * 2304 × 1296 frame). Only frames that show the same picture as the newest are averaged in: a tap, a
 * scroll, an animation or the carriage passing over the glass changes some tile's mean far beyond what
 * noise moves it, and that frame and every older one are left out.
 */

/** Side of the square tiles frames are compared on, pixels of the rectified screen. */
export const STILL_TILE_PX = 24;

/**
 * Largest difference of a tile's mean grey level (0–255) between a frame and the newest that still
 * counts as the same picture. Sensor noise of σ ≈ 3–6 levels a pixel averages to < 0.3 over a 24 × 24
 * tile; JPEG and auto-exposure drift move a tile's mean by 1–2 levels. The smallest real change — a
 * 17 pt label's capitals (~18 px tall, stroke ~2 px) appearing in a tile — moves it by ≥ 5.
 */
export const STILL_TILE_LEVELS = 4;

/** Pixel-wise mean of same-sized RGB images (rounded); one image is returned as it is. */
export function meanRgb(images: readonly RgbImage[]): RgbImage {
  const first = images[0];
  if (first === undefined) throw new PiclawError("VISION_BAD_SIZE", "no frames to average");
  if (images.length === 1) return first;
  if (images.length > 256) throw new PiclawError("VISION_BAD_SIZE", "at most 256 frames are averaged");
  const n = first.width * first.height * 3;
  const sum = new Uint16Array(n);
  for (const img of images) {
    if (img.width !== first.width || img.height !== first.height)
      throw new PiclawError("VISION_BAD_SIZE", "averaged frames must have one size", {
        first: `${first.width}x${first.height}`,
        other: `${img.width}x${img.height}`,
      });
    const d = img.data;
    for (let i = 0; i < n; i++) sum[i] = (sum[i] ?? 0) + (d[i] ?? 0);
  }
  const k = images.length;
  const half = k >> 1;
  const out = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(((sum[i] ?? 0) + half) / k);
  return { width: first.width, height: first.height, channels: 3, data: out };
}

/** Mean grey level (R+G+B)/3 of each `tile`×`tile` block (edge blocks partial). */
function tileMeans(img: RgbImage, tile: number): Float32Array {
  const tw = Math.ceil(img.width / tile);
  const th = Math.ceil(img.height / tile);
  const sums = new Float64Array(tw * th);
  const counts = new Uint32Array(tw * th);
  const d = img.data;
  for (let y = 0; y < img.height; y++) {
    const row = ((y / tile) | 0) * tw;
    for (let x = 0, o = y * img.width * 3; x < img.width; x++, o += 3) {
      const t = row + ((x / tile) | 0);
      sums[t] = (sums[t] ?? 0) + (d[o] ?? 0) + (d[o + 1] ?? 0) + (d[o + 2] ?? 0);
      counts[t] = (counts[t] ?? 0) + 1;
    }
  }
  const means = new Float32Array(tw * th);
  for (let t = 0; t < means.length; t++) means[t] = (sums[t] ?? 0) / (3 * Math.max(1, counts[t] ?? 0));
  return means;
}

/**
 * How many of `frames` (oldest first, the newest last) show the same picture as the newest: the newest
 * and the run of frames just before it whose every tile mean is within `levels` of the newest's. A
 * frame that differs ends the run, so a change is never averaged across (the frames before it are
 * older still).
 */
export function stillRun(
  frames: readonly RgbImage[],
  tile = STILL_TILE_PX,
  levels = STILL_TILE_LEVELS,
): number {
  const newest = frames[frames.length - 1];
  if (newest === undefined) return 0;
  if (frames.length === 1) return 1;
  const ref = tileMeans(newest, tile);
  let run = 1;
  for (let k = frames.length - 2; k >= 0; k--) {
    const f = frames[k];
    if (f === undefined || f.width !== newest.width || f.height !== newest.height) break;
    const m = tileMeans(f, tile);
    let same = true;
    for (let t = 0; t < m.length && same; t++) same = Math.abs((m[t] ?? 0) - (ref[t] ?? 0)) <= levels;
    if (!same) break;
    run++;
  }
  return run;
}

/** The mean of the newest frames that show the same picture as the newest (`stillRun`), and their count. */
export function stackStill(frames: readonly RgbImage[]): { image: RgbImage; frames: number } {
  const run = stillRun(frames);
  if (run === 0) throw new PiclawError("VISION_BAD_SIZE", "no frames to average");
  return { image: meanRgb(frames.slice(frames.length - run)), frames: run };
}
