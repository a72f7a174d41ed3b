import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeRgb } from "../../src/vision/rectify.js";
import { findSliders } from "../../src/vision/sliders.js";
import { filmScreenshot } from "./ocr/filmed-real.js";
import { REAL_SET_DIR } from "./real-set.js";
import { type Mode, type Part, sliderScreen } from "./slider-synth.js";

/** Found sliders as [top in points, value to 2 places], top to bottom. */
async function found(png: Buffer, seed?: number): Promise<[number, number][]> {
  const image = seed === undefined ? await decodeRgb(png) : await filmScreenshot(png, seed);
  return findSliders(image).map((s) => [Math.round(s.box[1] * 844), Math.round(s.value * 100) / 100]);
}

/** A found slider whose box top lies within 20 pt above centre line `y`, at `value` ± 0.05. */
function has(list: [number, number][], y: number, value: number): boolean {
  return list.some(([top, v]) => top > y - 20 && top < y && Math.abs(v - value) <= 0.05);
}

// UISliders at value 0 and 1 (the white thumb hides the track's end) and mid-way; ResearchKit scales
// (1 pt track, 1 × 7 pt ticks) with the thumb at the minimum beside its range label `1`, mid-way and at
// the maximum, on a half point (the track over two grid rows) and on a whole point (one row).
const SLIDERS: (Part & { value: number; y: number })[] = [
  { kind: "uislider", y: 100, value: 0 },
  { kind: "uislider", y: 180, value: 1 },
  { kind: "uislider", y: 260, value: 0.4 },
  { kind: "scale", y: 360, value: 0, steps: 6 },
  { kind: "scale", y: 440, value: 0.5, steps: 6 },
  { kind: "scale", y: 520, value: 1, steps: 4 },
  { kind: "scale", y: 630.5, value: 0, steps: 6 },
  { kind: "scale", y: 810.5, value: 0.5, steps: 9 },
];
/** Where a track's value reads: UIKit's track box spans the thumb, so an end thumb is ~4% in. */
const EXPECT = [0.04, 0.96, 0.41, 0.05, 0.5, 0.95, 0.05, 0.5];
// Things with a line and no knob, or a knob-like shape off a track.
const NEGATIVES: Part[] = [
  { kind: "axis", y: 600, steps: 6 },
  { kind: "divider", y: 660 },
  { kind: "progress", y: 700, value: 0.3 },
  { kind: "segmented", y: 760, segments: 3, selected: 0 },
];

describe("findSliders at a track's ends and on ticked tracks", () => {
  for (const mode of ["light", "dark"] as Mode[]) {
    it(`finds end thumbs and ResearchKit scales at their values, ${mode}, screenshot and filmed`, async () => {
      const png = await sliderScreen(mode, [...SLIDERS, ...NEGATIVES]);
      const shot = await found(png);
      // Every slider at its value, and nothing else (not the axis, divider, progress bar or segments).
      SLIDERS.forEach((s, i) => {
        expect(has(shot, s.y, EXPECT[i] ?? -1), `${mode} y ${s.y}`).toBe(true);
      });
      expect(shot).toHaveLength(SLIDERS.length);
      // Filmed: whatever is found is a slider at its value; dark, all are found; light, at least 5 of 8
      // (a white thumb at a light track's right end loses its shadow's rim to the blur on some seeds).
      for (const seed of [7, 17]) {
        const film = await found(png, seed);
        for (const [top, v] of film)
          expect(
            SLIDERS.some((s, i) => top > s.y - 20 && top < s.y && Math.abs(v - (EXPECT[i] ?? -1)) <= 0.05),
            `${mode} seed ${seed}: ${top} ${v}`,
          ).toBe(true);
        expect(film.length, `${mode} seed ${seed}`).toBeGreaterThanOrEqual(
          mode === "dark" ? SLIDERS.length : 5,
        );
      }
    }, 60_000);
  }

  it("finds no slider in a chat's audio bubbles: a thin progress line after a ringed play button", async () => {
    // MessageKit's audio messages (dev set): a 1 pt grey line beside the play ring, no knob on it.
    const png = readFileSync(join(REAL_SET_DIR, "images", "rb-messagekit-chat.png"));
    expect(await found(png)).toEqual([]);
  });
});
