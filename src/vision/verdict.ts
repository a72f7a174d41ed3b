import type { RgbImage } from "../shared/image.js";

/**
 * The change verdict a gesture reports: did the screen visibly change between the frame before and the
 * frame after? Compared on small, brightness-normalised grey images (camera exposure drifts), with the
 * status bar ignored (its clock ticks), block by block (a passcode dot filling in is a change even though
 * it is a tiny fraction of the screen), and with a check that the whole picture did not simply shift
 * (the phone or camera moved: the calibration no longer holds, so the honest answer is `unknown`).
 */
export type Verdict = "changed" | "no visible change" | "unknown";

export interface VerdictResult {
  verdict: Verdict;
  /** Fraction of compared blocks that changed. */
  changedFraction: number;
  /** Largest block difference, in grey levels after normalisation (0–255 scale). */
  maxBlockDiff: number;
  /** Best whole-image alignment shift, in screen fractions of the width (0 = aligned). */
  shift: { dx: number; dy: number };
  reason: string;
}

export interface VerdictOptions {
  /** Width of the grey comparison image (height follows the aspect). */
  width: number;
  /** Top fraction ignored (status bar). */
  ignoreTop: number;
  /** Block edge in comparison pixels. */
  block: number;
  /** A block whose mean absolute difference exceeds this (0–255) changed. */
  blockThreshold: number;
  /** Largest whole-image shift searched, in comparison pixels. */
  maxShift: number;
}

export const DEFAULT_VERDICT_OPTIONS: VerdictOptions = {
  width: 96,
  ignoreTop: 0.06,
  block: 4,
  blockThreshold: 18,
  maxShift: 3,
};

/** A small grey image: `w`×`h` cells, row-major values. */
export interface Grey {
  w: number;
  h: number;
  v: Float32Array;
}

/**
 * Area-average grey (Rec. 601 luma) down to `w` cells wide, keeping the aspect: the cheap statistics
 * the change verdict and the runtime's poll hook both work on (no model run).
 */
export function greyGrid(image: RgbImage, w: number): Grey {
  const h = Math.max(1, Math.round((image.height / image.width) * w));
  const sums = new Float64Array(w * h);
  const counts = new Uint32Array(w * h);
  const sx = w / image.width;
  const sy = h / image.height;
  const d = image.data;
  for (let y = 0; y < image.height; y++) {
    const row = Math.min(h - 1, Math.floor(y * sy)) * w;
    for (let x = 0, o = y * image.width * 3; x < image.width; x++, o += 3) {
      const i = row + Math.min(w - 1, Math.floor(x * sx));
      // Not `luma()`: adding the terms one by one rounds differently, and the grid must stay bit-exact.
      sums[i] = (sums[i] ?? 0) + 0.299 * (d[o] ?? 0) + 0.587 * (d[o + 1] ?? 0) + 0.114 * (d[o + 2] ?? 0);
      counts[i] = (counts[i] ?? 0) + 1;
    }
  }
  const v = new Float32Array(w * h);
  for (let i = 0; i < v.length; i++) v[i] = (sums[i] ?? 0) / Math.max(1, counts[i] ?? 0);
  return { w, h, v };
}

/** `greyGrid`, then normalised to mean 128 and a standard deviation of 48 (rows below `ignoreTop`). */
export function greySmall(image: RgbImage, w: number, ignoreTop: number): Grey {
  const { h, v } = greyGrid(image, w);
  const top = Math.ceil(ignoreTop * h);
  let mean = 0;
  let n = 0;
  for (let i = top * w; i < v.length; i++) {
    mean += v[i] ?? 0;
    n++;
  }
  mean /= Math.max(1, n);
  let varSum = 0;
  for (let i = top * w; i < v.length; i++) varSum += ((v[i] ?? 0) - mean) ** 2;
  const sd = Math.sqrt(varSum / Math.max(1, n));
  // A flat screen (off, or one colour) has no contrast to normalise: only remove the offset.
  const gain = sd > 4 ? 48 / sd : 1;
  for (let i = 0; i < v.length; i++) v[i] = 128 + ((v[i] ?? 0) - mean) * gain;
  return { w, h, v };
}

/** Mean absolute difference of `a` and `b` shifted by (dx, dy), over rows ≥ top (and rows < bottom). */
function meanDiff(a: Grey, b: Grey, dx: number, dy: number, top: number, bottom = a.h): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.max(top, top - dy, 0); y < Math.min(bottom, a.h - dy, a.h); y++) {
    for (let x = Math.max(0, -dx); x < Math.min(a.w, a.w - dx); x++) {
      sum += Math.abs((a.v[y * a.w + x] ?? 0) - (b.v[(y + dy) * b.w + x + dx] ?? 0));
      n++;
    }
  }
  return n ? sum / n : 0;
}

function bestShift(
  a: Grey,
  b: Grey,
  max: number,
  top: number,
  bottom?: number,
): { dx: number; dy: number; diff: number } {
  let best = { dx: 0, dy: 0, diff: meanDiff(a, b, 0, 0, top, bottom) };
  for (let dy = -max; dy <= max; dy++)
    for (let dx = -max; dx <= max; dx++) {
      if (dx === 0 && dy === 0) continue;
      const diff = meanDiff(a, b, dx, dy, top, bottom);
      if (diff < best.diff * 0.8) best = { dx, dy, diff };
    }
  return best;
}

export function compareScreens(
  before: RgbImage,
  after: RgbImage,
  options: VerdictOptions = DEFAULT_VERDICT_OPTIONS,
): VerdictResult {
  const a = greySmall(before, options.width, options.ignoreTop);
  const b = greySmall(after, options.width, options.ignoreTop);
  if (a.h !== b.h)
    return {
      verdict: "unknown",
      changedFraction: 0,
      maxBlockDiff: 0,
      shift: { dx: 0, dy: 0 },
      reason: "the before and after frames have different shapes",
    };
  const top = Math.ceil(options.ignoreTop * a.h);
  // Whole picture shifted, status bar included, and matching better once shifted: the rig moved, not the
  // UI (a scrolled list moves under a still status bar). Checked at twice the resolution: ~0.3 mm steps.
  const fa = greySmall(before, options.width * 2, options.ignoreTop);
  const fb = greySmall(after, options.width * 2, options.ignoreTop);
  const still = meanDiff(fa, fb, 0, 0, 0);
  const whole = bestShift(fa, fb, options.maxShift * 2, 0);
  const bar = bestShift(fa, fb, options.maxShift * 2, 0, Math.max(Math.ceil(options.ignoreTop * fa.h), 3));
  const shift = { dx: whole.dx / fa.w, dy: whole.dy / fa.w };
  const moved = whole.dx !== 0 || whole.dy !== 0;
  if (
    moved &&
    Math.abs(whole.dx - bar.dx) <= 1 &&
    Math.abs(whole.dy - bar.dy) <= 1 &&
    whole.diff < 0.7 * still
  ) {
    return {
      verdict: "unknown",
      changedFraction: 0,
      maxBlockDiff: 0,
      shift,
      reason: "the whole screen shifted in the camera view: the phone or camera moved (recalibrate)",
    };
  }
  const bs = options.block;
  let changed = 0;
  let blocks = 0;
  let maxBlockDiff = 0;
  for (let by = top; by + bs <= a.h; by += bs) {
    for (let bx = 0; bx + bs <= a.w; bx += bs) {
      let sum = 0;
      for (let y = by; y < by + bs; y++)
        for (let x = bx; x < bx + bs; x++) sum += Math.abs((a.v[y * a.w + x] ?? 0) - (b.v[y * b.w + x] ?? 0));
      const mean = sum / (bs * bs);
      maxBlockDiff = Math.max(maxBlockDiff, mean);
      blocks++;
      if (mean > options.blockThreshold) changed++;
    }
  }
  const changedFraction = blocks ? changed / blocks : 0;
  return changed > 0
    ? {
        verdict: "changed",
        changedFraction,
        maxBlockDiff,
        shift,
        reason: `${changed} of ${blocks} regions changed`,
      }
    : { verdict: "no visible change", changedFraction, maxBlockDiff, shift, reason: "no region changed" };
}
