import { describe, expect, it } from "vitest";
import { summedArea, windowMean } from "../../src/shared/window-mean.js";
import { components, resplitBold } from "../../src/vision/ink-blobs.js";

/**
 * `resplitBold` walks only the picked blobs' boxes and builds its two summed-area tables only as far as
 * their windows reach (session 14, h-perf3); before, it built both tables over the whole screen and
 * walked every pixel. This is the whole-screen code (unchanged, comments left out): labels, blobs and
 * origins must be equal, float sums included.
 */
function wholeScreen(
  px: Float32Array,
  w: number,
  h: number,
  ink: Uint8Array,
  found: { labels: Int32Array; blobs: ReturnType<typeof components>["blobs"] },
  r: number,
  t: number,
  maxPx: number,
  clusters?: Int32Array,
): ReturnType<typeof resplitBold> {
  const { labels, blobs } = found;
  const picked = clusters ? clusters.slice() : new Int32Array(blobs.length + 1);
  let any = picked.some((v) => v !== 0);
  blobs.forEach((b, i) => {
    const long = Math.max(b.x1 - b.x0, b.y1 - b.y0);
    if (long > maxPx && long <= 2 * maxPx) {
      picked[i + 1] = i + 1;
      any = true;
    }
  });
  if (!any) return undefined;
  const bg = new Float32Array(w * h);
  const open = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++)
    if (!ink[i]) {
      bg[i] = px[i] as number;
      open[i] = 1;
    }
  const sums = summedArea(bg, w, h);
  const counts = summedArea(open, w, h);
  const out = ink.slice();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!picked[labels[i] as number]) continue;
      const share = windowMean(counts, w, h, x, y, r);
      if (share < 0.15) continue;
      const mean = windowMean(sums, w, h, x, y, r) / share;
      out[i] = Math.abs((px[i] as number) - mean) > 0.35 * t ? 1 : 0;
    }
  const next = components(out, w, h);
  const origin = new Int32Array(next.blobs.length);
  for (let i = 0; i < w * h; i++) {
    const l = next.labels[i] as number;
    const old = labels[i] as number;
    if (l && picked[old]) origin[l - 1] = picked[old] as number;
  }
  return { ...next, origin };
}

/** A screen of noisy grey with filled bold squares (some over the cap, with a surround), and its ink. */
function screen(seed: number, w: number, h: number): { px: Float32Array; ink: Uint8Array } {
  let s = seed;
  const rand = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const px = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) px[i] = Math.fround(40 + rand() * 6 + 0.299 * rand());
  const ink = new Uint8Array(w * h);
  for (let k = 0; k < 12; k++) {
    const size = 4 + Math.floor(rand() * 40);
    const x0 = Math.floor(rand() * (w - size));
    const y0 = Math.floor(rand() * (h - size));
    const halo = Math.floor(rand() * 6);
    for (let y = Math.max(0, y0 - halo); y < Math.min(h, y0 + size + halo); y++)
      for (let x = Math.max(0, x0 - halo); x < Math.min(w, x0 + size + halo); x++) {
        const inside = x >= x0 && x < x0 + size && y >= y0 && y < y0 + size;
        if (inside) px[y * w + x] = Math.fround(230 + rand() * 20);
        ink[y * w + x] = inside || rand() < 0.8 ? 1 : 0;
      }
  }
  for (let i = 0; i < w * h; i++) if (rand() < 0.01) ink[i] = 1;
  return { px, ink };
}

describe("resplitBold", () => {
  it("re-reads exactly as the whole-screen walk did (random screens, with and without clusters)", () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const w = 120 + (seed % 7) * 23;
      const h = 200 + (seed % 5) * 31;
      const { px, ink } = screen(seed, w, h);
      const found = components(ink, w, h);
      const clusters = seed % 3 === 0 ? new Int32Array(found.blobs.length + 1) : undefined;
      if (clusters) for (let l = 1; l < clusters.length; l += 5) clusters[l] = l;
      for (const maxPx of [12, 20, 30]) {
        const want = wholeScreen(px, w, h, ink, found, 8, 12, maxPx, clusters);
        const got = resplitBold(px, w, h, ink, found, 8, 12, maxPx, clusters);
        expect(got === undefined).toBe(want === undefined);
        if (!want || !got) continue;
        compared++;
        expect(got.blobs).toEqual(want.blobs);
        expect(Buffer.from(got.labels.buffer).equals(Buffer.from(want.labels.buffer))).toBe(true);
        expect([...got.origin]).toEqual([...want.origin]);
      }
    }
    expect(compared).toBeGreaterThan(60);
  });
});
