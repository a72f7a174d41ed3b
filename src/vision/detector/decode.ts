import { type FracBox, iou } from "../../shared/box.js";
import { PiclawError } from "../../util/errors.js";
import type { DetectedObject } from "../types.js";
import type { Letterbox } from "./preprocess.js";

/** Thresholds and classes for turning a raw output tensor into objects. */
export interface DecodeOptions {
  classes: readonly string[];
  confThreshold: number;
  iouThreshold: number;
  maxDetections: number;
}

/** A candidate in input pixels, before it is mapped back to the image. */
export interface PixelDetection {
  cls: number;
  conf: number;
  /** `[x1, y1, x2, y2]` in model-input pixels. */
  box: [number, number, number, number];
}

/**
 * Greedy non-maximum suppression per class: within a class, a box is kept unless a higher-scoring
 * kept box overlaps it by more than `iouThreshold`. Boxes of different classes never suppress each
 * other (a toggle and its row label may overlap). Returns at most `maxDetections`, best first.
 */
export function nmsByClass(
  dets: readonly PixelDetection[],
  iouThreshold: number,
  maxDetections: number,
): PixelDetection[] {
  const sorted = [...dets].sort((a, b) => b.conf - a.conf);
  const kept: PixelDetection[] = [];
  const byClass = new Map<number, PixelDetection[]>();
  for (const d of sorted) {
    const same = byClass.get(d.cls) ?? [];
    if (same.some((k) => iou(k.box, d.box) > iouThreshold)) continue;
    same.push(d);
    byClass.set(d.cls, same);
    kept.push(d);
    if (kept.length >= maxDetections) break;
  }
  return kept;
}

/**
 * Read candidates from a YOLOv8/YOLO11-layout output: `[1, 4+C, N]` (rows cx, cy, w, h, then one
 * score per class) or its transpose `[1, N, 4+C]`. Each column votes for its best class only.
 */
export function candidates(
  output: Float32Array,
  dims: readonly number[],
  opts: Pick<DecodeOptions, "classes" | "confThreshold">,
): PixelDetection[] {
  const rows = 4 + opts.classes.length;
  const [batch, d1, d2] = dims;
  if (
    dims.length !== 3 ||
    batch !== 1 ||
    d1 === undefined ||
    d2 === undefined ||
    (d1 !== rows && d2 !== rows)
  )
    throw new PiclawError(
      "DETECTOR_OUTPUT_SHAPE",
      `detector output must be [1, ${rows}, N] for ${opts.classes.length} classes`,
      {
        dims: [...dims],
        classes: [...opts.classes],
      },
    );
  const channelsFirst = d1 === rows;
  const n = channelsFirst ? d2 : d1;
  if (output.length < rows * n)
    throw new PiclawError("DETECTOR_OUTPUT_SHAPE", "detector output is shorter than its shape", {
      dims: [...dims],
      length: output.length,
    });
  const at = channelsFirst
    ? (r: number, i: number) => output[r * n + i] ?? 0
    : (r: number, i: number) => output[i * rows + r] ?? 0;
  const out: PixelDetection[] = [];
  for (let i = 0; i < n; i++) {
    let best = -1;
    let conf = -Infinity;
    for (let c = 0; c < opts.classes.length; c++) {
      const s = at(4 + c, i);
      if (s > conf) {
        conf = s;
        best = c;
      }
    }
    if (best < 0 || !(conf >= opts.confThreshold)) continue;
    const cx = at(0, i);
    const cy = at(1, i);
    const w = at(2, i);
    const h = at(3, i);
    if (!(w > 0 && h > 0)) continue;
    out.push({ cls: best, conf, box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2] });
  }
  return out;
}

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/** Input-pixel box → 0–1 fractions of the original image (undoing the letterbox), or null if empty. */
export function toFracBox(box: readonly number[], lb: Letterbox): FracBox | null {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = box;
  const fx = (v: number): number => clamp01((v - lb.padX) / lb.scaleX / lb.srcWidth);
  const fy = (v: number): number => clamp01((v - lb.padY) / lb.scaleY / lb.srcHeight);
  const out: FracBox = [fx(x1), fy(y1), fx(x2), fy(y2)];
  return out[2] > out[0] && out[3] > out[1] ? out : null;
}

/** The whole decode: candidates over the threshold, class-wise NMS, boxes in 0–1 of the image. */
export function decodeDetections(
  output: Float32Array,
  dims: readonly number[],
  lb: Letterbox,
  opts: DecodeOptions,
): DetectedObject[] {
  const kept = nmsByClass(candidates(output, dims, opts), opts.iouThreshold, opts.maxDetections);
  const objects: DetectedObject[] = [];
  for (const d of kept) {
    const box = toFracBox(d.box, lb);
    const cls = opts.classes[d.cls];
    if (box && cls !== undefined) objects.push({ cls, box, conf: Math.min(1, d.conf) });
  }
  return objects;
}
