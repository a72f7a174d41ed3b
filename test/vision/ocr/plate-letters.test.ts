import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { SCREENSHOT_WIDTH } from "../../../src/vision/config.js";
import type { PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { pairLetter } from "../../../src/vision/ocr/plate-letters.js";
import { workingWidth } from "../../../src/vision/pipeline.js";
import { shrinkRgb } from "../../../src/vision/rectify.js";
import { type PlateRow, plateScreen, type Rgb } from "./plate-synth.js";
import { useRealOcrEngine } from "./real-engine.js";

/** Read as the pipeline reads a screenshot: found on the working-size copy, read from the full size. */
async function read(engine: PaddleOcrEngine, image: RgbImage): Promise<string[]> {
  const working = shrinkRgb(image, workingWidth(image.width, SCREENSHOT_WIDTH));
  return (await engine.recognize(working, image)).map((l) => l.text);
}

const WHITE: Rgb = [255, 255, 255];
/** A transit line's badge: its colour filling a 32 pt rounded square, the letter 20 pt white semibold. */
const badge = (label: string, fill: Rgb, title: string): PlateRow => ({
  label,
  shape: "tile",
  fill,
  ink: WHITE,
  size: 32,
  text: 20,
  title,
  subtitle: "Downtown · 4 min",
});

describe("pairLetter: a lone glyph read twice", () => {
  it("keeps one letter read twice, in either case, as the capital for case-less shapes", () => {
    expect(pairLetter("ZZ", 0.6)).toBe("Z");
    expect(pairLetter("Ll", 0.63)).toBe("L");
    expect(pairLetter("Ww", 0.65)).toBe("W");
    expect(pairLetter("cc", 0.95)).toBe("C");
    // A hanzi needs 0.97: an icon read `西西` at 0.904 (check 9's Labs tab) must stay an icon.
    expect(pairLetter("购购", 0.98)).toBe("购");
    expect(pairLetter("西西", 0.95)).toBeUndefined();
  });

  it("keeps no symbol-like letter, sign, digit, weak hanzi or disagreeing pair", () => {
    for (const [t, c] of [
      ["XX", 0.99],
      ["xx", 0.99],
      ["OO", 0.99],
      ["II", 0.99],
      ["ll", 0.99],
      ["++", 0.99],
      ["44", 0.99],
      ["日日", 0.8],
      ["西西", 0.904],
      ["LZ", 0.9],
      ["ZZ", 0.4],
      ["Z", 0.9],
    ] as const)
      expect(pairLetter(t, c), t).toBeUndefined();
  });
});

describe("lone letters on route badges read by the real OCR", () => {
  const engine = useRealOcrEngine();

  it("reads a route's one letter on a coloured square (weak or lower-case in one reading)", async () => {
    const rows = [
      badge("Z", [150, 90, 40], "Jamaica Center"),
      badge("L", [167, 169, 172], "Canarsie"),
      badge("W", [252, 204, 10], "Whitehall St"),
      badge("C", [0, 57, 166], "Euclid Av"),
      badge("D", [238, 53, 46], "Coney Island"),
    ];
    const lines = await read(engine(), await plateScreen(rows));
    for (const t of ["Z", "L", "W", "C", "D"]) expect(lines, t).toContain(t);
  }, 60_000);

  it("keeps a close button's cross and a ring off the text", async () => {
    const rows = [badge("×", [118, 118, 128], "Close"), badge("○", [0, 122, 255], "Record")];
    const lines = await read(engine(), await plateScreen(rows));
    expect(lines.filter((l) => /^[\p{L}\p{N}×○]$/u.test(l))).toEqual([]);
  }, 60_000);
});
