import { describe, expect, it } from "vitest";
import type { GrayImage, RgbImage } from "../../../src/shared/image.js";
import type { PixelBox } from "../../../src/vision/ocr/detect.js";
import { greyCrop, tightenToInk, withLeadingDash } from "../../../src/vision/ocr/ink.js";
import { normalizeLocalContrast } from "../../../src/vision/ocr/local-contrast.js";
import { REC_HEIGHT, writeCrop } from "../../../src/vision/ocr/recognize.js";
import { loadRealImage } from "../real-set.js";

/**
 * The OCR engine's contrast-normalised screen is one grey plane (it was also written out as a
 * three-channel copy, 9 MB more resident on a 3× screenshot: bench/README.md, 2026-11-28 session 5,
 * w-perf). Ink, dash and crop code read the plane as three equal channels: every result must be the
 * one the RGB copy gives, to the bit.
 */
function asRgb(plane: GrayImage): RgbImage {
  const data = Buffer.alloc(plane.width * plane.height * 3);
  for (let j = 0; j < plane.width * plane.height; j++) data.fill(plane.data[j] ?? 0, j * 3, j * 3 + 3);
  return { width: plane.width, height: plane.height, channels: 3, data };
}

/** Boxes of many sizes and positions over a `w`×`h` screen (some past its edges), reproducibly. */
function boxes(w: number, h: number, n: number): PixelBox[] {
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: n }, () => {
    const bh = 8 + rnd() * 120;
    const bw = 4 + rnd() * 900;
    const x0 = rnd() * w - 20;
    const y0 = rnd() * h - 10;
    return { x0, y0, x1: x0 + bw, y1: y0 + bh, score: rnd() };
  });
}

describe("the normalised grey plane reads as its three-channel copy", async () => {
  const plane = normalizeLocalContrast(await loadRealImage("ra-cowabunga-home.png"));
  const rgb = asRgb(plane);
  const many = boxes(plane.width, plane.height, 300);

  it("gives the same grey crops, ink boxes and dash-widened boxes", () => {
    for (const box of many) {
      const a = greyCrop(plane, box, 3, 3);
      const b = greyCrop(rgb, box, 3, 3);
      expect(a === null, JSON.stringify(box)).toBe(b === null);
      if (a && b) {
        expect(Buffer.from(a.grey.buffer).equals(Buffer.from(b.grey.buffer)), JSON.stringify(box)).toBe(true);
        expect([a.bg, a.maxDiff]).toEqual([b.bg, b.maxDiff]);
      }
      expect(tightenToInk(plane, box)).toEqual(tightenToInk(rgb, box));
      expect(withLeadingDash(plane, box)).toEqual(withLeadingDash(rgb, box));
    }
  });

  it("writes the same recognition crops", () => {
    for (const box of many.slice(0, 60)) {
      const width = Math.max(
        8,
        Math.min(960, Math.ceil((REC_HEIGHT * (box.x1 - box.x0)) / (box.y1 - box.y0))),
      );
      const stride = width + 16;
      const size = 3 * REC_HEIGHT * stride;
      const want = new Float32Array(2 * size).fill(7);
      const got = new Float32Array(2 * size).fill(7);
      writeCrop(rgb, box, width, want, size, stride);
      writeCrop(plane, box, width, got, size, stride);
      expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer)), JSON.stringify(box)).toBe(true);
    }
  });
});
