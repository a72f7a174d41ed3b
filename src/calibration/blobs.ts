import sharp from "sharp";
import { floodRegion } from "../shared/flood-box.js";
import type { GrayImage } from "../shared/image.js";
import { summedArea, windowMean } from "../shared/window-mean.js";
import { PiclawError } from "../util/errors.js";

/**
 * A bright blob. The centroid is in continuous pixel coordinates (pixel (i, j) covers [i, i+1) ×
 * [j, j+1), so a one-pixel blob at (i, j) has its centroid at (i + 0.5, j + 0.5)), the convention the
 * camera optics and the rectifier use.
 */
export interface Blob {
  x: number;
  y: number;
  /** Pixels above the local threshold. */
  area: number;
  /** Bounding-box size. */
  width: number;
  height: number;
}

/** Decode a camera frame (JPEG or PNG) to greyscale. */
export async function decodeGray(frame: Buffer): Promise<GrayImage> {
  try {
    const { data, info } = await sharp(frame).greyscale().raw().toBuffer({ resolveWithObject: true });
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    };
  } catch (err) {
    throw new PiclawError(
      "CALIBRATION_FRAME_INVALID",
      "the camera frame is not a decodable image",
      {},
      { cause: err },
    );
  }
}

export interface BlobOptions {
  /** How much brighter than the local mean a pixel must be (DN). */
  contrast: number;
  /** Half-size of the local-mean window, as a fraction of the frame's longer side. */
  windowFrac: number;
  minArea: number;
}

const DEFAULTS: BlobOptions = { contrast: 24, windowFrac: 1 / 24, minArea: 12 };

/**
 * Roundish bright blobs on a darker surround: an adaptive threshold (pixel above the mean of a window
 * around it, so vignetting and soft glare cancel), connected components, a shape filter (fill ratio and
 * aspect of an ellipse, which rejects the mat's grid lines and the frame edge) and an intensity-weighted
 * centroid over the blob's neighbourhood for sub-pixel accuracy.
 */
export function findBlobs(img: GrayImage, options: Partial<BlobOptions> = {}): Blob[] {
  const o = { ...DEFAULTS, ...options };
  const { width: w, height: h, data } = img;
  const table = summedArea(data, w, h);
  const r = Math.max(4, Math.round(Math.max(w, h) * o.windowFrac));
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if ((data[y * w + x] ?? 0) > windowMean(table, w, h, x, y, r) + o.contrast) mask[y * w + x] = 1;
  const maxArea = (w * h) / 50;
  const blobs: Blob[] = [];
  // Mask pixels are 1; visited pixels are marked 2.
  const stack = new Int32Array(w * h);
  const enter = (q: number): boolean => {
    if (mask[q] !== 1) return false;
    mask[q] = 2;
    return true;
  };
  for (let start = 0; start < w * h; start++) {
    if (mask[start] !== 1) continue;
    mask[start] = 2;
    const { x0: minX, y0: minY, x1: maxX, y1: maxY, count: area } = floodRegion(w, h, start, stack, enter);
    const bw = maxX - minX + 1;
    const bh = maxY - minY + 1;
    if (area < o.minArea || area > maxArea) continue;
    if (minX === 0 || minY === 0 || maxX === w - 1 || maxY === h - 1) continue; // cut by the frame edge
    const fill = area / (bw * bh);
    if (fill < 0.55 || fill > 0.95 || Math.max(bw, bh) > 2 * Math.min(bw, bh)) continue;
    const c = weightedCentroid(img, minX, minY, maxX, maxY);
    if (c) blobs.push({ x: c.x, y: c.y, area, width: bw, height: bh });
  }
  return blobs;
}

/**
 * Centroid of brightness above a floor over the blob's box grown by a quarter of its size: the floor is
 * the surrounding ring's mean plus a quarter of the way to the peak, so a gentle background slope (glare,
 * vignetting) adds no weight on one side only.
 */
function weightedCentroid(
  img: GrayImage,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): { x: number; y: number } | null {
  const { width: w, height: h, data } = img;
  const m = Math.ceil(0.25 * Math.max(maxX - minX + 1, maxY - minY + 1)) + 2;
  const x0 = Math.max(0, minX - m);
  const y0 = Math.max(0, minY - m);
  const x1 = Math.min(w - 1, maxX + m);
  const y1 = Math.min(h - 1, maxY + m);
  let ring = 0;
  let ringN = 0;
  let peak = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const v = data[y * w + x] ?? 0;
      if (v > peak) peak = v;
      if (x === x0 || x === x1 || y === y0 || y === y1) {
        ring += v;
        ringN++;
      }
    }
  const floor = ring / Math.max(1, ringN);
  const cut = floor + 0.25 * (peak - floor);
  let sw = 0;
  let sx = 0;
  let sy = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const wt = (data[y * w + x] ?? 0) - cut;
      if (wt <= 0) continue;
      sw += wt;
      sx += wt * (x + 0.5);
      sy += wt * (y + 0.5);
    }
  return sw > 0 ? { x: sx / sw, y: sy / sw } : null;
}
