import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { capitalBars } from "../../../src/vision/ocr/cap-bar.js";
import { loadRealImage } from "../real-set.js";
import { useRealOcrEngine } from "./real-engine.js";

/** A white 80×50 image: a capital (a block 20 wide, rows 10–39) and a 4 px stem from row `top` to 39. */
function capitalThenStem(top: number, capH = 30): RgbImage {
  const w = 80;
  const h = 50;
  const data = Buffer.alloc(w * h * 3, 255);
  const fill = (x0: number, x1: number, y0: number, y1: number) => {
    for (let y = y0; y < y1; y++) data.fill(0, (y * w + x0) * 3, (y * w + x1) * 3);
  };
  fill(10, 30, 40 - capH, 40);
  fill(36, 40, top, 40);
  return { width: w, height: h, channels: 3, data };
}
const LINE = { x0: 8, y0: 4, x1: 44, y1: 43, score: 1 };
const GLYPHS = [
  { index: 0, x: 20 },
  { index: 1, x: 38 },
];

describe("capitalBars", () => {
  it("reads a stem at the capital's height after a capital as `I`", () => {
    expect(capitalBars("Al", GLYPHS, capitalThenStem(10), LINE)).toBe("AI");
  });

  it("keeps an `l` that rises above the capitals, one before a small letter, and small lines", () => {
    // SF Pro's `l` reaches the ascender line, ~0.05 em above cap height.
    expect(capitalBars("Al", GLYPHS, capitalThenStem(8), LINE)).toBe("Al");
    expect(capitalBars("Alex", GLYPHS, capitalThenStem(10), LINE)).toBe("Alex");
    // Capitals under 24 px: an ascender's extra height is under two pixels, not measured.
    expect(capitalBars("Al", GLYPHS, capitalThenStem(20, 20), LINE)).toBe("Al");
  });
});

describe("`AI` on a real screen (rc-icecubes-news-dark)", () => {
  const engine = useRealOcrEngine();

  it("reads the headline's AI with a capital I, and its l in Publishes small", async () => {
    const texts = (await engine().recognize(await loadRealImage("rc-icecubes-news-dark.jpg"))).map(
      (l) => l.text,
    );
    expect(texts).toContain("Spotify Publishes AI-");
  }, 120_000);
});
