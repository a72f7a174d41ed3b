import { luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { edgeLumas, middle } from "./ink-colour.js";

/**
 * Whether the words on the two sides of a gap are set in different weights. A UILabel draws its text in
 * one `font`, so the words of one label share a stroke width; a caption and its value set side by side
 * often do not: a bold caption then a regular value (`Elapsed Time:  2.3 Months`, `Age:  5.4 Months`),
 * the pattern of UIListContentConfiguration's `.valueCell` and of forms laid out by hand. SF Pro's stems
 * are ~0.08 em at Regular, ~0.12 at Semibold and ~0.14 at Bold (Apple, SF Pro font files, `wght` axis),
 * so Regular against Semibold or Bold differs by 1.4–1.7×, measured 1.6× on `c8-ibru-dashboard`.
 *
 * The stroke width of each side is its ink's coverage (each pixel's contrast over the line's largest,
 * capped at 1: blur spreads a stroke but keeps its sum) over the number of horizontal ink runs it
 * forms at half that contrast (one per stroke crossed): the mean width of the strokes a row crosses,
 * letters' shapes aside.
 */

/** Heavier over lighter stroke width from which two sides are two weights (Regular vs Medium is ~1.2). */
const WEIGHT_RATIO = 1.3;

/** Mean stroke width (px) of the ink in `x0`–`x1` of `line`, or null with too little ink to judge. */
function strokeWidth(
  image: RgbImage,
  line: PixelBox,
  x0: number,
  x1: number,
  bg: number,
  peak: number,
): number | null {
  const ya = Math.max(0, Math.floor(line.y0));
  const yb = Math.min(image.height, Math.ceil(line.y1));
  const xa = Math.max(0, Math.floor(x0));
  const xb = Math.min(image.width, Math.ceil(x1));
  let coverage = 0;
  let strokes = 0;
  for (let y = ya; y < yb; y++) {
    let inRun = false;
    for (let x = xa; x < xb; x++) {
      const d = Math.abs(luma(image.data, (y * image.width + x) * 3) - bg);
      coverage += Math.min(1, d / peak);
      const ink = d > peak / 2;
      if (ink && !inRun) strokes++;
      inRun = ink;
    }
  }
  // A few letters' worth: a glyph's row crosses one to three strokes.
  return strokes >= 12 ? coverage / strokes : null;
}

/**
 * Whether the ink within `reach` px left of the gap `x0`–`x1` and within `reach` right of it are two
 * font weights (stroke widths `WEIGHT_RATIO` apart).
 */
export function inkWeightsDiffer(
  image: RgbImage,
  line: PixelBox,
  gap: { x0: number; x1: number },
  reach: number,
): boolean {
  const m = Math.max(1, Math.round(0.1 * (line.y1 - line.y0)));
  const x0 = Math.max(0, Math.floor(line.x0));
  const x1 = Math.min(image.width, Math.ceil(line.x1));
  const bg = middle(
    edgeLumas(
      image,
      x0,
      x1,
      Math.max(0, Math.floor(line.y0) - m),
      Math.min(image.height - 1, Math.ceil(line.y1) - 1 + m),
    ),
  );
  let peak = 0;
  for (let y = Math.max(0, Math.floor(line.y0)); y < Math.min(image.height, Math.ceil(line.y1)); y++)
    for (let x = x0; x < x1; x++)
      peak = Math.max(peak, Math.abs(luma(image.data, (y * image.width + x) * 3) - bg));
  if (peak < 48) return false;
  const left = strokeWidth(image, line, Math.max(line.x0, gap.x0 - reach), gap.x0, bg, peak);
  const right = strokeWidth(image, line, gap.x1, Math.min(line.x1, gap.x1 + reach), bg, peak);
  if (left === null || right === null) return false;
  return Math.max(left, right) >= WEIGHT_RATIO * Math.min(left, right);
}
