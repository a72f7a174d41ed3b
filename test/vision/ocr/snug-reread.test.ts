import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import type { PixelBox } from "../../../src/vision/ocr/detect.js";
import type { FinishedText } from "../../../src/vision/ocr/recognize.js";
import { rereadSnug, SNUG_MARGIN } from "../../../src/vision/ocr/snug-reread.js";

/** A white 200×60 image with one black bar of "ink", rows 25–34 (10 px tall), columns 20–120. */
function line(): RgbImage {
  const w = 200;
  const h = 60;
  const data = Buffer.alloc(w * h * 3, 255);
  for (let y = 25; y < 35; y++) data.fill(0, (y * w + 20) * 3, (y * w + 120) * 3);
  return { width: w, height: h, channels: 3, data };
}

/** A region 3× the ink's height, as a blurred detection map boxes a small line. */
const LOOSE: PixelBox = { x0: 15, y0: 15, x1: 125, y1: 45, score: 0.8 };
const reading = (text: string, conf: number): FinishedText => ({ text, conf, end: 1 });

describe("weak readings read again from a crop snug to the ink", () => {
  it("reads a weak line from its ink's rows ± the margin, same columns, and keeps the better reading", async () => {
    const readings = [reading("Private Networking, Backups, P", 0.84)];
    let asked: PixelBox | undefined;
    await rereadSnug(readings, [LOOSE], line(), 0.7, async (boxes, which) => {
      expect(which).toEqual([0]);
      asked = boxes[0];
      return [reading("Private Networking, Backups, IPv6", 0.93)];
    });
    expect(readings[0]?.text).toBe("Private Networking, Backups, IPv6");
    expect(asked?.x0).toBe(LOOSE.x0);
    expect(asked?.x1).toBe(LOOSE.x1);
    // tightenToInk keeps 1 px above and 2 below the ink (rows 24–36, 12 px); the margin is on that.
    expect(asked?.y0).toBeCloseTo(24 - SNUG_MARGIN * 12, 5);
    expect(asked?.y1).toBeCloseTo(36 + SNUG_MARGIN * 12, 5);
  });

  it("keeps the first reading when the snug one is less sure", async () => {
    const readings = [reading("Banners, Sounds", 0.85)];
    await rereadSnug(readings, [LOOSE], line(), 0.7, async () => [reading("Banners, Sounds,", 0.8)]);
    expect(readings[0]?.text).toBe("Banners, Sounds");
  });

  it("keeps the first reading when the snug one holds no more glyphs (a crop at the ink loses marks)", async () => {
    const readings = [reading("键盘与隐私…", 0.9), reading("· 5h", 0.88), reading("Dofuult", 0.8)];
    await rereadSnug(readings, [LOOSE, LOOSE, LOOSE], line(), 0.7, async () => [
      reading("键盘与隐私.", 0.95),
      reading("5h", 0.97),
      reading("Default", 0.95),
    ]);
    expect(readings.map((r) => r.text)).toEqual(["键盘与隐私…", "· 5h", "Dofuult"]);
  });

  it("never reads again a confident line, nor lifts one read below minConfidence (a glyph off an icon)", async () => {
    const readings = [reading("Settings", 0.99), reading("ll", 0.5)];
    let called = false;
    await rereadSnug(readings, [LOOSE, LOOSE], line(), 0.7, async () => {
      called = true;
      return [reading("x", 1), reading("x", 1)];
    });
    expect(called).toBe(false);
    expect(readings.map((r) => r.text)).toEqual(["Settings", "ll"]);
  });

  it("skips a region already snug to its ink (the same crop would read the same)", async () => {
    let called = false;
    const snug: PixelBox = { x0: 15, y0: 23, x1: 125, y1: 37, score: 0.9 };
    await rereadSnug([reading("Default", 0.8)], [snug], line(), 0.7, async () => {
      called = true;
      return [reading("x", 1)];
    });
    expect(called).toBe(false);
  });
});
