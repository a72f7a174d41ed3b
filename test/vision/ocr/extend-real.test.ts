import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeRgb } from "../../../src/vision/rectify.js";
import { useRealOcrEngine } from "./real-engine.js";

const DATASET = "datasets/real-iphone/images";

/**
 * `extend.ts` on a real screenshot of the development set, read whole by the real PP-OCRv4 models: the
 * 320 px map fires on `Last Ch` of a small grey caption only (before: `Last Ch`), and on the page UIKit
 * dims behind the action sheet it marks the rest of the line with one blip over `ago` (`map-hint.ts`;
 * before: `Last Checkin:`).
 */
describe("lines the detection map cut short, on a real iPhone screenshot", () => {
  const engine = useRealOcrEngine();

  it("reads the caption on past the word the map stopped in, and past its word spaces", async () => {
    const image = await decodeRgb(readFileSync(join(DATASET, "rd-fordpass-action-sheet.jpg")));
    const texts = (await engine().recognize(image)).map((l) => l.text);
    expect(texts).toContain("Last Checkin: 1 Hour ago");
    expect(texts).not.toContain("Last Ch");
    expect(texts).not.toContain("Last Checkin:");
  }, 60_000);
});
