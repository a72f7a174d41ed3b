import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { SCREENSHOT_WIDTH } from "../../../src/vision/config.js";
import type { PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { workingWidth } from "../../../src/vision/pipeline.js";
import { shrinkRgb } from "../../../src/vision/rectify.js";
import type { TextLine } from "../../../src/vision/types.js";
import { loadRealImage } from "../real-set.js";
import { digitScreen } from "./digit-synth.js";
import { useRealOcrEngine } from "./real-engine.js";

/** Read as the pipeline reads a screenshot: found on the working-size copy, read from the full size. */
async function read(engine: PaddleOcrEngine, image: RgbImage): Promise<string[]> {
  const working = shrinkRgb(image, workingWidth(image.width, SCREENSHOT_WIDTH));
  return (await engine.recognize(working, image)).map((l) => l.text);
}

describe("lone digits read weakly from their crop (lone-digits.ts)", () => {
  const engine = useRealOcrEngine();

  it("reads both bold 0 counts on Yattee's tiles (one read 0.52 from its crop before)", async () => {
    const image = await loadRealImage("rc-yattee-home.png");
    const lines = await read(engine(), image);
    expect(lines.filter((l) => l === "0")).toHaveLength(2);
  }, 60_000);

  it("reads a lone 22 pt digit read weakly from its crop; no ring or disc becomes a digit", async () => {
    const engine0 = engine();
    const light = await engine0.recognize(
      shrinkRgb(await digitScreen(false), workingWidth(1170, SCREENSHOT_WIDTH)),
      await digitScreen(false),
    );
    const digits = (lines: readonly TextLine[], leading: boolean) =>
      lines.filter((l) => /^\d$/u.test(l.text) && l.box[0] < 0.5 === leading).map((l) => l.text);
    // The 22 pt `1` read 0.56 from its crop before; the 11 and 13 pt digits get no region from the
    // detection map at all (not covered: no region, nothing to read again).
    expect(digits(light, true).sort()).toEqual(["1", "4", "7", "8"]);
    expect(digits(light, false)).toEqual([]);
    // Dark: the map finds none of the white digits but the 28 pt one; the 11 pt ring's crop reads `0` at
    // 0.72 without this rule (kept: above `minConfidence`); the rule adds no other.
    const dark = await engine0.recognize(
      shrinkRgb(await digitScreen(true), workingWidth(1170, SCREENSHOT_WIDTH)),
      await digitScreen(true),
    );
    expect(digits(dark, false).length).toBeLessThanOrEqual(1);
  }, 60_000);
});
