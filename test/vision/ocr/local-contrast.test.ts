import { describe, expect, it } from "vitest";
import type { GrayImage, RgbImage } from "../../../src/shared/image.js";
import {
  darkestChannelSpread,
  inkGrey,
  normalizeLocalContrast,
  WASHED_OUT_SPREAD,
} from "../../../src/vision/ocr/local-contrast.js";

/** A pale blue card under an additive, clipping glare spot, with a white "label" (2 px strokes every 6 px) in the spot's core. */
function glaredCard(w: number, h: number): { image: RgbImage; label: [number, number, number, number] } {
  const data = Buffer.alloc(w * h * 3);
  const label: [number, number, number, number] = [
    Math.round(w * 0.4),
    Math.round(h * 0.45),
    Math.round(w * 0.6),
    Math.round(h * 0.5),
  ];
  const [cx, cy, r] = [w * 0.5, h * 0.5, w * 0.2];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inLabel =
        x >= label[0] && x < label[2] && y >= label[1] && y < label[3] && (x - label[0]) % 6 < 2;
      const base = inLabel ? [255, 255, 255] : [150, 190, 230];
      const add = 100 * Math.exp(-(((x - cx) ** 2 + (y - cy) ** 2) / (2 * r * r)));
      for (let k = 0; k < 3; k++) data[(y * w + x) * 3 + k] = Math.min(255, Math.round((base[k] ?? 0) + add));
    }
  return { image: { width: w, height: h, channels: 3, data }, label };
}

/** Channel `k` of a colour image's pixel, or a grey plane's value there. */
const at = (img: RgbImage | GrayImage, x: number, y: number, k = 0): number =>
  ("channels" in img ? img.data[(y * img.width + x) * 3 + k] : img.data[y * img.width + x]) ?? 0;

describe("normalizeLocalContrast", () => {
  it("amplifies a label washed out by glare (a few levels in one channel) into a grey contrast", () => {
    const { image, label } = glaredCard(300, 600);
    const [x0, y0, x1, y1] = label;
    const mx = x0 + 6 * Math.round((x1 - x0) / 12);
    const inside = { x: mx, y: Math.round((y0 + y1) / 2) };
    const outside = { x: mx + 3, y: inside.y };
    // The premise: the label differs from the card by ≤ 10 levels in red and not at all in green/blue.
    const redStep = at(image, inside.x, inside.y, 0) - at(image, outside.x, outside.y, 0);
    expect(redStep).toBeGreaterThan(0);
    expect(redStep).toBeLessThanOrEqual(10);
    expect(at(image, inside.x, inside.y, 1)).toBe(at(image, outside.x, outside.y, 1));
    const out = normalizeLocalContrast(image);
    expect(out.width).toBe(300);
    expect(out.height).toBe(600);
    // Well over twice the step it had in its best channel (the floor caps the gain at gain / floor = 4).
    expect(at(out, inside.x, inside.y) - at(out, outside.x, outside.y)).toBeGreaterThanOrEqual(2.5 * redStep);
    // One grey plane: a byte a pixel.
    expect(out.data.length).toBe(300 * 600);
  });

  it("keeps a flat noisy area near mid-grey instead of amplifying the noise", () => {
    const w = 200;
    const h = 200;
    const data = Buffer.alloc(w * h * 3);
    let seed = 1;
    for (let i = 0; i < data.length; i += 3) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const v = 120 + (seed % 7) - 3;
      data[i] = v;
      data[i + 1] = v + 40;
      data[i + 2] = v + 80;
    }
    const out = normalizeLocalContrast({ width: w, height: h, channels: 3, data });
    let worst = 0;
    for (let i = 0; i < out.data.length; i++) worst = Math.max(worst, Math.abs((out.data[i] ?? 0) - 128));
    expect(worst).toBeLessThanOrEqual(24);
  });

  it("scales its neighbourhood with the image: the same screen at twice the size gives the same picture", () => {
    const small = normalizeLocalContrast(glaredCard(200, 400).image);
    const large = normalizeLocalContrast(glaredCard(400, 800).image);
    let diff = 0;
    let n = 0;
    for (let y = 0; y < 400; y += 7)
      for (let x = 0; x < 200; x += 7) {
        diff += Math.abs(at(small, x, y) - at(large, 2 * x, 2 * y));
        n++;
      }
    expect(diff / n).toBeLessThan(6);
  });
});

describe("darkestChannelSpread", () => {
  it("calls a glare-washed label washed out and a dark label on white clear", () => {
    const { image, label } = glaredCard(300, 600);
    const [x0, y0, x1, y1] = label;
    const washed = darkestChannelSpread(image, { x0, y0, x1, y1, score: 1 });
    expect(washed).toBeLessThan(WASHED_OUT_SPREAD);
    const data = Buffer.alloc(60 * 20 * 3, 255);
    for (let x = 10; x < 50; x += 4) data.fill(20, (10 * 60 + x) * 3, (10 * 60 + x + 2) * 3);
    const clear = darkestChannelSpread(
      { width: 60, height: 20, channels: 3, data },
      { x0: 0, y0: 0, x1: 60, y1: 20, score: 1 },
    );
    expect(clear).toBeGreaterThanOrEqual(WASHED_OUT_SPREAD);
    // A box partly or wholly outside the image reads only what is inside.
    expect(darkestChannelSpread(image, { x0: -50, y0: -50, x1: 1e4, y1: 1e4, score: 1 })).toBeGreaterThan(0);
    expect(darkestChannelSpread(image, { x0: 400, y0: 700, x1: 500, y1: 800, score: 1 })).toBe(0);
  });
});

describe("text on colour", () => {
  /** A yellow (#FFCC00) button with black 2 px strokes every 6 px across its middle third. */
  function yellowButton(w: number, h: number): RgbImage {
    const data = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const ink = y > h / 3 && y < (2 * h) / 3 && x > w / 4 && x < (3 * w) / 4 && x % 6 < 2;
        const c = ink ? [0, 0, 0] : [255, 204, 0];
        for (let k = 0; k < 3; k++) data[(y * w + x) * 3 + k] = c[k] ?? 0;
      }
    return { width: w, height: h, channels: 3, data };
  }

  it("keeps black ink on yellow apart, though both are 0 in the darkest channel", () => {
    const image = yellowButton(240, 120);
    const flat = normalizeLocalContrast(image);
    const ink = at(flat, 120, 60);
    const paper = at(flat, 123, 60);
    expect(at(image, 120, 60, 2)).toBe(at(image, 123, 60, 2)); // blue: 0 for both
    expect(paper - ink).toBeGreaterThan(60);
  });

  it("leaves greys and pale or muted colours on the darkest channel, saturated ones on lightness", () => {
    const px = (r: number, g: number, b: number): number => inkGrey(Uint8Array.from([r, g, b]), 0);
    expect(px(120, 130, 140)).toBe(120);
    expect(px(150, 190, 230)).toBe(150); // a pale blue card
    expect(px(100, 160, 210)).toBe(100);
    expect(px(255, 204, 0)).toBeCloseTo(127.5, 5); // yellow
    expect(px(10, 132, 255)).toBeCloseTo(132.5, 5); // systemBlue, dark mode
    expect(px(0, 0, 0)).toBe(0);
  });

  it("keeps a systemBlue link on black apart, though both are near 0 in the darkest channel", () => {
    const w = 240;
    const h = 120;
    const data = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const ink = y > h / 3 && y < (2 * h) / 3 && x > w / 4 && x < (3 * w) / 4 && x % 6 < 2;
        const c = ink ? [10, 132, 255] : [0, 0, 0];
        for (let k = 0; k < 3; k++) data[(y * w + x) * 3 + k] = c[k] ?? 0;
      }
    const flat = normalizeLocalContrast({ width: w, height: h, channels: 3, data });
    expect(at(flat, 120, 60) - at(flat, 123, 60)).toBeGreaterThan(60);
  });
});
