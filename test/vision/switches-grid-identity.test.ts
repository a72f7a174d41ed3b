import { describe, expect, it } from "vitest";
import { undimmedGrids } from "../../src/vision/switches-disabled.js";
import {
  brightness,
  cell,
  cellBrightness,
  cellDiff,
  diff,
  GRID_WIDTH,
  type Grid,
  meanGrid,
} from "../../src/vision/switches-grid.js";

/**
 * Speed-ups of the switch grid's readers (session 14, h-perf3) must give the numbers the old code gave:
 * `cellDiff` / `cellBrightness` are `diff(cell(…), c)` / `brightness(cell(…))` read in place, and
 * `undimmedGrids` looks each byte's undimmed value up instead of computing it a byte.
 */
function randomGrid(seed: number, h: number): Grid {
  let s = seed;
  const rand = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const rgb = new Uint8Array(GRID_WIDTH * h * 3);
  // Large flat patches (two backgrounds for `undimmedGrids`) and noise.
  for (let i = 0; i < rgb.length; i += 3) {
    const x = (i / 3) % GRID_WIDTH;
    const base = x > GRID_WIDTH * 0.6 ? 242 : x > GRID_WIDTH * 0.3 ? 28 : Math.floor(rand() * 256);
    for (let c = 0; c < 3; c++) rgb[i + c] = rand() < 0.9 ? base : Math.floor(rand() * 256);
  }
  return { w: GRID_WIDTH, h, rgb };
}

/** `undimmedGrids`' per-byte formula before the lookup table (unchanged, comments left out). */
function undimByByte(g: Grid, bg: readonly number[]): Uint8Array {
  const mean = meanGrid(g).rgb;
  const rgb = new Uint8Array(g.rgb.length);
  for (let i = 0; i < rgb.length; i++) {
    const b = bg[i % 3] ?? 0;
    rgb[i] = Math.max(0, Math.min(255, Math.round(((mean[i] ?? 0) - 0.5 * b) / 0.5)));
  }
  return rgb;
}

describe("switch grid readers", () => {
  it("cellDiff and cellBrightness equal diff(cell) and brightness(cell), edges included", () => {
    const g = randomGrid(7, 40);
    const colours = [
      [0, 0, 0],
      [255, 255, 255],
      [120, 37, 200],
    ];
    for (let y = -1; y <= g.h; y++)
      for (let x = -2; x <= g.w + 1; x++) {
        expect(cellBrightness(g, x, y)).toBe(brightness(cell(g, x, y)));
        for (const c of colours) expect(cellDiff(g, x, y, c)).toBe(diff(cell(g, x, y), c));
      }
  });

  it("undimmedGrids gives the per-byte formula's grids", () => {
    let compared = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const g = randomGrid(seed, 120 + seed * 17);
      for (const { grid, bg } of undimmedGrids(g)) {
        expect(Buffer.from(grid.rgb).equals(Buffer.from(undimByByte(g, bg)))).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5);
  });
});
