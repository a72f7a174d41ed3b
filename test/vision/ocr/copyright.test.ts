import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { leadingCopyright } from "../../../src/vision/ocr/copyright.js";

/** A white 200×40 image: a 24 px ring at x 10–33 (rows 8–31) holding `inner`, then a 24 px letter at 60. */
function ringLine(inner: "c" | "dot" | "none"): RgbImage {
  const w = 200;
  const h = 40;
  const data = Buffer.alloc(w * h * 3, 255);
  const ink = (x: number, y: number) => data.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const r = Math.hypot(x - 21.5, y - 19.5);
      if (r >= 10 && r <= 12) ink(x, y);
      // A C: a ring of radius 4–5.5 open on the right; a dot: a filled disc of radius 5.
      if (inner === "c" && r >= 4 && r <= 5.5 && x < 24) ink(x, y);
      if (inner === "dot" && r <= 5) ink(x, y);
      if (x >= 60 && x < 66 && y >= 8 && y < 32) ink(x, y);
    }
  return { width: w, height: h, channels: 3, data };
}
const LINE = { x0: 9, y0: 7, x1: 67, y1: 33, score: 1 };

describe("leadingCopyright", () => {
  it("puts back a © the decode left blank: a ring holding an open letter before the first character", () => {
    expect(leadingCopyright("J R Eyerman", { index: 0, x: 63 }, ringLine("c"), LINE)).toBe("© J R Eyerman");
  });

  it("leaves a ring with a dot (a radio button), an empty ring, and a line read from its left edge", () => {
    expect(leadingCopyright("Option", { index: 0, x: 63 }, ringLine("dot"), LINE)).toBe("Option");
    expect(leadingCopyright("Option", { index: 0, x: 63 }, ringLine("none"), LINE)).toBe("Option");
    // The first character read on the ring itself (the ring was read, e.g. as `O`).
    expect(leadingCopyright("O J", { index: 0, x: 21 }, ringLine("c"), LINE)).toBe("O J");
  });
});
