import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { blankRuns, SPLIT_GAP, splitAtGaps } from "../../../src/vision/ocr/split.js";

/** A white 300×40 image with black blocks (x ranges) 20 px tall: words, as far as the gaps go. */
function words(blocks: [number, number][]): RgbImage {
  const w = 300;
  const h = 40;
  const data = Buffer.alloc(w * h * 3, 255);
  for (const [a, b] of blocks) for (let y = 10; y < 30; y++) data.fill(0, (y * w + a) * 3, (y * w + b) * 3);
  return { width: w, height: h, channels: 3, data };
}
/** The ink box: 20 px tall. */
const LINE = { x0: 10, y0: 10, x1: 290, y1: 30, score: 1 };

describe("splitAtGaps", () => {
  it("cuts two labels apart at a gap of more than an em, at the space read in it", () => {
    // "Notifications" 10–120, a 60 px (3 ink heights) gap, "Favorites" 180–290; the space read at 150.
    const img = words([
      [10, 120],
      [180, 290],
    ]);
    const pieces = splitAtGaps(img, LINE, "Notifications Favorites", [{ index: 13, x: 150 }]);
    expect(pieces.map((p) => p.text)).toEqual(["Notifications", "Favorites"]);
    expect(pieces[0]?.x1).toBe(120);
    expect(pieces[1]?.x0).toBe(180);
  });

  it("keeps word spaces, and a wide gap with no space read in it", () => {
    const spaced = words([
      [10, 60],
      [68, 120],
    ]);
    expect(splitAtGaps(spaced, LINE, "Don't Allow", [{ index: 5, x: 64 }]).map((p) => p.text)).toEqual([
      "Don't Allow",
    ]);
    const icon = words([
      [10, 30],
      [90, 200],
    ]);
    // The space is read between two words of the text, far from the icon's gap.
    expect(splitAtGaps(icon, LINE, "Enable IPv6", [{ index: 6, x: 150 }])).toHaveLength(1);
  });

  it("finds blank runs only between inked columns and at least as wide as asked", () => {
    const img = words([
      [10, 50],
      [50 + SPLIT_GAP * 20 + 1, 200],
    ]);
    expect(blankRuns(img, LINE, SPLIT_GAP * 20)).toHaveLength(1);
    expect(blankRuns(img, LINE, 60)).toHaveLength(0);
  });
});

describe("splitAtGaps: a rank beside a name (camera blur)", () => {
  it("cuts at a gap of 1.05 ink heights, which a blurred camera frame leaves of a 1.15 one", () => {
    // "12" 10–40, a 21 px gap (1.05 × 20 px), "Ludmila" 61–200; the space read in the gap's middle.
    const img = words([
      [10, 40],
      [61, 200],
    ]);
    const pieces = splitAtGaps(img, LINE, "12 Ludmila", [{ index: 2, x: 50 }]);
    expect(pieces.map((p) => p.text)).toEqual(["12", "Ludmila"]);
  });
});

describe("splitAtGaps: loosely set text", () => {
  it("does not cut a line whose word spaces are all nearly as wide as the gap", () => {
    // Gaps of 16 px (0.8 ink heights, a word space read in it) and 24 px (1.2): not twice the word space.
    const img = words([
      [10, 60],
      [76, 130],
      [154, 200],
    ]);
    const spaces = [
      { index: 9, x: 68 },
      { index: 13, x: 142 },
    ];
    expect(splitAtGaps(img, LINE, "published the constitution", spaces)).toHaveLength(1);
  });
});
