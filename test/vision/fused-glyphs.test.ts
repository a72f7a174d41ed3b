import { describe, expect, it } from "vitest";
import { splitFusedGlyphs } from "../../src/vision/fused-glyphs.js";
import type { Candidate } from "../../src/vision/row.js";
import { blur, type Canvas, canvas, type Rgb, rect } from "./stepper-synth.js";

/**
 * A grouped list's row at 1×–3×, 390 × 44 pt (UITableView's default row height), 17 pt title (cap
 * height ~12 pt): SF Symbols' `cellularbars`-style signal glyph before the title (four filled bars of
 * equal width rising left to right, ~20 × 18 pt, centred on the text so it stands ~2.5 pt below the
 * baseline), and the `checkmark` symbol (~14 × 14 pt at 17 pt, regular weight, 1.6 pt stroke) a word
 * space after it — the layout of `c8-nrfwifi-scanner`'s device list, and of pickers that mark the
 * chosen row right after its title.
 */
const BLACK: Rgb = [28, 28, 30];
const WHITE: Rgb = [255, 255, 255];
const GREEN: Rgb = [52, 199, 89];
const BASE = 28;

/** A stand-in for a word: letter stems 1.6 pt wide, 1.2 pt apart, x-height 8.5 pt, some ascenders (12 pt). */
function word(c: Canvas, x: number, letters: number, colour: Rgb = BLACK): number {
  for (let i = 0; i < letters; i++) {
    const tall = i === 0 || i % 3 === 2;
    rect(c, x + i * 2.8, tall ? BASE - 12 : BASE - 8.5, 1.6, tall ? 12 : 8.5, colour);
  }
  return x + letters * 2.8;
}

/** Four bars 3.5 pt wide, 1.3 pt apart, 4.5 to 18 pt tall, on a line 2.5 pt below the baseline. */
function bars(c: Canvas, x: number, colour: Rgb = GREEN, heights = [4.5, 9, 13.5, 18]): number {
  heights.forEach((h, i) => {
    rect(c, x + i * 4.8, BASE + 2.5 - h, 3.5, h, colour);
  });
  return x + heights.length * 4.8;
}

/** A polyline `pts` (pt) stroked `w` pt wide. */
function stroke(c: Canvas, pts: [number, number][], w: number, colour: Rgb): void {
  const s = c.scale;
  for (let py = 0; py < c.height; py++)
    for (let px = 0; px < c.width; px++) {
      const X = (px + 0.5) / s;
      const Y = (py + 0.5) / s;
      for (let k = 1; k < pts.length; k++) {
        const [ax, ay] = pts[k - 1] as [number, number];
        const [bx, by] = pts[k] as [number, number];
        const t = Math.max(
          0,
          Math.min(1, ((X - ax) * (bx - ax) + (Y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
        );
        if (Math.hypot(X - ax - t * (bx - ax), Y - ay - t * (by - ay)) <= w / 2) {
          c.data.set(colour, (py * c.width + px) * 3);
          break;
        }
      }
    }
}

/** SF Symbols' `checkmark`: the short arm from halfway down to the vertex, the long arm up to the top. */
const check = (c: Canvas, x: number): void =>
  stroke(
    c,
    [
      [x, BASE - 5.5],
      [x + 4.8, BASE],
      [x + 13, BASE - 12.5],
    ],
    1.6,
    BLACK,
  );
/** A `v`: both arms end at the x-height. */
const vee = (c: Canvas, x: number): void =>
  stroke(
    c,
    [
      [x, BASE - 8.5],
      [x + 3.5, BASE],
      [x + 7, BASE - 8.5],
    ],
    1.6,
    BLACK,
  );

const text = (label: string, l: number, t: number, r: number, b: number): Candidate => ({
  kind: "text",
  label,
  box: [l / 390, t / 44, r / 390, b / 44],
  conf: 0.9,
});

const summary = (rows: Candidate[]) => rows.map((r) => [r.kind, r.label, r.state ?? ""]);

describe("splitFusedGlyphs", () => {
  it("cuts signal bars read `-ll` from a title and splits a trailing check mark into a checkbox, 1×–3×, blurred", () => {
    for (const scale of [1, 2, 3])
      for (const soft of [false, true]) {
        const c = canvas(390, 44, scale, WHITE);
        bars(c, 16);
        const end = word(c, 45, 12);
        check(c, end + 8);
        const img = soft ? blur(c, scale) : c;
        const led = splitFusedGlyphs(img, [text("-ll nRF-7 Wi-Fi (1)", 16, 12, end, 31)]);
        expect(summary(led)).toEqual([["text", "nRF-7 Wi-Fi (1)", ""]]);
        expect((led[0]?.box[0] ?? 0) * 390).toBeGreaterThan(40);
        expect((led[0]?.box[0] ?? 0) * 390).toBeLessThan(46);
        const checked = splitFusedGlyphs(img, [text("nRF-7 Wi-Fi (2) √", 45, 14, end + 22, 29)]);
        expect(summary(checked)).toEqual([
          ["text", "nRF-7 Wi-Fi (2)", ""],
          ["checkbox", "nRF-7 Wi-Fi (2)", "on"],
        ]);
        const [title, mark] = checked as [Candidate, Candidate];
        expect(title.box[2] * 390).toBeLessThan(end + 3);
        expect(mark.box[0] * 390).toBeGreaterThan(end + 6);
        // Both at once, as the detector boxes a chosen row with its bars.
        const both = splitFusedGlyphs(img, [text("ill nRF-7 Wi-Fi (1) v", 16, 12, end + 22, 31)]);
        expect(summary(both)).toEqual([
          ["text", "nRF-7 Wi-Fi (1)", ""],
          ["checkbox", "nRF-7 Wi-Fi (1)", "on"],
        ]);
      }
  });

  it("looks left of a box that starts at the glyph's taller bars (blur left the short ones unboxed)", () => {
    for (const scale of [1, 2]) {
      const c = canvas(390, 44, scale, WHITE);
      bars(c, 16);
      const end = word(c, 45, 9);
      // The box begins at the third bar (x 25.6 pt): the recogniser read only `l` for the glyph.
      const rows = splitFusedGlyphs(blur(c, scale), [text("l Office 5G", 25.6, 12, end, 31)]);
      expect(summary(rows)).toEqual([["text", "Office 5G", ""]]);
      expect((rows[0]?.box[0] ?? 0) * 390).toBeGreaterThan(40);
    }
  });

  it("judges bars by their inner columns: a side column speckled by a frame's JPEG does not count", () => {
    const c = canvas(390, 44, 2, WHITE);
    bars(c, 16);
    const end = word(c, 45, 9);
    // A column just right of the tallest bar, faintly inked at three rows only (measured on a filmed
    // synthetic list: 3 of 21 rows over the ink threshold).
    const x = Math.round((16 + 3 * 4.8 + 3.5) * 2);
    for (const y of [20, 40, 58]) c.data.set(GREEN, (y * c.width + x) * 3);
    expect(summary(splitFusedGlyphs(c, [text("-ll Office 5G", 16, 12, end, 31)]))).toEqual([
      ["text", "Office 5G", ""],
    ]);
  });

  it("turns a line that is only a bar glyph (`ll`, a signal beside `-50 dBm`) into an icon row", () => {
    for (const scale of [2, 3]) {
      const c = canvas(390, 44, scale, WHITE);
      bars(c, 300, GREEN, [3, 6, 9, 12]);
      expect(summary(splitFusedGlyphs(c, [text("ll", 300, 18.5, 319, 30.5)]))).toEqual([["icon", "", ""]]);
    }
  });

  it("leaves a trailing `v`, bar-like letters of equal height, and a glyph glued to the title", () => {
    const c = canvas(390, 44, 3, WHITE);
    const end = word(c, 45, 12);
    vee(c, end + 8);
    const v = text("Vitamin v", 45, 16, end + 16, 29);
    expect(splitFusedGlyphs(c, [v])).toEqual([v]);
    // `ill` set as letters: stems of one height (the dot of the `i` as tall as the `l`s) are no steps.
    const letters = canvas(390, 44, 3, WHITE);
    rect(letters, 16, BASE - 8.5, 1.6, 8.5, BLACK);
    rect(letters, 16, BASE - 12, 1.6, 1.6, BLACK);
    rect(letters, 19, BASE - 12, 1.6, 12, BLACK);
    rect(letters, 22, BASE - 12, 1.6, 12, BLACK);
    const wend = word(letters, 30, 8);
    const ill = text("ill health", 16, 16, wend, 28);
    expect(splitFusedGlyphs(letters, [ill])).toEqual([ill]);
    // A check mark right after the last letter (no word space) is part of the word's ink run.
    const glued = canvas(390, 44, 3, WHITE);
    const gend = word(glued, 45, 12);
    check(glued, gend - 1);
    const g = text("Done √", 45, 15, gend + 13, 29);
    expect(splitFusedGlyphs(glued, [g])).toEqual([g]);
  });
});
