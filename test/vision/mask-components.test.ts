import { describe, expect, it } from "vitest";
import { type MaskComponent, maskComponents } from "../../src/vision/mask-components.js";

/**
 * `maskComponents` labels by runs (session 12, h-perf); before, `photo-grid.ts` (4-connected) and
 * `glyphs.ts` (8-connected, with labels) each flood-filled pixel by pixel. These are those flood fills
 * (code unchanged, comments left out): the components, their order, boxes, counts and labels must be
 * the same on random masks of every density and on blobby ones.
 */
function floodFill(
  mask: Uint8Array,
  w: number,
  h: number,
  diagonal: boolean,
  labels: Int32Array,
): MaskComponent[] {
  const out: MaskComponent[] = [];
  const stack = new Int32Array(w * h * 8 + 8);
  for (let start = 0; start < w * h; start++) {
    if (!mask[start] || labels[start]) continue;
    const id = out.length + 1;
    const b: MaskComponent = { x0: w, y0: h, x1: 0, y1: 0, n: 0 };
    labels[start] = id;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const p = stack[--top] as number;
      const x = p % w;
      const y = (p - x) / w;
      b.n++;
      if (x < b.x0) b.x0 = x;
      if (y < b.y0) b.y0 = y;
      if (x + 1 > b.x1) b.x1 = x + 1;
      if (y + 1 > b.y1) b.y1 = y + 1;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if (!diagonal && dx !== 0 && dy !== 0) continue;
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const q = yy * w + xx;
          if (mask[q] && !labels[q]) {
            labels[q] = id;
            stack[top++] = q;
          }
        }
    }
    out.push(b);
  }
  return out;
}

/** A deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random mask: independent pixels at `density`, or with `blobs` discs and rectangles painted on. */
function randomMask(random: () => number, w: number, h: number, density: number, blobs: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) m[i] = random() < density ? 1 : 0;
  for (let k = 0; k < blobs; k++) {
    const cx = random() * w;
    const cy = random() * h;
    const r = 1 + random() * Math.min(w, h) * 0.3;
    const ring = random() < 0.5;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (ring ? Math.abs(d - r) < 1 : d < r) m[y * w + x] = random() < 0.97 ? 1 : 0;
      }
  }
  return m;
}

describe("maskComponents", () => {
  it("finds the flood fill's components, in its order, with its labels (random masks)", () => {
    const random = rng(12);
    for (let t = 0; t < 140; t++) {
      const w = 1 + Math.floor(random() * 40);
      const h = 1 + Math.floor(random() * 40);
      const mask = randomMask(random, w, h, [0, 0.05, 0.3, 0.5, 0.7, 0.95, 1][t % 7] as number, t % 4);
      for (const diagonal of [false, true]) {
        const oldLabels = new Int32Array(w * h);
        const want = floodFill(mask, w, h, diagonal, oldLabels);
        const labels = new Int32Array(w * h);
        expect(maskComponents(mask, w, h, diagonal, labels)).toEqual(want);
        expect(Buffer.compare(Buffer.from(labels.buffer), Buffer.from(oldLabels.buffer))).toBe(0);
        expect(maskComponents(mask, w, h, diagonal)).toEqual(want);
      }
    }
  });

  it("joins diagonal neighbours only when asked", () => {
    // Two pixels touching at a corner: one component 8-connected, two 4-connected.
    const mask = Uint8Array.from([1, 0, 0, 1]);
    expect(maskComponents(mask, 2, 2, false)).toHaveLength(2);
    expect(maskComponents(mask, 2, 2, true)).toEqual([{ x0: 0, y0: 0, x1: 2, y1: 2, n: 2 }]);
  });

  it("grows past its first run buffer (a checkerboard of 1,000s of runs)", () => {
    const w = 300;
    const h = 40;
    const mask = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) mask[i] = ((i % w) + Math.floor(i / w)) % 2;
    const want = floodFill(mask, w, h, false, new Int32Array(w * h));
    expect(maskComponents(mask, w, h, false)).toEqual(want);
    expect(maskComponents(mask, w, h, true)).toHaveLength(1);
  });
});
