import { describe, expect, it } from "vitest";
import { endsWithRaisedMark, tightenToInk, withLeadingDash } from "../../../src/vision/ocr/ink.js";
import { canvas, ring, stem, whole } from "./ink-fixtures.js";

describe("endsWithRaisedMark", () => {
  it("is true for a small ring at the top right of the line (a degree sign)", () => {
    expect(endsWithRaisedMark(canvas([stem, ...ring(18, 10, 27, 19)]), whole)).toBe(true);
  });

  it("is false when the last glyph reaches the baseline (a real 0) or there is no ink", () => {
    expect(endsWithRaisedMark(canvas([stem, ...ring(18, 10, 32, 40)]), whole)).toBe(false);
    expect(endsWithRaisedMark(canvas([]), whole)).toBe(false);
  });
});

describe("tightenToInk", () => {
  it("shrinks a padded region to its ink (plus a pixel), and keeps a region without ink", () => {
    const t = tightenToInk(canvas([stem, ...ring(18, 10, 27, 19)]), whole);
    expect([t.x0, t.y0, t.x1, t.y1]).toEqual([9, 9, 28, 41]);
    expect(tightenToInk(canvas([]), whole)).toEqual(whole);
  });
});

describe("withLeadingDash", () => {
  const region = { x0: 24, y0: 10, x1: 58, y1: 40, score: 0.9 };
  it("takes in a dash just left of the region, at mid height", () => {
    const image = canvas([
      [14, 24, 21, 27],
      [26, 12, 30, 38],
    ]);
    expect(withLeadingDash(image, region).x0).toBe(12);
  });
  it("leaves the region alone when the ink to its left is a tall glyph or nothing", () => {
    expect(
      withLeadingDash(
        canvas([
          [14, 12, 18, 38],
          [26, 12, 30, 38],
        ]),
        region,
      ),
    ).toEqual(region);
    expect(withLeadingDash(canvas([[26, 12, 30, 38]]), region)).toEqual(region);
  });
});
