import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { blankRuns } from "../../../src/vision/ocr/split.js";
import { loadRealImage } from "../real-set.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * An hourly forecast's temperatures in white straight on a photo of leaves (real dev-set screen
 * rd-swiftweather-city): two of them were read as one line `55.0° 55.0°`, since the photo's texture
 * leaves no blank column between them for `split.ts` to cut at.
 */
describe("labels over a photo (rd-swiftweather-city)", () => {
  const engine = useRealOcrEngine();
  const read = async (image: RgbImage) => (await engine().recognize(image)).map((l) => l.text);

  it("lists each temperature on its own, on the screenshot and filmed", async () => {
    for (const texts of [
      await read(await loadRealImage("rd-swiftweather-city.jpg")),
      // Seed 7 + 115: the screen's index in the dev set, as bench/real-screens.ts films it.
      await read(await filmedRealScreen("rd-swiftweather-city.jpg", 122)),
    ]) {
      expect(texts.filter((t) => t === "55.0°")).toHaveLength(3);
      expect(texts.some((t) => t.includes("55.0° 55.0°"))).toBe(false);
    }
  }, 180_000);
});

/** A 200×40 line: `bg(x, y)` behind white 20 px tall blocks at `blocks`. */
function line(bg: (x: number, y: number) => number, blocks: [number, number][], ink = 255): RgbImage {
  const w = 200;
  const h = 40;
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = blocks.some(([a, b]) => x >= a && x < b && y >= 10 && y < 30) ? ink : bg(x, y);
      data.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  return { width: w, height: h, channels: 3, data };
}
const BOX = { x0: 10, y0: 10, x1: 190, y1: 30, score: 1 };
/** A photo-like texture: greys 60–140 changing every few pixels. */
const leaves = (x: number, y: number) => 60 + ((x * 37 + y * 91 + ((x * y) % 13) * 7) % 81);
const WORDS: [number, number][] = [
  [10, 80],
  [110, 190],
];

describe("blankRuns over a photo", () => {
  it("finds the gap between white words on a textured photo", () => {
    expect(blankRuns(line(leaves, WORDS), BOX, 10)).toEqual([{ x0: 80, x1: 110 }]);
  });

  it("finds none where the background is flat, or the text dim against the texture", () => {
    // A flat card with a bar through the line (a field's border): no blank column, nothing to cut.
    const barred = line((_, y) => (y === 20 ? 0 : 200), WORDS, 0);
    expect(blankRuns(barred, BOX, 10)).toEqual([]);
    // Grey text (contrast < 128) over other lines' texture, as under a sheet's scrim.
    expect(blankRuns(line(leaves, WORDS, 190), BOX, 10)).toEqual([]);
  });
});
