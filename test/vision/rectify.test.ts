import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { decodeRgb, resizeRgb, warpToScreen } from "../../src/vision/rectify.js";
import { makePhone } from "../sim/phone/helpers.js";
import { cameraOver, POSES, trueScreenToCamera } from "./helpers.js";

function meanAbsDiff(a: RgbImage, b: RgbImage, skipEdge = 0.02): number {
  let sum = 0;
  let n = 0;
  const mx = Math.ceil(a.width * skipEdge);
  const my = Math.ceil(a.height * skipEdge);
  for (let y = my; y < a.height - my; y++)
    for (let x = mx; x < a.width - mx; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * a.width + x) * 3 + c;
        sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
        n++;
      }
  return sum / n;
}

/** Edge strength (grey gradient magnitude): compares layout, not exposure or wallpaper shading. */
function edges(img: RgbImage): Float32Array {
  const g = new Float32Array(img.width * img.height);
  for (let i = 0; i < g.length; i++)
    g[i] = ((img.data[i * 3] ?? 0) + (img.data[i * 3 + 1] ?? 0) + (img.data[i * 3 + 2] ?? 0)) / 3;
  const e = new Float32Array(g.length);
  for (let y = 1; y < img.height - 1; y++)
    for (let x = 1; x < img.width - 1; x++) {
      const i = y * img.width + x;
      e[i] =
        Math.abs((g[i + 1] ?? 0) - (g[i - 1] ?? 0)) +
        Math.abs((g[i + img.width] ?? 0) - (g[i - img.width] ?? 0));
    }
  return e;
}

/** The shift (px) of `b` against `a` that best lines up their edges, searched within ±max. */
function bestShift(a: RgbImage, b: RgbImage, max = 10): { dx: number; dy: number } {
  const ea = edges(a);
  const eb = edges(b);
  let best = { dx: 0, dy: 0, score: Number.POSITIVE_INFINITY };
  const m = max + 2;
  for (let dy = -max; dy <= max; dy++)
    for (let dx = -max; dx <= max; dx++) {
      let score = 0;
      for (let y = m; y < a.height - m; y += 2)
        for (let x = m; x < a.width - m; x += 2)
          score += Math.abs((ea[y * a.width + x] ?? 0) - (eb[(y + dy) * a.width + x + dx] ?? 0));
      if (score < best.score) best = { dx, dy, score };
    }
  return { dx: best.dx, dy: best.dy };
}

describe("rectify", () => {
  it("warps a tilted, rotated camera view back into the screen rectangle", async () => {
    const { phone, finger } = makePhone();
    finger.swipe({ x: 32, y: 136 }, { x: 32, y: 90 });
    const [w, h] = [390, 844];
    const reference = await resizeRgb(await decodeRgb(await phone.screenshot()), w, h);
    for (const pose of POSES) {
      const camera = cameraOver(phone, pose, true);
      const frame = await decodeRgb(await camera.capture({ width: 2304, height: 1296 }));
      const rectified = warpToScreen(frame, trueScreenToCamera(camera, phone, 2304, 1296), w, h);
      expect(rectified.width).toBe(w);
      // Camera optics (exposure, blur, JPEG) differ from the pixel-perfect screen, but the layout must match:
      // edges line up to the pixel, and a small mean difference.
      expect(bestShift(reference, rectified)).toEqual({ dx: 0, dy: 0 });
      expect(meanAbsDiff(rectified, reference)).toBeLessThan(30);
    }
  });

  it("a wrong homography (shifted 1 mm) shows up as a shifted picture", async () => {
    const { phone, finger } = makePhone();
    finger.swipe({ x: 32, y: 136 }, { x: 32, y: 90 });
    const pose = POSES[1];
    if (!pose) throw new Error("no pose");
    const camera = cameraOver(phone, pose, true);
    const frame = await decodeRgb(await camera.capture({ width: 2304, height: 1296 }));
    const h = trueScreenToCamera(camera, phone, 2304, 1296);
    const good = warpToScreen(frame, h, 390, 844);
    const shift = 1 / phone.geometry.glassMm.width;
    const bad = warpToScreen(
      frame,
      [h[0], h[1], h[2] + h[0] * shift, h[3], h[4], h[5] + h[3] * shift, h[6], h[7], h[8] + h[6] * shift],
      390,
      844,
    );
    // 1 mm is 6 px at 390 px across 64 mm of glass.
    expect(bestShift(good, bad)).toEqual({ dx: -6, dy: 0 });
  });

  it("rejects a bad size and an undecodable frame with clear errors", async () => {
    const img: RgbImage = { width: 2, height: 2, channels: 3, data: Buffer.alloc(12) };
    expect(() => warpToScreen(img, [1, 0, 0, 0, 1, 0, 0, 0, 1], 0, 10)).toThrow(/rectified size/);
    await expect(decodeRgb(Buffer.from("not a jpeg"))).rejects.toMatchObject({ code: "VISION_DECODE" });
  });

  it("turns a screenshot upright by its EXIF orientation when asked, and leaves frames as stored", async () => {
    // Upright: 20×40, red top half, blue bottom half. Stored turned 90° clockwise, tagged 8 ("turn 90°
    // anticlockwise to show"), as a photo tool may save a screenshot.
    const half = (r: number, b: number) => ({
      create: { width: 20, height: 20, channels: 3 as const, background: { r, g: 0, b } },
    });
    const upright = await sharp({
      create: { width: 20, height: 40, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .composite([
        { input: await sharp(half(255, 0)).png().toBuffer(), top: 0, left: 0 },
        { input: await sharp(half(0, 255)).png().toBuffer(), top: 20, left: 0 },
      ])
      .png()
      .toBuffer();
    const stored = await sharp(await sharp(upright).rotate(90).png().toBuffer())
      .withMetadata({ orientation: 8 })
      .jpeg({ quality: 95 })
      .toBuffer();
    const shown = await decodeRgb(stored, { autoOrient: true });
    expect([shown.width, shown.height]).toEqual([20, 40]);
    expect(shown.data[(5 * 20 + 10) * 3]).toBeGreaterThan(200); // red at the top
    expect(shown.data[(35 * 20 + 10) * 3 + 2]).toBeGreaterThan(200); // blue at the bottom
    const asStored = await decodeRgb(stored);
    expect([asStored.width, asStored.height]).toEqual([40, 20]);
  });
});
