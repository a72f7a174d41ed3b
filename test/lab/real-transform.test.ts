import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RealScreen } from "../../src/lab/real/labels.js";
import {
  isIdentity,
  keepsScreen,
  scaledSize,
  scaleLabel,
  transformScreenshot,
} from "../../src/lab/real/transform.js";

/** A white 600×1000 screenshot with one black block at pixels [120, 300) × [200, 450). */
async function screenshot(): Promise<Buffer> {
  const block = await sharp({
    create: { width: 180, height: 250, channels: 3, background: { r: 0, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: 600, height: 1000, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } },
  })
    .composite([{ input: block, left: 120, top: 200 }])
    .png()
    .toBuffer();
}

const label: RealScreen = {
  image: "x.png",
  width: 600,
  height: 1000,
  lang: "en",
  theme: "light",
  screen: "app",
  statusBar: [0, 0, 1, 0.05],
  text: [{ text: "Hi", box: [0.2, 0.2, 0.5, 0.45] }],
  elements: [{ kind: "button", label: "Hi", iconOnly: false, box: [0.2, 0.2, 0.5, 0.45] }],
  notes: "",
  unlabelled: [],
};

/** Pixel bounds [left, top, right, bottom) of the dark pixels (< 128 in red) of an image. */
async function darkBounds(bytes: Buffer): Promise<{ box: number[]; width: number; height: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [l, t, r, b] = [info.width, info.height, 0, 0];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if ((data[(y * info.width + x) * info.channels] ?? 255) < 128) {
        l = Math.min(l, x);
        t = Math.min(t, y);
        r = Math.max(r, x + 1);
        b = Math.max(b, y + 1);
      }
  return { box: [l, t, r, b], width: info.width, height: info.height };
}

describe("screenshots transformed as published, labels carried along", () => {
  it("a label's boxes land on the same pixels of the scaled image, in pixels scaled by F", async () => {
    for (const scale of [0.5, 0.67]) {
      const out = await transformScreenshot(await screenshot(), { scale });
      const scaled = scaleLabel(label, out);
      expect([scaled.width, scaled.height]).toEqual([Math.round(600 * scale), Math.round(1000 * scale)]);
      expect([out.width, out.height]).toEqual([scaled.width, scaled.height]);
      const drawn = await darkBounds(out.bytes);
      const box = scaled.elements[0]?.box ?? [0, 0, 0, 0];
      const px = [
        box[0] * scaled.width,
        box[1] * scaled.height,
        box[2] * scaled.width,
        box[3] * scaled.height,
      ];
      // The block's edges after Lanczos resampling sit within a pixel of the label's box in pixels.
      for (const [i, v] of px.entries()) expect(Math.abs(v - (drawn.box[i] ?? 0))).toBeLessThanOrEqual(1);
      // …which is the unscaled box in pixels times F.
      expect(px[2]).toBeCloseTo(300 * scale, 0);
      expect(scaled.text).toEqual(label.text);
      expect(scaled.statusBar).toEqual(label.statusBar);
    }
  });

  it("re-encodes as JPEG at the given quality, size unchanged at scale 1", async () => {
    const png = await screenshot();
    const out = await transformScreenshot(png, { scale: 1, jpegQuality: 70 });
    expect(out.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect([out.width, out.height]).toEqual([600, 1000]);
    const hi = await transformScreenshot(png, { scale: 1, jpegQuality: 95 });
    expect(out.bytes.length).toBeLessThan(hi.bytes.length);
    await expect(transformScreenshot(png, { scale: 1, jpegQuality: 0 })).rejects.toThrow(RangeError);
  });

  it("skips screens a scale takes below 300 px, keeps those already that narrow", () => {
    expect(keepsScreen(1170, { scale: 0.5 })).toBe(true);
    expect(keepsScreen(590, { scale: 0.5 })).toBe(false);
    expect(keepsScreen(600, { scale: 0.5 })).toBe(true);
    expect(keepsScreen(273, { scale: 1 })).toBe(true);
    expect(keepsScreen(320, { scale: 0.67 })).toBe(false);
    expect(isIdentity({ scale: 1 })).toBe(true);
    expect(isIdentity({ scale: 1, jpegQuality: 70 })).toBe(false);
    expect(scaledSize(1125, 2436, 0.67)).toEqual({ width: 754, height: 1632 });
  });
});
