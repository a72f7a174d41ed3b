import { describe, expect, it } from "vitest";
import { trimIconsBesideText } from "../../src/vision/icon-beside-text.js";
import type { Candidate } from "../../src/vision/row.js";
import { blur, type Canvas, canvas, type Rgb, rect, star } from "./stepper-synth.js";

/**
 * A transit row's trailing prediction and its favourite star (SF Symbol `star.fill`, 20 pt, 8 pt after
 * 17 pt text), with one detector icon box over both: the box is cut back to the star.
 */
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const YELLOW: Rgb = [255, 204, 0];

/** A stand-in for a word: stems 1.6 pt wide, 1.2 pt apart, 12 pt tall, from `x` to the returned edge. */
function word(c: Canvas, x: number, base: number, letters: number, colour: Rgb): number {
  for (let i = 0; i < letters; i++) rect(c, x + i * 2.8, base - 12, 1.6, 12, colour);
  return x + letters * 2.8;
}

const frac = (c: Canvas, l: number, t: number, r: number, b: number): Candidate["box"] => [
  l / (c.width / c.scale),
  t / (c.height / c.scale),
  r / (c.width / c.scale),
  b / (c.height / c.scale),
];

describe("trimIconsBesideText", () => {
  it("cuts an icon box over a line and the star after it back to the star, sharp and blurred", () => {
    for (const scale of [2, 3])
      for (const soft of [false, true]) {
        const c = canvas(390, 60, scale, WHITE);
        word(c, 290, 36, 8, BLACK); // `50 min`, ending at 312 pt
        star(c, 346, 30, 10, YELLOW);
        const line: Candidate = { kind: "text", label: "50 min", box: frac(c, 288, 22, 314, 38), conf: 0.9 };
        const icon: Candidate = { kind: "icon", label: "", box: frac(c, 280, 18, 360, 42), conf: 0.5 };
        const [, out] = trimIconsBesideText(soft ? blur(c, scale) : c, [line, icon]) as [
          Candidate,
          Candidate,
        ];
        expect(out.box[0] * 390).toBeGreaterThan(333);
        expect(((out.box[0] + out.box[2]) / 2) * 390).toBeCloseTo(346, 0);
        // A five-pointed star's box sits ~0.1 radius above its centre (its lower points reach 0.81 r).
        expect(Math.abs(((out.box[1] + out.box[3]) / 2) * 60 - 29)).toBeLessThan(1);
      }
  });

  it("leaves a box alone around text only, around two lines, a leading symbol or a badge's fill", () => {
    const c = canvas(390, 60, 3, WHITE);
    word(c, 290, 36, 8, BLACK);
    const line: Candidate = { kind: "text", label: "50 min", box: frac(c, 288, 22, 314, 38), conf: 0.9 };
    const icon: Candidate = { kind: "icon", label: "", box: frac(c, 280, 18, 360, 42), conf: 0.5 };
    expect(trimIconsBesideText(c, [line, icon])).toEqual([line, icon]); // nothing beside the words
    word(c, 330, 36, 6, BLACK); // a second line where a symbol would be
    const next: Candidate = { kind: "text", label: "Now", box: frac(c, 328, 22, 348, 38), conf: 0.9 };
    expect(trimIconsBesideText(c, [line, next, icon])).toEqual([line, next, icon]);
    const d = canvas(390, 60, 3, WHITE);
    word(d, 290, 36, 8, BLACK);
    star(d, 270, 30, 8, YELLOW); // a leading symbol only: a decoration, not an accessory
    const wide: Candidate = { kind: "icon", label: "", box: frac(d, 258, 18, 320, 42), conf: 0.5 };
    expect(trimIconsBesideText(d, [line, wide])).toEqual([line, wide]);
    // A route badge holding its name: its fill runs from the box's top to its bottom past the words.
    const b = canvas(390, 60, 3, WHITE);
    rect(b, 280, 18, 80, 24, [111, 100, 240]);
    word(b, 290, 36, 8, WHITE);
    const badge: Candidate = { kind: "icon", label: "", box: frac(b, 280, 18, 360, 42), conf: 0.5 };
    expect(trimIconsBesideText(b, [line, badge])).toEqual([line, badge]);
  });
});
