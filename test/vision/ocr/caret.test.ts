import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { withoutCaret } from "../../../src/vision/ocr/caret.js";
import { inkColoursDiffer } from "../../../src/vision/ocr/ink-colour.js";

type Rgb = [number, number, number];
const BLACK: Rgb = [0, 0, 0];
const BLUE: Rgb = [0, 122, 255];
const GREEN: Rgb = [52, 199, 89];

/** A white 200×40 image with filled blocks `[x0, x1, y0, y1, colour]`. */
function drawn(blocks: [number, number, number, number, Rgb][]): RgbImage {
  const w = 200;
  const h = 40;
  const data = Buffer.alloc(w * h * 3, 255);
  for (const [x0, x1, y0, y1, c] of blocks)
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set(c, (y * w + x) * 3);
  return { width: w, height: h, channels: 3, data };
}

/** Three "letters" 12–26 px tall (x-height and ascender strokes) from x = 20 to 110. */
function letters(colour: Rgb): [number, number, number, number, Rgb][] {
  return [
    [20, 40, 16, 26, colour],
    [46, 50, 12, 26, colour],
    [56, 80, 16, 26, colour],
    [86, 110, 16, 26, colour],
  ];
}
const BOX = { x0: 15, y0: 8, x1: 125, y1: 32, score: 1 };

describe("withoutCaret", () => {
  it("drops a tinted solid bar taller than the text after black letters, read as `l`", () => {
    const img = drawn([...letters(BLACK), [112, 115, 9, 31, GREEN]]);
    expect(withoutCaret("applel", img, BOX)).toBe("apple");
    expect(withoutCaret("applel", drawn([...letters(BLACK), [112, 115, 9, 31, BLUE]]), BOX)).toBe("apple");
  });

  it("keeps a last letter of the text's own colour, or a bar no taller than the text", () => {
    // An `l` in black after black letters: one label, one colour.
    expect(withoutCaret("hell", drawn([...letters(BLACK), [112, 115, 12, 26, BLACK]]), BOX)).toBe("hell");
    // A tinted link ending in `l`: the bar is the text's colour.
    expect(withoutCaret("URL", drawn([...letters(BLUE), [112, 115, 9, 31, BLUE]]), BOX)).toBe("URL");
    // A short tinted bar (a glyph of a tinted word after a black one), not spanning the line.
    expect(withoutCaret("al", drawn([...letters(BLACK), [112, 115, 16, 26, BLUE]]), BOX)).toBe("al");
    // A wide tinted block is no caret.
    expect(withoutCaret("aI", drawn([...letters(BLACK), [112, 122, 9, 31, BLUE]]), BOX)).toBe("aI");
    // Text not ending in a bar-like character is never touched.
    expect(withoutCaret("apple", drawn([...letters(BLACK), [112, 115, 9, 31, BLUE]]), BOX)).toBe("apple");
  });
});

describe("inkColoursDiffer: greys", () => {
  const gap = { x0: 80, x1: 100 };
  const line = { x0: 10, y0: 10, x1: 190, y1: 30, score: 1 };
  const pair = (left: Rgb, right: Rgb) =>
    drawn([
      [10, 80, 12, 28, left],
      [100, 190, 12, 28, right],
    ]);

  it("tells a light grey title from a black value (label vs tertiaryLabel)", () => {
    expect(inkColoursDiffer(pair([216, 216, 216], BLACK), line, gap, 60)).toBe(true);
    // secondaryLabel on white (#8A8A8E) beside black: contrast ratio 0.46.
    expect(inkColoursDiffer(pair(BLACK, [138, 138, 142]), line, gap, 60)).toBe(true);
  });

  it("keeps words of one grey, or of near greys, together", () => {
    expect(inkColoursDiffer(pair(BLACK, BLACK), line, gap, 60)).toBe(false);
    expect(inkColoursDiffer(pair([60, 60, 60], [20, 20, 20]), line, gap, 60)).toBe(false);
  });
});
