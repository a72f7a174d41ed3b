import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { decodeRgb } from "../../../src/vision/rectify.js";
import { useRealOcrEngine } from "./real-engine.js";

const DATASET = "datasets/real-iphone";

/** The full-width band of `image` from `top` to `bottom` (fractions of its height). */
function band(image: RgbImage, top: number, bottom: number): RgbImage {
  const y0 = Math.floor(top * image.height);
  const y1 = Math.ceil(bottom * image.height);
  const row = image.width * 3;
  return { width: image.width, height: y1 - y0, channels: 3, data: image.data.subarray(y0 * row, y1 * row) };
}

/**
 * The `cjk.ts` rules on real screenshots of the development set (a band around one labelled line, read
 * by the real PP-OCRv4 models): each line was misread before the rule, as the comment says.
 */
const CASES = [
  // 從 has no class in the dictionary: the decode skipped it (`大地到星辰…`).
  { image: "rc-tubecast-playlist.png", band: [0.25, 0.285], text: "從大地到星辰，人類如何丈量世界？" },
  // 側 has no class: read as the Simplified 侧 on a Traditional line.
  { image: "rc-gogoro-map-station.jpg", band: [0.498, 0.52], text: "號(近市政中心左側，機車停車場)" },
  // A ✓ icon the detector boxed with the label (`√ 转换`).
  { image: "rc-tubecast-convert.png", band: [0.28, 0.313], text: "转换" },
  // A help symbol after the label (`近60场平均KDA ？`).
  { image: "rc-300hero-profile-dark.jpg", band: [0.41, 0.45], text: "近60场平均KDA" },
  // Two labels the detector boxed together, split at the wide gap (`预览 ● 原图(1.1M)`, `14 狂酷叼炸天`).
  { image: "ra-tzimagepicker-grid-zh.png", band: [0.94, 0.985], text: "预览" },
  { image: "ra-tzimagepicker-grid-zh.png", band: [0.94, 0.985], text: "原图(1.1M)" },
  { image: "rc-300hero-leaderboard-dark.jpg", band: [0.935, 0.97], text: "14" },
  { image: "rc-300hero-leaderboard-dark.jpg", band: [0.935, 0.97], text: "狂酷叼炸天" },
] as const;

describe("Chinese lines of real iPhone screenshots", () => {
  const engine = useRealOcrEngine();

  for (const c of CASES)
    it(`reads "${c.text}" on ${c.image}`, async () => {
      const image = await decodeRgb(readFileSync(join(DATASET, "images", c.image)));
      const lines = await engine().recognize(band(image, c.band[0], c.band[1]));
      expect(lines.map((l) => l.text.replace(/\s/g, "").normalize("NFKC"))).toContain(
        c.text.normalize("NFKC"),
      );
    }, 60_000);
});
