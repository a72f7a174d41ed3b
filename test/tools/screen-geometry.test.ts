import { describe, expect, it } from "vitest";
import type { CalibrationBundle } from "../../src/calibration/bundle.js";
import { applyHomography } from "../../src/shared/homography.js";
import { cameraMap } from "../../src/tools/rig-session.js";
import {
  backSwipe,
  bboxCentre,
  homeSwipe,
  SCREEN_INSET,
  swipePath,
} from "../../src/tools/screen-geometry.js";

const GLASS = { width: 64, height: 139 };

describe("screen geometry", () => {
  it("acts at a bbox's centre", () => {
    expect(bboxCentre([0.2, 0.4, 0.4, 0.5])).toEqual({
      x: expect.closeTo(0.3, 9),
      y: expect.closeTo(0.45, 9),
    });
  });

  it("swipes the requested length on the glass, cut short at the screen edge", () => {
    const up = swipePath({ x: 0.5, y: 0.6 }, "up", 40, GLASS);
    expect(up.to.y).toBeCloseTo(0.6 - 40 / 139, 9);
    expect(up.lengthMm).toBeCloseTo(40, 9);
    expect(up.shortened).toBe(false);
    const right = swipePath({ x: 0.7, y: 0.5 }, "right", 40, GLASS);
    expect(right.to.x).toBe(1 - SCREEN_INSET);
    expect(right.shortened).toBe(true);
    expect(right.lengthMm).toBeCloseTo((1 - SCREEN_INSET - 0.7) * 64, 9);
  });

  it("system gestures start inside the phones' edge zones (bottom ≤ 4 mm, left ≤ 3.5 mm)", () => {
    const home = homeSwipe(GLASS);
    expect((1 - home.from.y) * GLASS.height).toBeLessThan(4);
    expect((home.from.y - home.to.y) * GLASS.height).toBeGreaterThan(10);
    const back = backSwipe(GLASS);
    expect(back.from.x * GLASS.width).toBeLessThan(3.5);
    expect((back.to.x - back.from.x) * GLASS.width).toBeGreaterThan(0.35 * GLASS.width);
  });
});

describe("cameraMap", () => {
  const bundle = {
    camera: { width: 2304, height: 1296, screenToCamera: [1000, 0, 500, 0, 800, 200, 0, 0, 1] },
  } as unknown as CalibrationBundle;

  it("scales the calibration's map to frames of another size with the same aspect", () => {
    const h = cameraMap(bundle, { width: 1152, height: 648 });
    expect(applyHomography(h, 1, 1)).toEqual({ x: 750, y: 500 });
    expect(cameraMap(bundle, { width: 2304, height: 1296 })).toBe(bundle.camera.screenToCamera);
  });

  it("refuses frames of another aspect ratio", () => {
    expect(() => cameraMap(bundle, { width: 640, height: 480 })).toThrow(/another aspect ratio/);
  });
});
