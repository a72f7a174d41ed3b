import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { leadingStem, pronounI } from "../../../src/vision/ocr/pronoun-i.js";

describe("pronounI: a bar before ’m is the pronoun I", () => {
  it("makes the bar I and gives the bar and the apostrophe their kind's score", () => {
    // rv-iqkm-keyboard's QuickType `I’m`: `l` 0.34 (runner-up `1` 0.32), `'` 0.59 (`′` 0.10), `m` 1.00.
    const out = pronounI(["l", "'", "m"], [0.34, 0.59, 1], ["1", "′", "㎡"], [0.32, 0.1, 0]);
    expect(out.chars.join("")).toBe("I'm");
    expect(out.scores[0]).toBeCloseTo(0.66, 5);
    expect(out.scores[1]).toBeCloseTo(0.69, 5);
    expect(out.scores[2]).toBe(1);
    expect(pronounI(["1", "’", "l", "l", " ", "g", "o"], [0.5, 0.9, 1, 1, 1, 1, 1]).chars.join("")).toBe(
      "I’ll go",
    );
    expect(pronounI(["O", "k", " ", "|", "'", "v", "e"], [1, 1, 1, 0.5, 0.9, 1, 1]).chars.join("")).toBe(
      "Ok I've",
    );
  });

  it("leaves bars that are no pronoun: inside a word, before another suffix, or a longer word", () => {
    for (const chars of [
      ["a", "l", "'", "m"], // not a word's start
      ["l", "'", "s"], // `’s` follows any noun
      ["l", "'", "m", "o"], // the suffix does not end the word
      ["1", "'", "2", "m"], // feet and inches
      ["l", "m"], // no apostrophe
    ]) {
      const out = pronounI(
        chars,
        [0.5, 0.5, 0.5, 0.5].slice(0, chars.length),
        ["I", "I", "I", "I"],
        [0.4, 0.4, 0.4, 0.4],
      );
      expect(out.chars, chars.join("")).toEqual(chars);
      expect(out.scores, chars.join("")).toEqual([0.5, 0.5, 0.5, 0.5].slice(0, chars.length));
    }
  });
});

describe("leadingStem: a lone stem of cap height, then an apostrophe", () => {
  /** A light grey 80×40 image with dark rectangles `[x0, y0, x1, y1)`. */
  const drawn = (rects: [number, number, number, number][]): RgbImage => {
    const w = 80;
    const data = Buffer.alloc(w * 40 * 3, 210);
    for (const [x0, y0, x1, y1] of rects)
      for (let y = y0; y < y1; y++) data.fill(60, (y * w + x0) * 3, (y * w + x1) * 3);
    return { width: w, height: 40, channels: 3, data };
  };
  const box = { x0: 0, y0: 0, x1: 80, y1: 40, score: 1 };
  // `I’m` at a 20 px cap height: the stem (cap line 10 to baseline 30), an apostrophe at the cap line,
  // and `m` at the x-height (15 px) as three stems.
  const apostrophe: [number, number, number, number] = [18, 10, 20, 16];
  const m: [number, number, number, number][] = [
    [25, 15, 27, 30],
    [32, 15, 34, 30],
    [39, 15, 41, 30],
    [25, 15, 41, 17],
  ];

  it("finds the pronoun's stem", () => {
    expect(leadingStem(drawn([[10, 10, 13, 30], apostrophe, ...m]), box)).toBe(true);
  });

  it("refuses a caret, a `|`, an icon, a stem a word space away, and a line with no stem", () => {
    // A text caret: taller than the cap height, reaching below the baseline.
    expect(leadingStem(drawn([[10, 6, 12, 35], apostrophe, ...m]), box)).toBe(false);
    // A `|`: from the ascender to below the baseline.
    expect(leadingStem(drawn([[10, 8, 12, 34], apostrophe, ...m]), box)).toBe(false);
    // An icon: as wide as it is tall.
    expect(leadingStem(drawn([[0, 0, 0, 0], [1, 10, 15, 30], [18, 10, 20, 16], ...m]), box)).toBe(false);
    // The stem a word space and more before the apostrophe.
    expect(leadingStem(drawn([[2, 10, 4, 30], [18, 10, 20, 16], ...m]), box)).toBe(false);
    // Only the apostrophe and `m`.
    expect(leadingStem(drawn([apostrophe, ...m]), box)).toBe(false);
  });
});
