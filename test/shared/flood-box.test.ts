import { describe, expect, it } from "vitest";
import { floodRegion } from "../../src/shared/flood-box.js";

/** Parses a picture of a grid: `#` cells belong, `.` do not. */
function grid(rows: string[]): { w: number; h: number; cells: Uint8Array } {
  const w = rows[0]?.length ?? 0;
  const cells = new Uint8Array(w * rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < w; x++) if (row[x] === "#") cells[y * w + x] = 1;
  });
  return { w, h: rows.length, cells };
}

function fillFrom(rows: string[], sx: number, sy: number) {
  const { w, h, cells } = grid(rows);
  const start = sy * w + sx;
  cells[start] = 2;
  const enter = (q: number): boolean => {
    if (cells[q] !== 1) return false;
    cells[q] = 2;
    return true;
  };
  return { region: floodRegion(w, h, start, new Int32Array(w * h), enter), cells };
}

describe("floodRegion", () => {
  it("bounds and counts a 4-connected region, not its diagonal neighbour", () => {
    const { region, cells } = fillFrom(["#....", "..##.", ".###.", "....#"], 2, 1);
    expect(region).toEqual({ x0: 1, y0: 1, x1: 3, y1: 2, count: 5 });
    // The corner cells touch the region only diagonally: never entered.
    expect(cells[0]).toBe(1);
    expect(cells[19]).toBe(1);
  });

  it("follows a winding region to the grid's edges and enters each cell once", () => {
    const rows = ["####", "...#", "####", "#...", "####"];
    const { w, h, cells } = grid(rows);
    cells[0] = 2;
    const region = floodRegion(w, h, 0, new Int32Array(w * h), (q) => {
      if (cells[q] !== 1) return false;
      cells[q] = 2;
      return true;
    });
    expect(region).toEqual({ x0: 0, y0: 0, x1: 3, y1: 4, count: 14 });
    expect([...cells].filter((c) => c === 2)).toHaveLength(14);
    expect([...cells].filter((c) => c === 1)).toHaveLength(0);
  });

  it("is a region of one cell when no neighbour belongs", () => {
    expect(fillFrom(["...", ".#.", "..."], 1, 1).region).toEqual({ x0: 1, y0: 1, x1: 1, y1: 1, count: 1 });
  });
});
