import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { dropInWordSpaces } from "../../../src/vision/ocr/word-spaces.js";

/** A white 200×40 image with black glyph blocks (x ranges) on rows 10–29. */
function glyphs(blocks: readonly (readonly [number, number])[]): RgbImage {
  const w = 200;
  const data = Buffer.alloc(w * 40 * 3, 255);
  for (const [a, b] of blocks) for (let y = 10; y < 30; y++) data.fill(0, (y * w + a) * 3, (y * w + b) * 3);
  return { width: w, height: 40, channels: 3, data };
}
const LINE = { x0: 10, y0: 9, x1: 190, y1: 31, score: 1 };
/** An em of 20 px: a word space leaves ≥ 5 px of blank, two letters of a word 0–3 px. */
const EM = 20;

describe("dropInWordSpaces", () => {
  // "ab|cd": four 10 px letters; the gap between b and c is `gap` px.
  const line = (gap: number) =>
    glyphs([
      [20, 30],
      [32, 42],
      [42 + gap, 52 + gap],
      [54 + gap, 64 + gap],
    ]);

  it("takes out a weakly restored space where the letters stand a letter gap apart", () => {
    const out = dropInWordSpaces(line(2), LINE, "ab cd", [{ index: 2, x: 43, restored: 0.04 }], EM);
    expect(out).toEqual({ text: "abcd", spaces: [] });
  });

  it("keeps it over a word space's blank, and keeps spaces read as such or on a clear score", () => {
    const spaced = dropInWordSpaces(line(6), LINE, "ab cd", [{ index: 2, x: 45, restored: 0.04 }], EM);
    expect(spaced.text).toBe("ab cd");
    // Read as a space (no `restored`), or put back on a clear score: the recogniser is sure enough.
    expect(dropInWordSpaces(line(2), LINE, "ab cd", [{ index: 2, x: 43 }], EM).text).toBe("ab cd");
    expect(dropInWordSpaces(line(2), LINE, "ab cd", [{ index: 2, x: 43, restored: 0.3 }], EM).text).toBe(
      "ab cd",
    );
  });

  it("judges only spaces between two Latin letters, and re-indexes the spaces after a dropped one", () => {
    const image = glyphs([
      [20, 30],
      [32, 42],
      [44, 54],
      [80, 90],
      [92, 102],
    ]);
    const out = dropInWordSpaces(
      image,
      LINE,
      "ab c de",
      [
        { index: 2, x: 43, restored: 0.04 },
        { index: 4, x: 67, restored: 0.04 },
      ],
      EM,
    );
    expect(out).toEqual({ text: "abc de", spaces: [{ index: 3, x: 67, restored: 0.04 }] });
    // A digit beside the space: not judged (`2 Hours`, `5 px` are spaced however tightly set).
    expect(dropInWordSpaces(line(2), LINE, "a2 cd", [{ index: 2, x: 43, restored: 0.04 }], EM).text).toBe(
      "a2 cd",
    );
  });
});
