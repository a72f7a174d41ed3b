import type { RgbImage } from "../shared/image.js";
import { GRID_WIDTH, type Grid } from "./switches-grid.js";

/**
 * The switch finder's grid (`GRID_WIDTH` cells across, about one per point), each cell the mean of the
 * 3 × 3 pixels round its centre: through a camera the rectified frame is ~1.5 px a cell and its sensor
 * noise alone moves a single pixel by about `SAME`, which splits a thin track's runs and cuts its
 * height; the mean of nine pixels keeps a third of that. On a screenshot (3 px a cell) it is the cell.
 */
export function smoothGrid(image: RgbImage): Grid {
  const { width: W, height: H, data } = image;
  const step = W / GRID_WIDTH;
  const w = GRID_WIDTH;
  const h = Math.max(1, Math.floor(H / step));
  if (W < 3 || H < 3) return smoothGridByCell(image, w, h);
  const rgb = new Uint8Array(w * h * 3);
  const xs = new Int32Array(w);
  for (let gx = 0; gx < w; gx++) xs[gx] = Math.min(W - 2, Math.max(1, Math.floor((gx + 0.5) * step)));
  // Per grid row, each column's sum over the three pixel rows first (every pixel read once, not once per
  // cell whose 3 × 3 it falls in: cells overlap at 1.5 px a cell), then three columns a cell. Integer
  // sums in the same order of magnitude, so the same means as summing nine pixels.
  const cols = new Uint16Array(W * 3);
  const n = W * 3;
  for (let gy = 0; gy < h; gy++) {
    const y = Math.min(H - 2, Math.max(1, Math.floor((gy + 0.5) * step)));
    const a = (y - 1) * n;
    for (let i = 0; i < n; i++)
      cols[i] = (data[a + i] as number) + (data[a + n + i] as number) + (data[a + 2 * n + i] as number);
    for (let gx = 0, c = gy * w * 3; gx < w; gx++, c += 3) {
      const o = ((xs[gx] as number) - 1) * 3;
      rgb[c] = Math.round(((cols[o] as number) + (cols[o + 3] as number) + (cols[o + 6] as number)) / 9);
      rgb[c + 1] = Math.round(
        ((cols[o + 1] as number) + (cols[o + 4] as number) + (cols[o + 7] as number)) / 9,
      );
      rgb[c + 2] = Math.round(
        ((cols[o + 2] as number) + (cols[o + 5] as number) + (cols[o + 8] as number)) / 9,
      );
    }
  }
  return { w, h, rgb };
}

/** `smoothGrid` cell by cell, for an image under 3 pixels on a side (pixels outside it read as 0). */
function smoothGridByCell(image: RgbImage, w: number, h: number): Grid {
  const { width: W, height: H, data } = image;
  const step = W / GRID_WIDTH;
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
