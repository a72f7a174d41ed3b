import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { smoothGrid } from "../../src/vision/smooth-grid.js";
import { GRID_WIDTH, type Grid } from "../../src/vision/switches-grid.js";

/**
 * `smoothGrid` sums each grid row's three pixel rows column by column once (session 12, h-perf); before,
 * each cell summed its nine pixels (cells overlap on a 585 px camera frame, so pixels were read up to
 * four times). This is the cell-by-cell code (unchanged, comments left out): the grids must be equal.
 */
function cellByCell(image: RgbImage): Grid {
  const { width: W, height: H, data } = image;
  const step = W / GRID_WIDTH;
  const w = GRID_WIDTH;
  const h = Math.max(1, Math.floor(H / step));
  const rgb = new Uint8Array(w * h * 3);
  for (let gy = 0; gy < h; gy++) {
    const y = Math.min(H - 2, Math.max(1, Math.floor((gy + 0.5) * step)));
    for (let gx = 0; gx < w; gx++) {
      const x = Math.min(W - 2, Math.max(1, Math.floor((gx + 0.5) * step)));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1, o = ((y + dy) * W + x - 1) * 3; dx <= 1; dx++, o += 3) {
          r += data[o] ?? 0;
          g += data[o + 1] ?? 0;
          b += data[o + 2] ?? 0;
        }
      const c = (gy * w + gx) * 3;
      rgb[c] = Math.round(r / 9);
      rgb[c + 1] = Math.round(g / 9);
      rgb[c + 2] = Math.round(b / 9);
    }
  }
  return { w, h, rgb };
}

describe("smoothGrid", () => {
  it("is the cell-by-cell mean of 3×3 pixels (random images, camera and screenshot widths)", () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const [width, height] of [
      [585, 700],
      [1170, 900],
      [1242, 300],
      [828, 500],
      [390, 50],
      [200, 120],
      [3, 3],
      [2, 9],
      [7, 1],
    ] as const) {
      const data = Buffer.alloc(width * height * 3);
      for (let i = 0; i < data.length; i++) data[i] = random() < 0.5 ? Math.floor(random() * 256) : 255;
      const image: RgbImage = { width, height, channels: 3, data };
      const got = smoothGrid(image);
      const want = cellByCell(image);
      expect([got.w, got.h]).toEqual([want.w, want.h]);
      expect(Buffer.compare(got.rgb, want.rgb)).toBe(0);
    }
  });
});
