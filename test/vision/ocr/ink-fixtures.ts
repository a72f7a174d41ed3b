import type { RgbImage } from "../../../src/shared/image.js";

/** Crude glyph lines drawn with rectangles, shared by the ink-mark tests (raised marks, degree rings). */

type Rect = [number, number, number, number];

/** White 60×50 canvas with dark rectangles `[x0, y0, x1, y1)` (a crude glyph line). */
export function canvas(rects: Rect[]): RgbImage {
  const width = 60;
  const height = 50;
  const data = Buffer.alloc(width * height * 3, 255);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y < y1; y++) data.fill(30, (y * width + x0) * 3, (y * width + x1) * 3);
  return { width, height, channels: 3, data };
}

/** The whole canvas as the line's detected region. */
export const whole = { x0: 0, y0: 0, x1: 60, y1: 50, score: 1 };
/** A digit-like stroke from the cap height (y 10) to the baseline (y 40). */
export const stem: Rect = [10, 10, 14, 40];
/** A ring's outline (2 px stroke): top, bottom, left, right edges. */
export const ring = (x0: number, y0: number, x1: number, y1: number): Rect[] => [
  [x0, y0, x1, y0 + 2],
  [x0, y1 - 2, x1, y1],
  [x0, y0, x0 + 2, y1],
  [x1 - 2, y0, x1, y1],
];
