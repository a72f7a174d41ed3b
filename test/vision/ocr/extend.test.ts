import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import type { PixelBox } from "../../../src/vision/ocr/detect.js";
import { extendAlongLines } from "../../../src/vision/ocr/extend.js";

/** A white `w`×60 image with black rectangles `[x0, y0, x1, y1)`. */
function drawn(w: number, rects: readonly (readonly [number, number, number, number])[]): RgbImage {
  const h = 60;
  const data = Buffer.alloc(w * h * 3, 255);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y < y1; y++) data.fill(0, (y * w + x0) * 3, (y * w + x1) * 3);
  return { width: w, height: h, channels: 3, data };
}

/** Glyphs 10 px wide and 20 px tall (rows 20–39: an em of ~21 px), 2 px apart, from `x`. */
const word = (x: number, letters: number) =>
  Array.from({ length: letters }, (_, i) => [x + 12 * i, 20, x + 12 * i + 10, 40] as const);
/** Two words 7 px apart (a word space, 0.33 em), then a second label 16 px on (0.75 em). */
const LINE = [...word(20, 3), ...word(61, 2), ...word(99, 2)];
const region = (x0: number, x1: number): PixelBox => ({ x0, y0: 12, x1, y1: 48, score: 0.9 });

describe("text regions followed along their line", () => {
  it("grows a region cut inside a word over the rest of the label, across word spaces", () => {
    // The region ends inside the second letter: the map fired on part of the line only.
    const [box] = extendAlongLines(drawn(200, LINE), [region(10, 38)]);
    expect(box?.x0).toBe(10);
    // Through `…` of the first word and the whole second one (ink to x 82), a margin after it, and not
    // over the 16 px gap to the next label.
    expect(box?.x1).toBeCloseTo(88, 0);
  });

  it("leaves a region that ends at a word's end, and one whose line has no more ink", () => {
    const image = drawn(200, LINE);
    expect(extendAlongLines(image, [region(10, 60)])).toEqual([region(10, 60)]);
    expect(extendAlongLines(image, [region(92, 125)])).toEqual([region(92, 125)]);
  });

  it("merges two regions of one label the walk joins, not regions that met before", () => {
    const image = drawn(200, LINE);
    expect(extendAlongLines(image, [region(10, 38), region(56, 90)])).toEqual([
      { x0: 10, y0: 12, x1: 90, y1: 48, score: 0.9 },
    ]);
    // A label and a line over it the detector kept apart stay two.
    const stacked = [region(10, 60), { ...region(10, 60), y0: 14, y1: 50 }];
    expect(extendAlongLines(image, stacked)).toEqual(stacked);
  });

  it("stops at ink reaching above or below the line, a wide run and a faint run", () => {
    // A picture above and below the line from x 40 on.
    const picture = drawn(200, [...LINE, [40, 0, 120, 16], [40, 44, 120, 60]]);
    expect(extendAlongLines(picture, [region(10, 38)])[0]?.x1).toBeLessThan(42);
    // A bar through the line's band from the glyph the region cut (the home indicator under a label).
    const bar = drawn(200, [...word(20, 2), [32, 34, 160, 40]]);
    expect(extendAlongLines(bar, [region(10, 38)])).toEqual([region(10, 38)]);
    // Faint ink a letter gap after the line (a map's road, a picture's edge): grey 150 beside black.
    const faint = drawn(200, word(20, 2));
    for (let y = 20; y < 40; y++) faint.data.fill(150, (y * 200 + 44) * 3, (y * 200 + 70) * 3);
    expect(extendAlongLines(faint, [region(10, 44)])).toEqual([region(10, 44)]);
    // The same run as dark as the line's glyphs is taken.
    const dark = drawn(200, [...word(20, 2), [44, 20, 70, 40]]);
    expect(extendAlongLines(dark, [region(10, 44)])[0]?.x1).toBeCloseTo(75, 0);
  });
});

describe("line ends in camera frames (blur, surfaces, split regions)", () => {
  it("walks on over a surface's edge running under the whole line (a bubble's, a bar's)", () => {
    const edged = drawn(200, [...LINE, [0, 50, 200, 51]]);
    expect(extendAlongLines(edged, [region(10, 38)])[0]?.x1).toBeCloseTo(88, 0);
  });

  it("takes letters blur joined into one run, each gap still a dip, but not a bar that holds its ink", () => {
    // Five letters whose 2 px gaps blur left grey (150: ink, but fainter than half the line's).
    const blurred = drawn(200, word(20, 5));
    for (let y = 20; y < 40; y++)
      for (let k = 0; k < 4; k++)
        blurred.data.fill(150, (y * 200 + 30 + 12 * k) * 3, (y * 200 + 32 + 12 * k) * 3);
    expect(extendAlongLines(blurred, [region(10, 38)])[0]?.x1).toBeGreaterThan(78);
    const bar = drawn(200, [...word(20, 2), [32, 20, 120, 40]]);
    expect(extendAlongLines(bar, [region(10, 38)])).toEqual([region(10, 38)]);
  });

  it("crosses a word space to another region found on the line, not to ink no region holds", () => {
    const image = drawn(200, LINE);
    // `…` (20–54) and the second word (61–82) found as two regions, the first ending at its word's end.
    expect(extendAlongLines(image, [region(10, 57), region(58, 88)])).toEqual([
      { x0: 10, y0: 12, x1: 88, y1: 48, score: 0.9 },
    ]);
    expect(extendAlongLines(image, [region(10, 57)])).toEqual([region(10, 57)]);
    // A region 16 px (0.75 em) off — the next label, or an icon found as text — is no word of this one.
    expect(extendAlongLines(image, [region(90, 125), region(58, 88)])).toEqual([
      region(90, 125),
      region(58, 88),
    ]);
  });
});

/** A map hint that marks text (0.9) on columns `[x0, x1)` of every row, nothing elsewhere. */
const marks =
  (x0: number, x1: number) =>
  (b: PixelBox): number =>
    b.x1 > x0 && b.x0 < x1 ? 0.9 : 0.1;

describe("ink past a gap the detection map marks as text (map-hint.ts)", () => {
  // Capitals-only ink 20 px tall: em ~21 px by the ink's reach, ~28 px by its cap height. The region
  // ends inside the first word; a 14 px gap (0.67 / 0.5 em) after it, a 26 px one (0.93 em) before a
  // second label.
  const wide = drawn(200, [...word(20, 3), ...word(68, 2), ...word(116, 2)]);

  it("crosses a gap a cap-height line's em understates when the map peaks on the ink past it", () => {
    // The map's blip over the second word (a dimmed caption's `ago`) confirms it; not the label after.
    expect(extendAlongLines(wide, [region(10, 38)], marks(70, 76))[0]?.x1).toBeCloseTo(95, 0);
    expect(extendAlongLines(wide, [region(10, 38)], marks(60, 200))[0]?.x1).toBeCloseTo(95, 0);
  });

  it("stops at that gap when the map marks nothing past it, or only the region's own ink", () => {
    const before = extendAlongLines(wide, [region(10, 38)]);
    expect(before[0]?.x1).toBeCloseTo(59, 0);
    expect(extendAlongLines(wide, [region(10, 38)], () => 0.3)).toEqual(before);
    expect(extendAlongLines(wide, [region(10, 38)], marks(20, 54))).toEqual(before);
  });

  it("leaves a region that ends at a word's end, and takes no icon or bar, whatever the map says", () => {
    // The first gap stays the detector's call: an icon a word space after a label's end.
    expect(extendAlongLines(drawn(200, LINE), [region(10, 57)], marks(0, 200))).toEqual([region(10, 57)]);
    const icon = drawn(200, [...word(20, 3), [68, 8, 92, 52]]);
    expect(extendAlongLines(icon, [region(10, 38)], marks(0, 200))[0]?.x1).toBeCloseTo(59, 0);
    const bar = drawn(200, [...word(20, 3), [68, 20, 160, 40]]);
    expect(extendAlongLines(bar, [region(10, 38)], marks(0, 200))[0]?.x1).toBeCloseTo(59, 0);
  });
});
