import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { GrayImage, RgbImage } from "../../../src/shared/image.js";
import { detectionInput, detectionInputGrey } from "../../../src/vision/ocr/detect.js";
import {
  DEFAULT_LOCAL_CONTRAST,
  inkGrey,
  type LocalContrastOptions,
  normalizeLocalContrast,
} from "../../../src/vision/ocr/local-contrast.js";

/**
 * The fast local-contrast normalisation (`normalizeLocalContrast`: cell sums kept in float32-rounded
 * locals, the fields interpolated in place) and the one-plane det input must give exactly what the
 * plain formulation gives: the reference below is the per-pixel algorithm as first written (a
 * Float32Array per interpolated row, sums accumulated in the cell array), on `inkGrey`.
 */
const CELL = 4;

function referenceNormalize(image: RgbImage, options: LocalContrastOptions = DEFAULT_LOCAL_CONTRAST): Buffer {
  const { width: w, height: h, data } = image;
  const gw = Math.ceil(w / CELL);
  const gh = Math.ceil(h / CELL);
  const r = Math.max(1, Math.round((options.radius * w) / CELL));
  const grey = new Uint8Array(w * h);
  const cells = new Float32Array(gw * gh);
  const counts = new Float32Array(gw * gh);
  for (let cy = 0; cy < gh; cy++)
    for (let cx = 0; cx < gw; cx++)
      counts[cy * gw + cx] = Math.min(CELL, w - cx * CELL) * Math.min(CELL, h - cy * CELL) || 1;
  for (let y = 0, j = 0; y < h; y++)
    for (let x = 0; x < w; x++, j++) {
      const v = inkGrey(data, j * 3);
      grey[j] = v;
      const c = ((y / CELL) | 0) * gw + ((x / CELL) | 0);
      cells[c] = (cells[c] ?? 0) + v;
    }
  const field = (): Float32Array => {
    for (let c = 0; c < cells.length; c++) cells[c] = (cells[c] ?? 0) / (counts[c] ?? 1);
    const out = Float32Array.from(cells);
    for (let pass = 0; pass < 2; pass++) {
      boxFilter(out, gw, gh, r, 1, gw, false); // along rows
      boxFilter(out, gh, gw, r, gw, 1, true); // along columns
    }
    return out;
  };
  const mean = field();
  const rowOf = (grid: Float32Array, y: number): Float32Array => {
    const out = new Float32Array(w);
    const g = Math.min(gh - 1, Math.max(0, (y + 0.5) / CELL - 0.5));
    const y0 = Math.max(0, Math.min(gh - 2, g | 0));
    const fy = gh > 1 ? g - y0 : 0;
    const b = gh > 1 ? (y0 + 1) * gw : y0 * gw;
    const blend = new Float32Array(gw + 1);
    for (let c = 0; c < gw; c++) blend[c] = (grid[y0 * gw + c] ?? 0) * (1 - fy) + (grid[b + c] ?? 0) * fy;
    blend[gw] = blend[gw - 1] ?? 0;
    for (let x = 0; x < w; x++) {
      const gx = Math.min(gw - 1, Math.max(0, (x + 0.5) / CELL - 0.5));
      const x0 = Math.max(0, Math.min(gw - 2, gx | 0));
      const f = new Float32Array([gw > 1 ? gx - x0 : 0])[0] ?? 0;
      const left = blend[x0] ?? 0;
      out[x] = left + ((blend[x0 + 1] ?? 0) - left) * f;
    }
    return out;
  };
  cells.fill(0);
  for (let y = 0, j = 0; y < h; y++) {
    const m = rowOf(mean, y);
    for (let x = 0; x < w; x++, j++) {
      const c = ((y / CELL) | 0) * gw + ((x / CELL) | 0);
      cells[c] = (cells[c] ?? 0) + Math.abs((grey[j] ?? 0) - (m[x] ?? 0));
    }
  }
  const scale = field();
  for (let c = 0; c < scale.length; c++) scale[c] = options.gain / ((scale[c] ?? 0) + options.floor);
  const out = Buffer.alloc(w * h * 3);
  for (let y = 0, j = 0; y < h; y++) {
    const m = rowOf(mean, y);
    const k = rowOf(scale, y);
    for (let x = 0; x < w; x++, j++) {
      const v = 128.5 + ((grey[j] ?? 0) - (m[x] ?? 0)) * (k[x] ?? 0);
      out.fill(v <= 0 ? 0 : v >= 255 ? 255 : v | 0, j * 3, j * 3 + 3);
    }
  }
  return out;
}

/**
 * Running mean over `[i − r, i + r]` (clamped at the ends, divided by the cells inside) along `n`
 * lines of `len` cells, in place: cell i of line l at `l * lineStep + i * step`. `inverse`: multiply
 * by 1 / count rather than divide (the column pass does; the last bit can differ).
 */
function boxFilter(
  a: Float32Array,
  len: number,
  n: number,
  r: number,
  step: number,
  lineStep: number,
  inverse: boolean,
): void {
  const line = new Float64Array(len);
  for (let l = 0; l < n; l++) {
    for (let i = 0; i < len; i++) line[i] = a[l * lineStep + i * step] ?? 0;
    let sum = 0;
    let count = 0;
    for (let i = 0; i < Math.min(r, len); i++, count++) sum += line[i] ?? 0;
    for (let i = 0; i < len; i++) {
      if (i + r < len) {
        sum += line[i + r] ?? 0;
        count++;
      }
      if (i - r - 1 >= 0) {
        sum -= line[i - r - 1] ?? 0;
        count--;
      }
      a[l * lineStep + i * step] = inverse ? sum * (1 / count) : sum / count;
    }
  }
}

/** Deterministic noisy screen-like pixels: flat bars, saturated buttons, text-like strokes, a glare ramp. */
function synthetic(w: number, h: number, seed: number): RgbImage {
  const data = Buffer.alloc(w * h * 3);
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      const band = Math.floor((y / h) * 6);
      const base = [
        [250, 250, 250],
        [255, 204, 0],
        [0, 122, 255],
        [30, 30, 30],
        [200, 230, 255],
        [52, 199, 89],
      ][band] ?? [0, 0, 0];
      const stroke = (x + band) % 7 < 2 && y % 11 > 3 ? -120 : 0;
      const glare = (60 * x) / w;
      for (let k = 0; k < 3; k++)
        data[o + k] = Math.max(
          0,
          Math.min(255, Math.round((base[k] ?? 0) + stroke + glare + 8 * (rand() - 0.5))),
        );
    }
  return { width: w, height: h, channels: 3, data };
}

/** The grey plane as the three-channel copy it used to come with (each pixel's channels equal). */
function asRgb(plane: GrayImage): RgbImage {
  const data = Buffer.alloc(plane.width * plane.height * 3);
  for (let j = 0; j < plane.width * plane.height; j++) data.fill(plane.data[j] ?? 0, j * 3, j * 3 + 3);
  return { width: plane.width, height: plane.height, channels: 3, data };
}

async function realScreen(name: string): Promise<RgbImage> {
  const file = join(import.meta.dirname, "../../../datasets/real-iphone/images", name);
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

describe("normalizeLocalContrast (fast path) against the plain formulation", () => {
  it.each([
    [1, 1],
    [3, 5],
    [4, 4],
    [7, 9],
    [37, 83],
    [390, 844],
  ])("is byte-identical on a %i×%i synthetic screen", (w, h) => {
    const image = synthetic(w, h, w * 31 + h);
    const fast = normalizeLocalContrast(image);
    expect(fast.data.length).toBe(w * h);
    expect(Buffer.compare(asRgb(fast).data, referenceNormalize(image))).toBe(0);
  });

  it("is byte-identical with other options (radius, gain, floor)", () => {
    const image = synthetic(121, 250, 5);
    const options = { radius: 0.1, gain: 25, floor: 4 };
    expect(
      Buffer.compare(asRgb(normalizeLocalContrast(image, options)).data, referenceNormalize(image, options)),
    ).toBe(0);
  });

  it("is byte-identical on a full-size real 3× screenshot", async () => {
    const image = await realScreen("ra-cowabunga-settings-extra-tools.png");
    expect(image.width).toBeGreaterThanOrEqual(1080);
    expect(Buffer.compare(asRgb(normalizeLocalContrast(image)).data, referenceNormalize(image))).toBe(0);
  });
});

describe("normalizeLocalContrast into an earlier result", () => {
  it("overwrites the earlier buffers of the same size with what a fresh call gives", () => {
    const first = normalizeLocalContrast(synthetic(90, 160, 1));
    const second = synthetic(90, 160, 2);
    const fresh = normalizeLocalContrast(second);
    const reused = normalizeLocalContrast(second, DEFAULT_LOCAL_CONTRAST, first);
    expect(reused).toBe(first);
    expect(Buffer.compare(Buffer.from(reused.data), Buffer.from(fresh.data))).toBe(0);
  });

  it("allocates anew when the size differs", () => {
    const first = normalizeLocalContrast(synthetic(90, 160, 1));
    const other = normalizeLocalContrast(synthetic(91, 160, 1), DEFAULT_LOCAL_CONTRAST, first);
    expect(other).not.toBe(first);
    expect(Buffer.compare(asRgb(other).data, referenceNormalize(synthetic(91, 160, 1)))).toBe(0);
  });
});

describe("detectionInputGrey", () => {
  it("gives the same det input as the three-channel path on the normalised screen", async () => {
    for (const image of [synthetic(333, 700, 9), await realScreen("ra-cowabunga-settings-extra-tools.png")]) {
      const flat = normalizeLocalContrast(image);
      const [w, h] = [320, Math.round((320 * image.height) / image.width / 32) * 32];
      const rgb = detectionInput(asRgb(flat), w, h);
      const grey = detectionInputGrey(flat.data, flat.width, flat.height, w, h);
      expect(grey.length).toBe(rgb.length);
      let same = true;
      for (let i = 0; i < rgb.length; i++) if (rgb[i] !== grey[i]) same = false;
      expect(same).toBe(true);
    }
  });
});
