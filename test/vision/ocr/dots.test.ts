import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FontBook } from "../../../src/shared/fonts.js";
import type { RgbImage } from "../../../src/shared/image.js";
import { trailingDots } from "../../../src/vision/ocr/dots.js";
import { decodeRgb } from "../../../src/vision/rectify.js";

const fonts = new FontBook();

/** `text` at 17 pt (3×) on white, and its layout box in pixels. */
async function line(
  text: string,
): Promise<{ image: RgbImage; box: { x0: number; y0: number; x1: number; y1: number; score: number } }> {
  const shaped = fonts.shape(text, 48, 100, { size: 51 });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="160"><rect width="1170" height="160" fill="#fff"/>${shaped.svg}</svg>`;
  const image = await decodeRgb(await sharp(Buffer.from(svg)).png().toBuffer());
  const b = shaped.box;
  return { image, box: { x0: b.left, y0: b.top, x1: b.right, y1: b.bottom, score: 1 } };
}

describe("trailingDots: the dot run as long as the ink's", () => {
  it("puts back a dot the reading lost", async () => {
    const { image, box } = await line("Scanning for networks....");
    expect(trailingDots("Scanning for networks...", image, box)).toBe("Scanning for networks....");
    expect(trailingDots("Scanning for networks…", image, box)).toBe("Scanning for networks....");
    // The crop stopped before the last dot: it is looked for past the box's end.
    expect(trailingDots("Scanning for networks...", image, { ...box, x1: box.x1 - 20 })).toBe(
      "Scanning for networks....",
    );
  });

  it("keeps a reading as long as the ink's, and never shortens one", async () => {
    const three = await line("Loading...");
    expect(trailingDots("Loading...", three.image, three.box)).toBe("Loading...");
    expect(trailingDots("Loading…", three.image, three.box)).toBe("Loading…");
    const one = await line("End of list.");
    expect(trailingDots("End of list..", one.image, one.box)).toBe("End of list..");
    expect(trailingDots("End of list.", one.image, one.box)).toBe("End of list.");
  });
});
