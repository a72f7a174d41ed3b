import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { applySteppers, findSteppers } from "../../src/vision/steppers.js";
import { row } from "./candidates.js";
import { loadRealImage } from "./real-set.js";
import {
  blur,
  type Canvas,
  canvas,
  DARK_13,
  LIGHT_12,
  LIGHT_13,
  rect,
  type StepperStyle,
  stepper,
} from "./stepper-synth.js";

/** A 390 pt wide strip of a settings cell with a stepper at its trailing end, 3× pixels. */
function cell(
  st: StepperStyle,
  bg: readonly [number, number, number],
  scale = 3,
): { c: Canvas; box: number[] } {
  const c = canvas(390, 120, scale, bg);
  const b = stepper(c, 276, 44, st);
  return { c, box: [b[0] / 390, b[1] / 120, b[2] / 390, b[3] / 120] };
}

const WHITE = [255, 255, 255] as const;
const DARK_CELL = [28, 28, 30] as const;

describe("steppers (UIStepper, 94 × 32 pt, two 47 pt halves)", () => {
  const cases: [string, StepperStyle, readonly [number, number, number]][] = [
    ["iOS 13 light", LIGHT_13, WHITE],
    ["iOS 13 light, − dimmed at its minimum", { ...LIGHT_13, dim: "minus" }, WHITE],
    ["iOS 13 dark", DARK_13, DARK_CELL],
    ["iOS 13 dark, − dimmed", { ...DARK_13, dim: "minus" }, DARK_CELL],
    ["iOS 12 outlined", LIGHT_12, WHITE],
    ["iOS 12 outlined, + dimmed at its maximum", { ...LIGHT_12, dim: "plus" }, WHITE],
  ];
  for (const [name, st, bg] of cases)
    it(`finds ${name}: − left half, + right half`, () => {
      for (const scale of [2, 3]) {
        const { c, box } = cell(st, bg, scale);
        const found = findSteppers(c);
        expect(found).toHaveLength(1);
        const s = found[0];
        if (!s) return;
        const mid = ((box[0] as number) + (box[2] as number)) / 2;
        expect(s.box[0]).toBeCloseTo(box[0] as number, 1);
        expect(s.box[2]).toBeCloseTo(box[2] as number, 1);
        expect(centreX(s.minus)).toBeLessThan(mid);
        expect(centreX(s.plus)).toBeGreaterThan(mid);
        expect(contains(s.minus, (box[0] as number) + 23.5 / 390, centreY(s.minus))).toBe(true);
        expect(contains(s.plus, (box[0] as number) + 70.5 / 390, centreY(s.plus))).toBe(true);
      }
    });

  it("finds a blurred (filmed) stepper", () => {
    for (const st of [{ ...LIGHT_13, dim: "minus" as const }, DARK_13, LIGHT_12]) {
      const { c } = cell(st, st === DARK_13 ? DARK_CELL : WHITE);
      expect(findSteppers(blur(c, 3))).toHaveLength(1);
    }
  });

  it("lists the halves as buttons and drops the rows the glyphs gave", () => {
    const { c } = cell({ ...DARK_13, dim: "minus" }, DARK_CELL);
    const title = row("text", "Brightness step", [0.04, 0.45, 0.4, 0.55]);
    const plus = row("button", "add", [0.87, 0.47, 0.91, 0.59]);
    const minus = row("text", "-", [0.75, 0.5, 0.78, 0.55]);
    const out = applySteppers(c, [title, plus, minus]);
    expect(out).toContain(title);
    expect(out).not.toContain(plus);
    expect(out).not.toContain(minus);
    expect(out.filter((r: Candidate) => r.kind === "button").map((r) => r.label)).toEqual(["minus", "plus"]);
  });

  it("finds no stepper in a − and a + without the control round them, or in text-sized dashes", () => {
    const c = canvas(390, 120, 3, WHITE);
    // A lone − and + (two icon buttons 47 pt apart, no body, no divider).
    rect(c, 40, 59, 14, 2, [0, 122, 255]);
    rect(c, 87, 59, 14, 2, [0, 122, 255]);
    rect(c, 93, 53, 2, 14, [0, 122, 255]);
    // `-8HRS`-sized minus signs and pluses in a line of 17 pt text: 6–9 pt wide.
    rect(c, 200, 30, 7, 2, [0, 0, 0]);
    rect(c, 250, 30, 9, 2, [0, 0, 0]);
    rect(c, 253.5, 26.5, 2, 9, [0, 0, 0]);
    // A list separator (a hairline across the row) and a segmented control's divider.
    rect(c, 16, 100, 374, 1, [198, 198, 200]);
    expect(findSteppers(c)).toEqual([]);
  });

  it("finds the dev set's one stepper (IQKeyboardManager settings, iOS 13 light) and nothing on list screens", async () => {
    const found = findSteppers(await loadRealImage("rv-iqkm-settings.png"));
    expect(found).toHaveLength(1);
    const s = found[0];
    if (s) expect(contains([0.672, 0.319, 0.91, 0.359], centreX(s.box), centreY(s.box))).toBe(true);
    for (const id of [
      "ra-tp-alertcontroller-prefs.png",
      "rb-bkpasscode-demo-list.png",
      "rb-simplecalc-calculator.png",
    ])
      expect(findSteppers(await loadRealImage(id))).toEqual([]);
  });
});
