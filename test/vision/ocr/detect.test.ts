import { describe, expect, it } from "vitest";
import { dbBoxes, detectionInput, detectionSize } from "../../../src/vision/ocr/detect.js";

/** A `width`×`height` probability map with the given rectangles set to `p`. */
function probMap(
  width: number,
  height: number,
  rects: [number, number, number, number, number][],
): Float32Array {
  const map = new Float32Array(width * height);
  for (const [x0, y0, x1, y1, p] of rects)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) map[y * width + x] = p;
  return map;
}

const DB = { binaryThreshold: 0.3, boxThreshold: 0.5, unclipRatio: 1.5 };

describe("detectionSize", () => {
  it("keeps the aspect at the requested width, in multiples of 32, never wider than the source", () => {
    expect(detectionSize(1170, 2532, 320)).toEqual({ width: 320, height: 704 });
    expect(detectionSize(200, 100, 320)).toEqual({ width: 192, height: 96 });
    expect(detectionSize(3, 3, 320)).toEqual({ width: 32, height: 32 });
  });
});

describe("detectionInput", () => {
  it("area-averages and normalises each channel into planar layout", () => {
    // 4×2 image: left half pure red, right half pure blue; shrink to 2×1.
    const data = Buffer.alloc(4 * 2 * 3);
    for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) data[(y * 4 + x) * 3 + (x < 2 ? 0 : 2)] = 255;
    const t = detectionInput({ width: 4, height: 2, channels: 3, data }, 2, 1);
    const norm = (v: number, mean: number, std: number) => (v / 255 - mean) / std;
    expect(t[0]).toBeCloseTo(norm(255, 0.485, 0.229), 4); // R, left
    expect(t[1]).toBeCloseTo(norm(0, 0.485, 0.229), 4); // R, right
    expect(t[4]).toBeCloseTo(norm(0, 0.406, 0.225), 4); // B, left
    expect(t[5]).toBeCloseTo(norm(255, 0.406, 0.225), 4); // B, right
  });
});

describe("dbBoxes", () => {
  it("finds one box per separate region, grown by the unclip offset", () => {
    const map = probMap(100, 40, [
      [10, 10, 30, 18, 0.9],
      [60, 10, 90, 18, 0.9],
    ]);
    const boxes = dbBoxes(map, 100, 40, DB).sort((a, b) => a.x0 - b.x0);
    expect(boxes).toHaveLength(2);
    const d = (20 * 8 * 1.5) / (2 * 28);
    expect(boxes[0]?.x0).toBeCloseTo(10 - d);
    expect(boxes[0]?.y1).toBeCloseTo(18 + d);
    expect(boxes[0]?.score).toBeCloseTo(0.9);
  });

  it("drops regions whose mean score is below the box threshold, or thinner than 3 px", () => {
    const map = probMap(100, 40, [
      [10, 10, 30, 18, 0.4], // above the binary threshold but a weak region
      [60, 10, 90, 12, 0.9], // 2 px tall
    ]);
    expect(dbBoxes(map, 100, 40, DB)).toEqual([]);
  });

  it("cuts two neighbours' grown boxes at the middle of the gap instead of letting them overlap", () => {
    const map = probMap(100, 40, [
      [10, 10, 40, 20, 0.9],
      [44, 10, 80, 20, 0.9],
    ]);
    const [a, b] = dbBoxes(map, 100, 40, DB).sort((p, q) => p.x0 - q.x0);
    expect(a?.x1).toBeCloseTo(42);
    expect(b?.x0).toBeCloseTo(42);
    expect(a?.y0).toBeLessThan(10); // still grown vertically
  });

  it("scores a region over its own outline, so a label joined at a slant to an icon is kept", () => {
    // A label (40×7) whose right end touches, one row down, an icon below it (8×10): every pixel is
    // confident, but their bounding rectangle is more than half empty.
    const map = probMap(100, 60, [
      [10, 10, 50, 17, 0.9],
      [46, 16, 54, 26, 0.9],
    ]);
    const boxes = dbBoxes(map, 100, 60, DB);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]?.score).toBeCloseTo(0.9);
    // The same shape read less surely is more likely an icon or a photo fragment: dropped.
    const unsure = probMap(100, 60, [
      [10, 10, 50, 17, 0.7],
      [46, 16, 54, 26, 0.7],
    ]);
    expect(dbBoxes(unsure, 100, 60, DB)).toEqual([]);
    // Rows are filled between their outermost pixels: two blobs joined by a thin bridge over a weak
    // stretch score that stretch too, and are dropped as before.
    const bridged = probMap(100, 40, [
      [10, 10, 20, 18, 0.9],
      [20, 10, 60, 18, 0.1],
      [60, 10, 70, 18, 0.9],
      [20, 10, 60, 11, 0.9],
    ]);
    expect(dbBoxes(bridged, 100, 40, DB)).toEqual([]);
  });

  it("returns nothing for an empty map", () => {
    expect(dbBoxes(new Float32Array(64 * 32), 64, 32, DB)).toEqual([]);
  });
});
