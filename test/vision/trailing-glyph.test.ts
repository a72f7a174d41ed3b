import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/vision/row.js";
import { splitTrailingGlyphs } from "../../src/vision/trailing-glyph.js";
import { blur, type Canvas, canvas, type Rgb, rect, star } from "./stepper-synth.js";

/**
 * A Recents cell's detail text and its info button (`.detailButton`, SF Symbol `info.circle` ~22 pt
 * after 15 pt text, 8 pt apart), drawn at 1×–3×: the OCR box spans both and reads only the words.
 */
const WHITE: Rgb = [255, 255, 255];
const GREY: Rgb = [142, 142, 147];
const BLUE: Rgb = [0, 122, 255];

/** A stand-in for a word: letter stems 1.6 pt wide, 1.2 pt apart, x-height 8 pt, ascenders to 11 pt, one descender. */
function word(c: Canvas, x: number, base: number, letters: number, colour: Rgb): number {
  for (let i = 0; i < letters; i++) {
    const tall = i === 0 || i % 3 === 2;
    const top = tall ? base - 11 : base - 8;
    const bottom = i === letters - 2 ? base + 3 : base;
    rect(c, x + i * 2.8, top, 1.6, bottom - top, colour);
  }
  return x + letters * 2.8;
}

/** A ring of radius `r` pt, `th` pt thick, centred at (cx, cy) pt, with an `i` inside; `fill` fills it. */
function circled(c: Canvas, cx: number, cy: number, r: number, th: number, colour: Rgb, fill = false): void {
  const s = c.scale;
  for (let py = Math.floor((cy - r) * s); py <= Math.ceil((cy + r) * s); py++)
    for (let px = Math.floor((cx - r) * s); px <= Math.ceil((cx + r) * s); px++) {
      const d = Math.hypot((px + 0.5) / s - cx, (py + 0.5) / s - cy);
      if (d <= r && (fill || d >= r - th)) c.data.set(colour, (py * c.width + px) * 3);
    }
  if (!fill) {
    rect(c, cx - 1, cy - 2, 2, 8, colour);
    rect(c, cx - 1, cy - 6.5, 2, 2, colour);
  }
}

const text = (c: Canvas, label: string, l: number, t: number, r: number, b: number): Candidate => ({
  kind: "text",
  label,
  box: [l / (c.width / c.scale), t / (c.height / c.scale), r / (c.width / c.scale), b / (c.height / c.scale)],
  conf: 0.9,
});

/** The cell at 390 × 60 pt: `Yesterday` ending at 330 pt, a glyph drawn by `glyph` right of it. */
function cell(scale: number, glyph: (c: Canvas) => void): { c: Canvas; row: Candidate } {
  const c = canvas(390, 60, scale, WHITE);
  word(c, 290 - 25, 36, 9, GREY);
  glyph(c);
  return { c, row: text(c, "Yesterday", 262, 17, 372, 43) };
}
const info = (c: Canvas): void => circled(c, 356, 30, 10.5, 1.6, BLUE);

describe("splitTrailingGlyphs", () => {
  it("splits the info circle after a cell's detail text into an icon row, at 1×–3× and blurred", () => {
    for (const scale of [1, 2, 3])
      for (const soft of [false, true]) {
        const { c, row } = cell(scale, info);
        const rows = splitTrailingGlyphs(soft ? blur(c, scale) : c, [row]);
        expect(rows.map((r) => [r.kind, r.label])).toEqual([
          ["text", "Yesterday"],
          ["icon", ""],
        ]);
        const [words, icon] = rows as [Candidate, Candidate];
        expect(icon.box[0] * 390).toBeGreaterThan(342);
        expect(icon.box[2] * 390).toBeLessThan(370);
        expect(words.box[2]).toBeLessThan(icon.box[0]);
      }
  });

  it("drops a detector box that only joined the words and the glyph; cuts a ring read as `O`", () => {
    const { c, row } = cell(2, (k) => circled(k, 356, 30, 10, 10, GREY, true));
    const joined: Candidate = { kind: "icon", label: "", box: [260 / 390, 0.25, 372 / 390, 0.75], conf: 0.5 };
    const rows = splitTrailingGlyphs(c, [{ ...row, label: "Yesterday O" }, joined]);
    expect(rows.map((r) => [r.kind, r.label])).toEqual([
      ["text", "Yesterday"],
      ["icon", ""],
    ]);
  });

  it("splits a favourite star read as `★` after the words, a light fill beside black text too", () => {
    for (const scale of [2, 3])
      for (const soft of [false, true]) {
        const c = canvas(390, 60, scale, WHITE);
        word(c, 265, 36, 9, [0, 0, 0]);
        star(c, 356, 30, 10, [255, 204, 0]); // SF Symbol `star.fill` in systemYellow, 8 pt after the text
        const row = text(c, "18 min ★", 262, 17, 372, 43);
        const rows = splitTrailingGlyphs(soft ? blur(c, scale) : c, [row]);
        expect(rows.map((r) => [r.kind, r.label])).toEqual([
          ["text", "18 min"],
          ["icon", ""],
        ]);
        const icon = rows[1] as Candidate;
        expect(icon.box[0] * 390).toBeGreaterThan(342);
        expect(((icon.box[0] + icon.box[2]) / 2) * 390).toBeCloseTo(356, -1);
      }
    // Not read as a star: a star is no ring, so the line stays whole.
    const c = canvas(390, 60, 3, WHITE);
    word(c, 265, 36, 9, GREY);
    star(c, 356, 30, 10, GREY);
    const row = text(c, "Yesterday", 262, 17, 372, 43);
    expect(splitTrailingGlyphs(c, [row])).toEqual([row]);
  });

  it("leaves lines alone whose last ink is a letter, a digit-sized ring, a square or glued on", () => {
    const cases: ((c: Canvas) => void)[] = [
      (c) => word(c, 345, 36, 3, GREY), // another word after a space
      (c) => circled(c, 350, 31.5, 5.5, 1.6, GREY), // an `O`: cap height, shorter than the words' ink
      (c) => rect(c, 345, 19, 22, 22, GREY), // a filled square (a thumbnail, a stop glyph)
    ];
    for (const draw of cases) {
      const { c, row } = cell(3, draw);
      expect(splitTrailingGlyphs(c, [row])).toEqual([row]);
    }
    // The circle glued to the last letter (no word space): one run of ink, not a separate glyph.
    const { c, row } = cell(3, (k) => circled(k, 301, 30, 10.5, 1.6, BLUE));
    expect(splitTrailingGlyphs(c, [row])).toEqual([row]);
  });
});
