import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { blankIconBoxes } from "../../src/vision/blank-boxes.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";

/**
 * Disabled bar buttons (UIKit draws `isEnabled = false` bar items in about systemGray3: #C7C7CC on a
 * light bar, #48484A on a dark one) at iOS toolbar metrics: a 390 × 844 pt screen at 2 px/pt, the
 * toolbar's 44 pt row over the 34 pt home-indicator inset (766–810 pt), chevrons 10 × 20 pt with
 * 2.4 pt strokes (SF Symbols `chevron.backward` / `chevron.forward` at the bar's 17 pt weight).
 */
type Rgb = readonly [number, number, number];
const LIGHT = {
  bg: [255, 255, 255] as Rgb,
  bar: [249, 249, 249] as Rgb,
  grey: [199, 199, 204] as Rgb,
};
const DARK = {
  bg: [0, 0, 0] as Rgb,
  bar: [28, 28, 30] as Rgb,
  grey: [72, 72, 74] as Rgb,
};
const S = 2;

function screen(theme: typeof LIGHT, barTop = 766): RgbImage {
  const width = 390 * S;
  const height = 844 * S;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const c = y >= barTop * S ? theme.bar : theme.bg;
    for (let x = 0; x < width; x++) data.set(c, (y * width + x) * 3);
  }
  return { width, height, channels: 3, data };
}

/** A chevron (pointing left when `dir` is -1) centred at (x, y) pt, strokes `stroke` pt wide. */
function chevron(img: RgbImage, x: number, y: number, dir: 1 | -1, c: Rgb, stroke = 2.4): void {
  const segs = [
    [x - 5 * dir, y - 10, x + 5 * dir, y],
    [x + 5 * dir, y, x - 5 * dir, y + 10],
  ] as const;
  for (let py = (y - 12) * S; py <= (y + 12) * S; py++)
    for (let px = (x - 8) * S; px <= (x + 8) * S; px++) {
      const d = Math.min(...segs.map(([ax, ay, bx, by]) => distance(px / S, py / S, ax, ay, bx, by)));
      if (d <= stroke / 2) img.data.set(c, (Math.round(py) * img.width + Math.round(px)) * 3);
    }
}
function distance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}
const ptBox = (l: number, t: number, r: number, b: number): Candidate["box"] => [
  l / 390,
  t / 844,
  r / 390,
  b / 844,
];
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.47 });

describe("a disabled toolbar chevron", () => {
  for (const [name, theme] of [
    ["light", LIGHT],
    ["dark", DARK],
  ] as const) {
    it(`keeps the detector's wide box around a thin chevron (${name}); drops a blank one`, () => {
      const img = screen(theme);
      chevron(img, 113, 788, 1, theme.grey);
      chevron(img, 35, 788, -1, theme.grey);
      // Where the detector boxes Safari's buttons: ~73 × 46 pt hit areas, the symbol in the middle.
      const forward = icon(ptBox(76, 769, 151, 812));
      const back = icon(ptBox(1, 770, 73, 815));
      const blank = icon(ptBox(160, 769, 235, 812)); // the bar's empty middle
      const edge = icon(ptBox(60, 769, 135, 812)); // the chevrons' ink only at the box's sides
      const rows = dropSpuriousRows([forward, back, blank], 844 / 390, img);
      expect(rows).toContain(forward);
      expect(rows).toContain(back);
      expect(rows).not.toContain(blank);
      const blanks = blankIconBoxes(img, [forward, back, blank, edge]);
      expect(blanks.has(forward)).toBe(false);
      expect(blanks.has(back)).toBe(false);
      expect(blanks.has(blank)).toBe(true);
      expect(blanks.has(edge)).toBe(false); // ink in the whole box's percentiles: not blank, as before
    });
  }
});
