import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RawImage } from "../../../src/shared/image.js";
import { IPHONE_61 } from "../../../src/shared/phone-model.js";
import { DEFAULT_SIM_CAMERA_OPTIONS, type SimCameraOptions } from "../../../src/sim/camera/options.js";
import { type CarriagePosition, SimCamera } from "../../../src/sim/camera/sim-camera.js";
import type { PhonePose } from "../../../src/sim/pose.js";
import { dotScreen, flatScreen, meanLuma, phoneLikeScreen } from "./helpers.js";

const POSE: PhonePose = { centerXMm: 150, centerYMm: 110, rotationDeg: 2.5, tiltXDeg: 0.4, tiltYDeg: -0.3 };
const W = 640;
const H = 360;

/** Box (in pixels) around the projected screen centre, well inside the screen. */
function screenBox(cam: SimCamera, w: number, h: number, halfPx: number): [number, number, number, number] {
  const c = cam.view(w, h).projectGlassPoint(IPHONE_61.glassMm.width / 2, IPHONE_61.glassMm.height / 2);
  return [
    Math.round(c.u - halfPx),
    Math.round(c.v - halfPx),
    Math.round(c.u + halfPx),
    Math.round(c.v + halfPx),
  ];
}

/** Mean squared horizontal + vertical luma gradient: a sharpness measure. */
function gradientEnergy(img: RawImage, box: [number, number, number, number]): number {
  const luma = (x: number, y: number): number => {
    const o = (y * img.width + x) * 3;
    return (img.data[o] ?? 0) + (img.data[o + 1] ?? 0) + (img.data[o + 2] ?? 0);
  };
  let s = 0;
  let n = 0;
  for (let y = box[1]; y < box[3]; y++) {
    for (let x = box[0]; x < box[2]; x++) {
      s += (luma(x + 1, y) - luma(x, y)) ** 2 + (luma(x, y + 1) - luma(x, y)) ** 2;
      n++;
    }
  }
  return s / n;
}

describe("SimCamera frames", () => {
  it("is deterministic per seed and frame index; other seeds change only the noise", async () => {
    const source = await phoneLikeScreen();
    const make = (seed: number) =>
      new SimCamera({ source, pose: POSE, camera: DEFAULT_SIM_CAMERA_OPTIONS, seed });
    const a = make(7);
    const b = make(7);
    const a1 = await a.capture({ width: W, height: H });
    const a2 = await a.capture({ width: W, height: H });
    const b1 = await b.capture({ width: W, height: H });
    const b2 = await b.capture({ width: W, height: H });
    expect(a1.equals(b1)).toBe(true);
    expect(a2.equals(b2)).toBe(true);
    // Consecutive frames differ (fresh noise per frame index).
    expect(a1.equals(a2)).toBe(false);

    const r1 = await make(7).captureRaw({ width: W, height: H }, 5);
    const r2 = await make(8).captureRaw({ width: W, height: H }, 5);
    let diff = 0;
    let sum = 0;
    for (let i = 0; i < r1.data.length; i++) {
      const d = (r1.data[i] ?? 0) - (r2.data[i] ?? 0);
      if (d !== 0) diff++;
      sum += d;
    }
    expect(diff / r1.data.length).toBeGreaterThan(0.3);
    // Pure noise: no systematic shift between seeds.
    expect(Math.abs(sum / r1.data.length)).toBeLessThan(0.2);
  });

  it("emits a JPEG of the requested size", async () => {
    const cam = new SimCamera({
      source: flatScreen([40, 120, 200]),
      pose: POSE,
      camera: DEFAULT_SIM_CAMERA_OPTIONS,
      seed: 1,
    });
    const jpeg = await cam.capture({ width: 1152, height: 648, quality: 80 });
    expect(jpeg[0]).toBe(0xff);
    expect(jpeg[1]).toBe(0xd8);
    const meta = await sharp(jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1152, 648]);
  });

  it("gets brighter with a longer shutter, and with more gain", async () => {
    const cam = new SimCamera({
      source: flatScreen([90, 90, 90]),
      pose: POSE,
      camera: DEFAULT_SIM_CAMERA_OPTIONS,
      seed: 1,
    });
    const box = screenBox(cam, W, H, 40);
    const at = async (shutterUs: number, gain: number) =>
      meanLuma(await cam.captureRaw({ width: W, height: H, shutterUs, gain }), ...box);
    const short = await at(5000, 2);
    const nominal = await at(10_000, 2);
    const long = await at(20_000, 2);
    expect(nominal).toBeGreaterThan(short + 10);
    expect(long).toBeGreaterThan(nominal + 10);
    expect(await at(10_000, 4)).toBeGreaterThan(nominal + 10);
    // Auto exposure sits at the nominal exposure.
    const auto = meanLuma(await cam.captureRaw({ width: W, height: H }), ...box);
    expect(Math.abs(auto - nominal)).toBeLessThan(2);
  });

  it("shows the emissive screen brighter than the room-lit bed, and manual AWB tints", async () => {
    const cam = new SimCamera({
      source: flatScreen([255, 255, 255]),
      pose: POSE,
      camera: DEFAULT_SIM_CAMERA_OPTIONS,
      seed: 1,
    });
    const img = await cam.captureRaw({ width: W, height: H });
    const screen = meanLuma(img, ...screenBox(cam, W, H, 40));
    const bed = meanLuma(img, 0, 0, 60, 60);
    expect(screen).toBeGreaterThan(bed + 80);
    const warm = await cam.captureRaw({ width: W, height: H, awbGains: [3, 1] });
    const [x0, y0] = screenBox(cam, W, H, 10);
    const o = (y0 * W + x0) * 3;
    expect(warm.data[o] ?? 0).toBeGreaterThan((warm.data[o + 2] ?? 0) + 40);
  });

  it("blurs when the lens is far from the glass's focus", async () => {
    const source = await phoneLikeScreen();
    const cam = new SimCamera({
      source,
      pose: POSE,
      camera: { ...DEFAULT_SIM_CAMERA_OPTIONS, noise: 0 },
      seed: 1,
    });
    const box = screenBox(cam, 1152, 648, 150);
    const inFocusD = 1000 / cam.view(1152, 648).glassDistanceMm;
    const sharpImg = await cam.captureRaw({ width: 1152, height: 648, lensPosition: inFocusD });
    const auto = await cam.captureRaw({ width: 1152, height: 648 });
    const soft = await cam.captureRaw({ width: 1152, height: 648, lensPosition: inFocusD + 1.5 });
    const blurred = await cam.captureRaw({ width: 1152, height: 648, lensPosition: 0 });
    const e = [sharpImg, auto, soft, blurred].map((img) => gradientEnergy(img, box));
    expect(e[1] ?? 0).toBeGreaterThan((e[0] ?? 0) * 0.9);
    expect(e[2] ?? 0).toBeLessThan((e[0] ?? 0) * 0.6);
    expect(e[3] ?? 0).toBeLessThan((e[2] ?? 0) * 0.6);
  });

  it("the carriage darkens the screen where it hovers; parked, it leaves the screen alone", async () => {
    let carriage: CarriagePosition = null;
    const camera: SimCameraOptions = { ...DEFAULT_SIM_CAMERA_OPTIONS, noise: 0 };
    const cam = new SimCamera({
      source: flatScreen([240, 240, 240]),
      pose: POSE,
      camera,
      seed: 1,
      carriage: () => carriage,
    });
    const over = { xMm: 152, yMm: 120 };
    const p = cam.view(W, H).projectBedPoint(over.xMm, over.yMm, camera.carriage.topZMm);
    const around: [number, number, number, number] = [p.u - 12, p.v - 12, p.u + 12, p.v + 12].map(
      Math.round,
    ) as [number, number, number, number];
    const parked = meanLuma(await cam.captureRaw({ width: W, height: H }), ...around);
    carriage = over;
    const hovering = meanLuma(await cam.captureRaw({ width: W, height: H }), ...around);
    expect(parked).toBeGreaterThan(150);
    expect(hovering).toBeLessThan(45);
    // The default park spot is partly in frame (bottom-right) but clear of the phone.
    carriage = null;
    const park = camera.carriage.parkMm ?? { xMm: 0, yMm: 0 };
    // Just inside the block's corner nearest the frame centre.
    const inset = camera.carriage.sizeMm / 2 - 4;
    const pp = cam.view(W, H).projectBedPoint(park.xMm - inset, park.yMm - inset, camera.carriage.topZMm);
    expect(pp.u).toBeGreaterThan(0);
    expect(pp.u).toBeLessThan(W);
    expect(pp.v).toBeLessThan(H);
    const corner: [number, number, number, number] = [pp.u - 3, pp.v - 3, pp.u + 3, pp.v + 3].map(
      Math.round,
    ) as [number, number, number, number];
    const parkedImg = await cam.captureRaw({ width: W, height: H });
    const visible = meanLuma(parkedImg, ...corner);
    expect(visible).toBeLessThan(30);
    const hidden = { ...camera, carriage: { ...camera.carriage, parkMm: null } };
    const bedOnly = await new SimCamera({
      source: flatScreen([240, 240, 240]),
      pose: POSE,
      camera: hidden,
      seed: 1,
    }).captureRaw({ width: W, height: H });
    expect(meanLuma(bedOnly, ...corner)).toBeGreaterThan(visible + 15);
  });

  it("reuses the prefiltered screen while the source returns the same image", async () => {
    const source = dotScreen([{ xMm: 30, yMm: 60 }]);
    const cam = new SimCamera({ source, pose: POSE, camera: DEFAULT_SIM_CAMERA_OPTIONS, seed: 1 });
    const first = await cam.captureRaw({ width: W, height: H }, 0);
    await cam.captureRaw({ width: W, height: H }, 1);
    const again = await cam.captureRaw({ width: W, height: H }, 0);
    expect(source.calls).toBe(3);
    expect(again.data.equals(first.data)).toBe(true);
  });

  it("draws a glare spot only when configured", async () => {
    const glare = { xFrac: 0.5, yFrac: 0.5, radiusXFrac: 0.05, radiusYFrac: 0.05, intensity: 0.5 };
    const base = { ...DEFAULT_SIM_CAMERA_OPTIONS, noise: 0 };
    const src = flatScreen([60, 60, 60]);
    const without = await new SimCamera({ source: src, pose: POSE, camera: base, seed: 1 }).captureRaw({
      width: W,
      height: H,
    });
    const withGlare = await new SimCamera({
      source: src,
      pose: POSE,
      camera: { ...base, glare },
      seed: 1,
    }).captureRaw({
      width: W,
      height: H,
    });
    const c: [number, number, number, number] = [W / 2 - 5, H / 2 - 5, W / 2 + 5, H / 2 + 5];
    expect(meanLuma(withGlare, ...c)).toBeGreaterThan(meanLuma(without, ...c) + 60);
    expect(Math.abs(meanLuma(withGlare, 0, 0, 40, 40) - meanLuma(without, 0, 0, 40, 40))).toBeLessThan(1);
  });

  it("rejects impossible settings with a PiclawError", async () => {
    const cam = new SimCamera({
      source: flatScreen([0, 0, 0]),
      pose: POSE,
      camera: DEFAULT_SIM_CAMERA_OPTIONS,
      seed: 1,
    });
    await expect(cam.capture({ width: 0, height: 100 })).rejects.toMatchObject({
      code: "CAMERA_SETTINGS_INVALID",
    });
    await expect(cam.capture({ width: 100, height: 100, gain: -1 })).rejects.toMatchObject({
      code: "CAMERA_SETTINGS_INVALID",
    });
  });
});
