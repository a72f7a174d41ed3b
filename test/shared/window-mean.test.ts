import { describe, expect, it } from "vitest";
import { summedArea, windowMean } from "../../src/shared/window-mean.js";

/** The window mean by brute force, clipped to the grid. */
function bruteMean(v: number[], w: number, h: number, x: number, y: number, r: number): number {
  let sum = 0;
  let n = 0;
  for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
    for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
      sum += v[yy * w + xx] as number;
      n++;
    }
  return sum / n;
}

describe("windowMean", () => {
  it("equals the brute-force mean of the clipped window everywhere, edges included", () => {
    const w = 13;
    const h = 9;
    // A fixed pseudo-random grid (LCG), so the test is the same on every run.
    let seed = 7;
    const v = Array.from({ length: w * h }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 256;
    });
    const table = summedArea(v, w, h);
    for (const r of [0, 1, 3, 20])
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
          expect(windowMean(table, w, h, x, y, r)).toBeCloseTo(bruteMean(v, w, h, x, y, r), 9);
  });
});
