import { describe, expect, it } from "vitest";
import type { CalibrationBundle } from "../../src/calibration/bundle.js";
import { cameraScreenFrames } from "../../src/runtime/frames.js";
import { greyGrid } from "../../src/runtime/poll.js";
import { fastRig } from "../tools/fast-rig.js";

describe("cameraScreenFrames", () => {
  it("rectifies camera frames through the calibration, small, and gives null while uncalibrated", async () => {
    const rig = fastRig();
    let bundle: CalibrationBundle | null = null;
    const frames = cameraScreenFrames({
      camera: rig.camera,
      bundle: () => bundle,
      screenPx: rig.phone.geometry.screenPx,
      width: 120,
    });
    expect(await frames.grab()).toBeNull();
    bundle = rig.bundle;
    const frame = await frames.grab();
    expect(frame?.image.width).toBe(120);
    expect(frame?.image.height).toBe(Math.round((120 * 2532) / 1170));
    // The lock screen's wallpaper fills the rectified image: no bed or bezel around it.
    const grid = greyGrid(frame?.image ?? { width: 1, height: 1, channels: 3, data: Buffer.alloc(3) }, 8);
    const mean = grid.v.reduce((a, b) => a + b, 0) / grid.v.length;
    expect(Math.min(...grid.v)).toBeGreaterThan(mean * 0.3);
  });
});
