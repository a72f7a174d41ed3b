import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { endsWithDegreeRing, ringReach, singleDegreeRing } from "../../../src/vision/ocr/degree-sign.js";
import { decodeRgb } from "../../../src/vision/rectify.js";
import { canvas, ring, stem, whole } from "./ink-fixtures.js";
import { useRealOcrEngine } from "./real-engine.js";

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
