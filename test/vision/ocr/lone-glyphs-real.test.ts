import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { SCREENSHOT_WIDTH } from "../../../src/vision/config.js";
import type { PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { workingWidth } from "../../../src/vision/pipeline.js";
import { shrinkRgb } from "../../../src/vision/rectify.js";
import { loadRealImage } from "../real-set.js";
import { useRealOcrEngine } from "./real-engine.js";

/** Read as the pipeline reads a screenshot: found on the working-size copy, read from the full size. */
async function read(engine: PaddleOcrEngine, image: RgbImage): Promise<string[]> {
  const working = shrinkRgb(image, workingWidth(image.width, SCREENSHOT_WIDTH));
  return (await engine.recognize(working, image)).map((l) => l.text);
}

/**
 * Glyphs too small for the 320 px detection map and symbols outside the recogniser's dictionary, on
 * real screenshots of the development set read by the real PP-OCRv4 models: each was missing or
 * misread before `lone-glyphs.ts` / `symbols.ts` (the development set's misses, session 5).
 */
const CASES = [
  // A section index (A–Z #): these capitals had no row.
  {
    image: "ra-tp-applibrary-list.jpg",
    band: [0.27, 0.87],
    texts: ["I", "J", "L", "S", "T", "V", "W", "Z", "#"],
  },
  // Badge counts on systemRed discs.
  { image: "rc-icecubes-profile-dark.jpg", texts: ["4"] },
  { image: "rd-fordpass-home-widgets-light.jpg", texts: ["4"] },
  { image: "rd-zkytech-share-sheet-zh.jpg", texts: ["2"] },
  // © before a photo credit (dropped), ✓ in parentheses (`()`, `(v)`), a bar read `1`/`I`.
  { image: "rc-bingpaper-list-dark.jpg", texts: ["© J R Eyerman/Shutterstock"] },
  { image: "rd-fordpass-home-widget-medium.jpg", texts: ["LF (✓) | RF (✓)", "TG (✓)"] },
  { image: "rd-fordpass-home-widget-medium.jpg", texts: ["31.2 | 31.9"] },
] as const;

describe("lone glyphs and symbols on real iPhone screenshots", () => {
  const engine = useRealOcrEngine();

  for (const c of CASES)
    it(`reads ${c.texts.join(", ")} on ${c.image}`, async () => {
      const image = await loadRealImage(c.image);
      const lines = await read(engine(), image);
      for (const t of c.texts) expect(lines, t).toContain(t);
    }, 60_000);

  it("adds nothing where no index or badge is drawn (a Settings list)", async () => {
    const image = await loadRealImage("ra-tp-dockcontroller-prefs.png");
    const lines = await read(engine(), image);
    expect(lines.filter((l) => /^[\p{Lu}\d#]$/u.test(l))).toEqual([]);
  }, 60_000);
});
