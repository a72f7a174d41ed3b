import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import {
  capitalFrom,
  caseFromInk,
  keypadLetters,
  keypadPlus,
  underZero,
} from "../../../src/vision/ocr/letter-case.js";

/**
 * A line of drawn glyphs standing on the baseline y = 60: glyph k is a 14 px wide block `heights[k]` tall
 * at x 10 + 20k (a `null` is a space). Returns the image, the line's ink box and where each glyph of
 * `text` was "read" (its centre, nudged by `drift` px as the recogniser's positions are).
 */
function line(text: string, heights: readonly (number | null)[], drift = 0) {
  const w = 20 + 20 * heights.length;
  const data = Buffer.alloc(w * 80 * 3, 255);
  const glyphs: { index: number; x: number }[] = [];
  heights.forEach((h, k) => {
    if (h === null) return;
    const x0 = 10 + 20 * k;
    for (let y = 60 - h; y < 60; y++)
      for (let x = x0; x < x0 + 14; x++) data.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    glyphs.push({ index: k, x: x0 + 7 + drift });
  });
  const image: RgbImage = { width: w, height: 80, channels: 3, data };
  const top = 60 - Math.max(...heights.map((h) => h ?? 0));
  return { text, image, glyphs, box: { x0: 8, y0: top - 1, x1: w - 8, y1: 61, score: 1 } };
}

const run = (l: ReturnType<typeof line>) => caseFromInk(l.text, l.glyphs, l.image, l.box);

describe("caseFromInk", () => {
  it("makes small letters standing as tall as the line's capitals capitals (keypad, widgets)", () => {
    // `MNO` on a keypad read `Mn O`: the n's ink is the capitals' height.
    expect(run(line("Mn O", [30, 30, null, 30]))).toBe("MNO");
    expect(run(line("Lr rr", [30, 30, null, 30, 30]))).toBe("LR RR");
    // `Office` read `office` after capitals: against them, only the O stands tall.
    expect(run(line("WPS office", [30, 30, 30, null, 30, 31, 31, 22, 22, 22]))).toBe("WPS Office");
    expect(run(line("off", [30, 31, 31], 3))).toBe("Off");
  });
  it("uses the x-height letters as the reference when no capital or ascender is there", () => {
    expect(run(line("scores", [30, 22, 22, 22, 22, 22]))).toBe("Scores");
  });
  it("reads a 0 beside small letters that stands only x-height tall as the letter o", () => {
    expect(run(line("Yaho0", [30, 22, 31, 22, 22]))).toBe("Yahoo");
    expect(run(line("bo0sted", [31, 22, 22, 22, 26, 22, 31]))).toBe("boosted");
    // Beside a digit it is a digit, whatever its height.
    expect(run(line("20h", [30, 22, 31]))).toBe("20h");
  });
  it("keeps small letters at x-height, and measures nothing on tiny text or unclear positions", () => {
    expect(run(line("Allow while", [30, 31, 31, 22, 22, null, 22, 31, 22, 31, 22]))).toBe("Allow while");
    // 1× text: capitals 11 px, a round small letter overshooting to 10 stays small.
    expect(run(line("Work", [11, 10, 8, 12]))).toBe("Work");
    // Positions drifted half a glyph: no component holds exactly one of them; nothing changes.
    expect(run(line("Mn O", [30, 30, null, 30], 10))).toBe("Mn O");
    // A blurred line whose capitals stand barely taller than its small letters: nothing is split.
    expect(run(line("Devil wears", [25, 23, 22, 24, 27, null, 22, 23, 23, 22, 23]))).toBe("Devil wears");
    // A capital inside a small word (two glyphs run together on a camera frame, `rt`): not a word's shape.
    expect(run(line("perts", [22, 22, 30, 26, 22]))).toBe("perts");
    // Words run together in code (`\/` read `V`): each part after a capital is judged on its own.
    expect(run(line("Vios14", [30, 12, 30, 30, 30, 30]))).toBe("ViOS14");
    expect(run(line("Immediately", [30, 22, 22, 30, 31, 12, 31, 22, 26, 31, 22]))).toBe("Immediately");
    // Two type sizes (`$5/mo`): a word without its own capitals is not measured against other sizes.
    expect(run(line("5 mo 00", [40, null, 28, 28, null, 26, 26]))).toBe("5 mo 00");
  });
});

describe("caseFromInk on O and 0", () => {
  /** `text` as blocks 30 px tall, each as wide as `widths` says (a `null` is a space). */
  function wide(text: string, widths: readonly (number | null)[]) {
    const w = 20 + 40 * widths.length;
    const data = Buffer.alloc(w * 80 * 3, 255);
    const glyphs: { index: number; x: number }[] = [];
    widths.forEach((gw, k) => {
      if (gw === null) return;
      const x0 = 10 + 40 * k;
      for (let y = 30; y < 60; y++)
        for (let x = x0; x < x0 + gw; x++) data.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
      glyphs.push({ index: k, x: x0 + gw / 2 });
    });
    const image: RgbImage = { width: w, height: 80, channels: 3, data };
    return caseFromInk(text, glyphs, image, { x0: 8, y0: 29, x1: w - 8, y1: 61, score: 1 });
  }
  it("tells the digit 0 from the letter O by the ink's width", () => {
    // `SL03` read `SLO3`: the round glyph is as narrow as a digit (0.7 of its height).
    expect(wide("SLO3", [20, 16, 21, 18])).toBe("SL03");
    expect(wide("SL03", [20, 16, 21, 18])).toBe("SL03");
    // Inside a longer identifier, whose other capitals stay as read.
    expect(wide("SLO3Lk", [20, 16, 21, 18, 16, 18])).toBe("SL03Lk");
    // A wide round glyph between capitals read as a digit is the letter.
    expect(wide("B0X", [20, 28, 22])).toBe("BOX");
    // Only a narrow one beside a digit becomes a 0, and only a wide one beside no digit an O.
    expect(wide("1O2", [10, 28, 18])).toBe("1O2");
    expect(wide("SLO", [20, 16, 21])).toBe("SLO");
  });
});

describe("capitalFrom", () => {
  it("splits between SF Pro's x-height (0.75 of a capital) with anti-aliasing and the cap height", () => {
    expect(capitalFrom(36, 36)).toBe(true);
    expect(capitalFrom(28, 36)).toBe(false);
    expect(capitalFrom(12, 12)).toBe(true);
    expect(capitalFrom(11, 12)).toBe(false);
    // Against an ascender (6% above the cap height) a capital still counts.
    expect(capitalFrom(29, 31)).toBe(true);
  });
});

describe("keypadLetters", () => {
  it("joins an E.161 letter group read with spaces, and nothing else", () => {
    expect(keypadLetters("M NO")).toBe("MNO");
    expect(keypadLetters("PQ RS")).toBe("PQRS");
    expect(keypadLetters("NO MN")).toBe("NO MN");
    expect(keypadLetters("Mn O")).toBe("Mn O");
    expect(keypadLetters("MNO")).toBe("MNO");
  });
});

describe("underZero", () => {
  const line = (text: string, box: [number, number, number, number]) => ({ text, conf: 1, box });
  it("keeps a + centred just under a keypad's 0 and no other lone +", () => {
    const zero = line("0", [0.48, 0.64, 0.52, 0.68]);
    const under = keypadPlus({ x0: 313, y0: 674, x1: 328, y1: 688, score: 1 }, 640, 960);
    const aside = keypadPlus({ x0: 400, y0: 674, x1: 415, y1: 688, score: 1 }, 640, 960);
    const far = keypadPlus({ x0: 313, y0: 800, x1: 328, y1: 814, score: 1 }, 640, 960);
    expect(underZero([zero], [under, aside, far])).toEqual([under]);
    expect(underZero([line("8", [0.48, 0.64, 0.52, 0.68])], [under])).toEqual([]);
  });
});
