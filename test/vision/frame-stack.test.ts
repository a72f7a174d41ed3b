import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { RgbImage } from "../../src/shared/image.js";
import { seededRandom } from "../../src/util/random.js";
import { meanRgb, stackStill, stillRun } from "../../src/vision/frame-stack.js";
import { decodeRgb, warpToScreen } from "../../src/vision/rectify.js";
import { REAL_SET_DIR } from "./real-set.js";

const W = 120;
const H = 96;

/** A grey screen with a dark "label" bar, plus Gaussian-ish noise of about `sigma` levels. */
function screen(seed: number, sigma: number, label = false): RgbImage {
  const r = seededRandom(seed);
  const random = (): number => r.next();
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const base = label && y >= 30 && y < 48 && x >= 10 && x < 60 ? 40 : 200;
      // Sum of 4 uniforms: σ = sqrt(4/12) ≈ 0.58 per unit, scaled to `sigma`.
      const n = (random() + random() + random() + random() - 2) * (sigma / 0.577);
      for (let c = 0; c < 3; c++)
        data[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base + n)));
    }
  return { width: W, height: H, channels: 3, data };
}

function rmsDiff(a: RgbImage, b: RgbImage): number {
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += ((a.data[i] ?? 0) - (b.data[i] ?? 0)) ** 2;
  return Math.sqrt(s / a.data.length);
}

describe("meanRgb", () => {
  it("is the rounded pixel-wise mean", () => {
    const frames = [1, 2, 3].map((s) => screen(s, 20));
    const mean = meanRgb(frames);
    for (let i = 0; i < mean.data.length; i += 97) {
      const want = Math.round(frames.reduce((acc, f) => acc + (f.data[i] ?? 0), 0) / 3);
      expect(Math.abs((mean.data[i] ?? 0) - want)).toBeLessThanOrEqual(1);
      expect(mean.data[i]).toBe(Math.floor((frames.reduce((acc, f) => acc + (f.data[i] ?? 0), 0) + 1) / 3));
    }
  });

  it("returns one frame unchanged and refuses mixed sizes", () => {
    const f = screen(1, 5);
    expect(meanRgb([f])).toBe(f);
    const small: RgbImage = { width: 2, height: 2, channels: 3, data: Buffer.alloc(12) };
    expect(() => meanRgb([f, small])).toThrow();
  });
});

describe("stillRun / stackStill", () => {
  it("averages every frame of a still, noisy screen", () => {
    const frames = [11, 12, 13, 14].map((s) => screen(s, 6));
    expect(stillRun(frames)).toBe(4);
    const clean = screen(0, 0);
    const stack = stackStill(frames);
    expect(stack.frames).toBe(4);
    // σ 6 → ~3 for four frames.
    expect(rmsDiff(stack.image, clean)).toBeLessThan(0.6 * rmsDiff(frames[3] as RgbImage, clean));
  });

  it("never averages across a change: frames before a label appeared are left out", () => {
    // Oldest first: two frames without the label, then two with it (the newest shows the label).
    const frames = [screen(21, 6), screen(22, 6), screen(23, 6, true), screen(24, 6, true)];
    expect(stillRun(frames)).toBe(2);
    const stack = stackStill(frames);
    expect(stack.frames).toBe(2);
    // The label is as dark as in the newest frame, not half-faded.
    const o = (39 * W + 30) * 3;
    expect(stack.image.data[o]).toBeLessThan(60);
  });

  it("a changed frame in the middle ends the run there", () => {
    const frames = [screen(31, 6), screen(32, 6, true), screen(33, 6), screen(34, 6)];
    expect(stillRun(frames)).toBe(2);
    expect(stillRun([screen(35, 6), screen(36, 6, true)])).toBe(1);
  });
});

describe("averaging filmed frames", () => {
  it("a dev screen filmed 4× (one camera, successive frames) is closer to the noiseless film than one frame", async () => {
    const bytes = readFileSync(join(REAL_SET_DIR, "images", "ra-azura-add-station.png"));
    const rectify = async (jpeg: Buffer, shot: Awaited<ReturnType<typeof realCameraFrame>>) => {
      const w = 585;
      const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
      return warpToScreen(await decodeRgb(jpeg), shot.screenToCamera, w, h);
    };
    const noisy = await realCameraFrame(bytes, { seed: 9, frames: 8 });
    const clean = await realCameraFrame(bytes, { seed: 9, noise: 0 });
    const ref = await rectify(clean.frame, clean);
    const frames = await Promise.all(noisy.frames.map((f) => rectify(f, noisy)));
    // Successive frames differ (own noise) but show one still picture.
    expect(frames[0]?.data.equals(frames[1]?.data ?? Buffer.alloc(0))).toBe(false);
    const a = stackStill(frames.slice(0, 4));
    const b = stackStill(frames.slice(4));
    expect(a.frames).toBe(4);
    // Against the noiseless film (whose own JPEG error stays in the floor): lower than one frame.
    expect(rmsDiff(a.image, ref)).toBeLessThan(0.95 * rmsDiff(frames[0] as RgbImage, ref));
    // The frame-to-frame part (two independent stacks vs two single frames): about halved (1/√4).
    const one = rmsDiff(frames[0] as RgbImage, frames[1] as RgbImage);
    const four = rmsDiff(a.image, b.image);
    expect(four).toBeLessThan(0.65 * one);
  }, 60_000);
});
