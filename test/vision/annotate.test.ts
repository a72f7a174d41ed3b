import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { annotateScreen, ScreenAnnotator } from "../../src/vision/annotate.js";
import type { ListingEntry } from "../../src/vision/listing.js";
import { fonts } from "../sim/phone/helpers.js";

/** A flat grey screen. */
function grey(width: number, height: number, level = 128): RgbImage {
  return { width, height, channels: 3, data: Buffer.alloc(width * height * 3, level) };
}

async function decode(jpeg: Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

function pixel(img: RgbImage, x: number, y: number): [number, number, number] {
  const o = (y * img.width + x) * 3;
  return [img.data[o] ?? 0, img.data[o + 1] ?? 0, img.data[o + 2] ?? 0];
}

const entries: ListingEntry[] = [
  { id: 1, kind: "icon", label: "", box: [0.1, 0.2, 0.4, 0.3], conf: 0.9 },
  { id: 12, kind: "text", label: "Hello", box: [0.5, 0.5, 0.9, 0.55], conf: 0.95 },
];

describe("ScreenAnnotator", () => {
  it("draws each box in its kind's colour and leaves the rest of the screen alone", async () => {
    const screen = grey(400, 800);
    const before = Buffer.from(screen.data);
    const img = await decode(await new ScreenAnnotator(fonts).annotate(screen, entries));
    expect([img.width, img.height]).toEqual([400, 800]);
    expect(screen.data.equals(before)).toBe(true);
    // Left edge of the icon box (x = 40) halfway down it: orange; text box's left edge (x = 200): blue.
    // (One-pixel lines: JPEG chroma subsampling blends them with the grey beside them.)
    const [r1, g1, b1] = pixel(img, 40, 200);
    expect(r1 - b1).toBeGreaterThan(60);
    expect(r1).toBeGreaterThan(g1);
    const [r2, , b2] = pixel(img, 200, 420);
    expect(b2 - r2).toBeGreaterThan(60);
    // Inside a box and far from any box: untouched grey.
    for (const [x, y] of [
      [100, 200],
      [300, 700],
    ] as const)
      for (const v of pixel(img, x, y)) expect(Math.abs(v - 128)).toBeLessThan(8);
  });

  it("puts the entry's number in white on a tag above the box", async () => {
    const img = await decode(await new ScreenAnnotator(fonts).annotate(grey(720, 1440, 0), entries));
    // Tag of entry 1: above the icon box (top y = 288), 21 px high, starting at x = 72.
    let white = 0;
    let tag = 0;
    for (let y = 269; y < 287; y++)
      for (let x = 73; x < 90; x++) {
        const [r, g, b] = pixel(img, x, y);
        if (r > 220 && g > 220 && b > 220) white++;
        else if (r > 180 && b < 90) tag++;
      }
    expect(white).toBeGreaterThan(5);
    expect(tag).toBeGreaterThan(20);
  });

  it("scales a screen larger than maxLongEdge down to fit, and matches the one-off helper", async () => {
    const screen = grey(1000, 2000);
    const annotator = new ScreenAnnotator(fonts, { maxLongEdge: 800, quality: 80 });
    const kept = await annotator.annotate(screen, entries);
    const img = await decode(kept);
    expect([img.width, img.height]).toEqual([400, 800]);
    const once = await annotateScreen(screen, entries, fonts, { maxLongEdge: 800, quality: 80 });
    expect(once.equals(kept)).toBe(true);
  });

  it("gives the same JPEG from a canvas started early, and leaves the screen's pixels alone", async () => {
    // A textured screen, so the shrink's filter shows in the bytes.
    const screen = grey(1170, 2532);
    for (let i = 0; i < screen.data.length; i++) screen.data[i] = (i * 7919) % 251;
    const before = Buffer.from(screen.data);
    const annotator = new ScreenAnnotator(fonts);
    const early = annotator.canvas(screen);
    const a = await annotator.annotate(screen, entries, early);
    const b = await annotator.annotate(screen, entries);
    expect(a.equals(b)).toBe(true);
    expect(screen.data.equals(before)).toBe(true);
  });
});
