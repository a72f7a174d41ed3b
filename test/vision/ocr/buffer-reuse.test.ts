import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { detectionInputGrey } from "../../../src/vision/ocr/detect.js";
import { createOcrEngine, type PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import type { TextLine } from "../../../src/vision/types.js";
import { loadRealImage } from "../real-set.js";

/**
 * The OCR engine writes each run's big buffers (normalised copy, det input, recognition batches) over
 * the last run's instead of allocating them afresh (bench/README.md, 2026-11-28 session 4, t-perf).
 * Reused buffers must read exactly as fresh ones: these pin the results to the fresh computation.
 */

function greyPlane(w: number, h: number, seed: number): Uint8Array {
  const g = new Uint8Array(w * h);
  let s = seed;
  for (let i = 0; i < g.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    g[i] = (s >>> 16) & 255;
  }
  return g;
}

describe("detectionInputGrey into an earlier buffer", () => {
  it("writes every value: a larger stale buffer gives the fresh result", () => {
    const grey = greyPlane(301, 655, 7);
    const fresh = detectionInputGrey(grey, 301, 655, 96, 192);
    const stale = new Float32Array(3 * 128 * 256).fill(Number.NaN);
    const reused = detectionInputGrey(grey, 301, 655, 96, 192, stale);
    expect(reused.length).toBe(fresh.length);
    expect(reused.buffer).toBe(stale.buffer);
    expect(Buffer.from(reused.buffer, 0, reused.byteLength).equals(Buffer.from(fresh.buffer))).toBe(true);
  });

  it("allocates when the buffer is too small", () => {
    const grey = greyPlane(64, 64, 3);
    const small = new Float32Array(10);
    const out = detectionInputGrey(grey, 64, 64, 32, 32, small);
    expect(out.buffer).not.toBe(small.buffer);
    expect(Array.from(out)).toEqual(Array.from(detectionInputGrey(grey, 64, 64, 32, 32)));
  });
});

describe("PaddleOcrEngine reusing its buffers across screens of different sizes", () => {
  // Real screenshots of three sizes: the big one first, so the smaller ones run in the front of its
  // buffers; then the big one again, over the smaller ones' leftovers.
  const NAMES = ["ra-azura-add-station.png", "ra-cowabunga-home.png", "ra-tp-alertcontroller-prefs.png"];
  const screens: RgbImage[] = [];
  let kept: PaddleOcrEngine;

  beforeAll(async () => {
    for (const n of NAMES) screens.push(await loadRealImage(n));
    kept = await createOcrEngine();
  }, 120_000);

  afterAll(async () => {
    await kept?.close();
  });

  it("reads each screen exactly as a fresh engine does", async () => {
    const order = [0, 1, 2, 0, 2];
    const viaKept: TextLine[][] = [];
    for (const i of order) viaKept.push(await kept.recognize(screens[i] as RgbImage));
    const fresh: TextLine[][] = [];
    for (const screen of screens) {
      const engine = await createOcrEngine();
      try {
        fresh.push(await engine.recognize(screen));
      } finally {
        await engine.close();
      }
    }
    order.forEach((i, k) => {
      expect(viaKept[k], NAMES[i]).toEqual(fresh[i]);
    });
    expect(fresh.every((lines) => lines.length > 3)).toBe(true);
  }, 180_000);
});
