import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import type { PixelBox } from "../../../src/vision/ocr/detect.js";
import { REC_HEIGHT, writeCrop } from "../../../src/vision/ocr/recognize.js";
import { loadRealImage } from "../real-set.js";

/**
 * `writeCrop` hands the box's corners to its pixel loop as numbers, so box objects of many shapes no
 * longer deoptimise the loop (bench/README.md, 2026-11-28 session 4, t-perf). The crops must be the
 * same floats: this is the function before that change (its code unchanged, comments left out).
 */
function referenceWriteCrop(
  image: RgbImage,
  box: PixelBox,
  width: number,
  dst: Float32Array,
  offset: number,
  stride: number,
): void {
  const sx = (box.x1 - box.x0) / width;
  const sy = (box.y1 - box.y0) / REC_HEIGHT;
  // Samples per output pixel and axis: enough to cover the source footprint when shrinking.
  const nx = Math.max(1, Math.min(4, Math.ceil(sx)));
  const ny = Math.max(1, Math.min(4, Math.ceil(sy)));
  const inv = 1 / (nx * ny);
  const plane = REC_HEIGHT * stride;
  const { data, width: iw, height: ih } = image;
  const maxX = iw - 1;
  const maxY = ih - 1;
  for (let oy = 0; oy < REC_HEIGHT; oy++) {
    for (let ox = 0; ox < width; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = 0; j < ny; j++) {
        const fy = Math.min(maxY, Math.max(0, box.y0 + (oy + (j + 0.5) / ny) * sy - 0.5));
        const y0 = Math.floor(fy);
        const y1 = Math.min(maxY, y0 + 1);
        const wy = fy - y0;
        for (let i = 0; i < nx; i++) {
          const fx = Math.min(maxX, Math.max(0, box.x0 + (ox + (i + 0.5) / nx) * sx - 0.5));
          const x0 = Math.floor(fx);
          const x1 = Math.min(maxX, x0 + 1);
          const wx = fx - x0;
          const a = (y0 * iw + x0) * 3;
          const c = (y0 * iw + x1) * 3;
          const e = (y1 * iw + x0) * 3;
          const f = (y1 * iw + x1) * 3;
          const w00 = (1 - wx) * (1 - wy);
          const w01 = wx * (1 - wy);
          const w10 = (1 - wx) * wy;
          const w11 = wx * wy;
          r += (data[a] ?? 0) * w00 + (data[c] ?? 0) * w01 + (data[e] ?? 0) * w10 + (data[f] ?? 0) * w11;
          g +=
            (data[a + 1] ?? 0) * w00 +
            (data[c + 1] ?? 0) * w01 +
            (data[e + 1] ?? 0) * w10 +
            (data[f + 1] ?? 0) * w11;
          b +=
            (data[a + 2] ?? 0) * w00 +
            (data[c + 2] ?? 0) * w01 +
            (data[e + 2] ?? 0) * w10 +
            (data[f + 2] ?? 0) * w11;
        }
      }
      const o = offset + oy * stride + ox;
      dst[o] = (r * inv) / 127.5 - 1;
      dst[o + plane] = (g * inv) / 127.5 - 1;
      dst[o + 2 * plane] = (b * inv) / 127.5 - 1;
    }
    for (let c = 0; c < 3; c++) {
      const row = offset + c * plane + oy * stride;
      dst.fill(dst[row + width - 1] ?? 0, row + width, row + stride);
    }
  }
}

describe("writeCrop against its former formulation", () => {
  it("writes the same floats for shrunk, stretched, clipped and padded crops of a real screenshot", async () => {
    const image: RgbImage = await loadRealImage("ra-cowabunga-home.png");
    const boxes: [PixelBox, number, number][] = [
      [{ x0: 40.3, y0: 120.7, x1: 600.2, y1: 190.1, score: 0.9 }, 384, 400], // shrunk ~1.5×
      [{ x0: 10, y0: 10, x1: 30, y1: 22, score: 0.8 }, 80, 96], // stretched
      [{ x0: -5.5, y0: 2400.2, x1: 1200, y1: 2460, score: 0.7 }, 960, 960], // past the edges
      [{ x0: 300, y0: 800, x1: 900, y1: 830, score: 0.6 }, 800, 1024], // squeezed 4× vertically
    ];
    for (const [box, width, stride] of boxes) {
      const plane = 3 * REC_HEIGHT * stride;
      const want = new Float32Array(2 * plane).fill(7);
      const got = new Float32Array(2 * plane).fill(7);
      referenceWriteCrop(image, box, width, want, plane, stride);
      writeCrop(image, box, width, got, plane, stride);
      expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)), JSON.stringify(box)).toBe(true);
    }
  });
});
