import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { endsWithDegreeRing, ringReach, singleDegreeRing } from "../../../src/vision/ocr/degree-sign.js";
import { decodeRgb } from "../../../src/vision/rectify.js";
import { useRealOcrEngine } from "./real-engine.js";

/** White 60×50 canvas with dark rectangles `[x0, y0, x1, y1)` (a crude glyph line). */
function canvas(rects: [number, number, number, number][]): RgbImage {
  const width = 60;
  const height = 50;
  const data = Buffer.alloc(width * height * 3, 255);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y < y1; y++) data.fill(30, (y * width + x0) * 3, (y * width + x1) * 3);
  return { width, height, channels: 3, data };
}

const whole = { x0: 0, y0: 0, x1: 60, y1: 50, score: 1 };
/** A digit-like stroke from the cap height (y 10) to the baseline (y 40). */
const stem: [number, number, number, number] = [10, 10, 14, 40];
/** A ring's outline (2 px stroke): top, bottom, left, right edges. */
const ring = (x0: number, y0: number, x1: number, y1: number): [number, number, number, number][] => [
  [x0, y0, x1, y0 + 2],
  [x0, y1 - 2, x1, y1],
  [x0, y0, x0 + 2, y1],
  [x1 - 2, y0, x1, y1],
];

describe("endsWithDegreeRing", () => {
  it("is true for a small hollow ring at cap height, apart from the digits (a degree sign)", () => {
    expect(endsWithDegreeRing(canvas([stem, ...ring(18, 10, 27, 19)]), whole)).toBe(true);
  });

  it("is false for marks that are not a degree ring", () => {
    // A real `0`/`o` reaching the baseline.
    expect(endsWithDegreeRing(canvas([stem, ...ring(18, 10, 32, 40)]), whole)).toBe(false);
    // A filled raised blob (an asterisk, a bullet) has no hole.
    expect(endsWithDegreeRing(canvas([stem, [18, 10, 27, 19]]), whole)).toBe(false);
    // An apostrophe or a quote is narrow.
    expect(endsWithDegreeRing(canvas([stem, [18, 10, 20, 19]]), whole)).toBe(false);
    // A ring joined to the glyph before it (no background column between) is part of that glyph.
    expect(endsWithDegreeRing(canvas([stem, ...ring(14, 10, 23, 19)]), whole)).toBe(false);
    // A lone ring (an icon), with no digits before it.
    expect(endsWithDegreeRing(canvas(ring(18, 10, 27, 19)), whole)).toBe(false);
    expect(endsWithDegreeRing(canvas([]), whole)).toBe(false);
  });

  it("looks a little past the region's right edge, within the image", () => {
    expect(ringReach({ x0: 0, y0: 0, x1: 40, y1: 20, score: 1 }, 100)).toBe(52);
    expect(ringReach({ x0: 0, y0: 0, x1: 95, y1: 20, score: 1 }, 100)).toBe(100);
  });
});

describe("singleDegreeRing", () => {
  it("reads a ring then `℃` as `°C` (the ring read twice) and leaves a lone `℃`", () => {
    expect(singleDegreeRing("Feels like 18°℃")).toBe("Feels like 18°C");
    expect(singleDegreeRing("23.5 °℃")).toBe("23.5 °C");
    expect(singleDegreeRing("72°℉")).toBe("72°F");
    expect(singleDegreeRing("20℃")).toBe("20℃");
    expect(singleDegreeRing("Room 204")).toBe("Room 204");
  });
});

/** On a real weather screenshot of the development set (before: `17`, `Feels like 18°℃`). */
describe("degree signs on a real weather screen", () => {
  const engine = useRealOcrEngine();

  it("keeps the ring the recogniser dropped and reads `°C` once", async () => {
    const image = await decodeRgb(
      readFileSync(join("datasets/real-iphone/images", "rd-openweather-london.png")),
    );
    const texts = (await engine().recognize(image)).map((l) => l.text);
    expect(texts).toContain("Feels like 18°C");
    expect(texts.filter((t) => t === "17°")).toHaveLength(2);
    expect(texts).not.toContain("17");
    expect(texts).toContain("18°C");
    expect(texts).toContain("London");
  }, 60_000);
});
