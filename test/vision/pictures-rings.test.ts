import { describe, expect, it } from "vitest";
import { realCameraFrame } from "../../src/lab/real/camera.js";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import type { SimPhone } from "../../src/sim/phone/index.js";
import { edgeAngles, SLANT_STRIDE, toPoints } from "../../src/vision/edge-angles.js";
import { findPictures, listPictures } from "../../src/vision/pictures.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../src/vision/rectify.js";
import { onCircles } from "../../src/vision/rings.js";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { el, makePhone, PASSCODE } from "../sim/phone/helpers.js";
import { cameraOver, POSES, trueScreenToCamera } from "./helpers.js";

/**
 * A running timer's progress ring is no picture: the simulated phone's Clock timer (a 240 pt ring, 8 pt
 * stroke, the countdown in 64 pt digits inside it — as `test/agent/timer.e2e.test.ts` reads it) in
 * several frames, light and dark, as a screenshot and through the simulated camera (three poses, harsh
 * optics). The ring's edges run at every angle, as a map's do; they lie on one circle, which a map's do
 * not. Rows are the pipeline's rows on that screen: the countdown, the ring's lower arc the detector
 * boxes as an icon, and the two round buttons.
 */

const row = (kind: Candidate["kind"], label: string, box: FracBox): Candidate => ({
  kind,
  label,
  box,
  conf: 0.6,
});
const holds = (p: FracBox, b: FracBox): boolean => contains(p, centreX(b), centreY(b));

/** Seconds into a 10-minute timer at which the screen is looked at: the ring full, ¾, ½, ¼, nearly empty. */
const MOMENTS_S = [1, 150, 300, 450, 570];

/** Runs `look` on the running timer at each of `MOMENTS_S`, the phone in light or dark mode. */
async function eachMoment(
  dark: boolean,
  look: (n: number, countdown: string, phone: SimPhone) => Promise<void>,
): Promise<void> {
  const { phone, finger, clock } = makePhone();
  finger.unlock(PASSCODE);
  if (dark) {
    finger.tapId("home.icon.settings");
    finger.swipe({ x: 30, y: 110 }, { x: 30, y: 60 }, { durationMs: 1500, steps: 30 });
    finger.tapId("settings.toggle.darkMode");
    finger.homeSwipe();
  }
  finger.tapId("home.icon.clock");
  finger.tapId("clock.tab.timer");
  while (Number(el(phone, "clock.timer.picker.value").label) < 10) finger.tapId("clock.timer.picker.row1");
  finger.tapId("clock.timer.start");
  let at = 0;
  for (const [n, s] of MOMENTS_S.entries()) {
    clock.advance(s * 1000 - at);
    at = s * 1000;
    await look(n, el(phone, "clock.timer.remaining").label, phone);
  }
}

function timerRows(countdown: string): Candidate[] {
  return [
    row("text", countdown, [0.312, 0.289, 0.688, 0.348]),
    row("icon", "", [0.267, 0.412, 0.739, 0.464]),
    row("text", "Cancel", [0.116, 0.548, 0.243, 0.565]),
    row("icon", "", [0.728, 0.52, 0.904, 0.59]),
    row("text", "Pause", [0.767, 0.549, 0.877, 0.565]),
  ];
}

/** What covers the countdown on `image`, if anything: a picture, or a row listed in its place. */
function coverOfCountdown(image: RgbImage, countdown: string): string | undefined {
  const rows = timerRows(countdown);
  const text = rows[0] as Candidate;
  const pictures = findPictures(
    image,
    rows.map((r) => r.box),
  ).filter((p) => holds(p, text.box));
  if (pictures.length > 0)
    return `picture ${pictures.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ")}`;
  const kept = listPictures(image, rows);
  if (!kept.includes(text)) return "countdown dropped";
  if (kept.some((r) => r !== text && holds(r.box, text.box))) return "a row over the countdown";
  return undefined;
}

describe("a timer's progress ring is not a picture", () => {
  it("keeps the countdown on screenshots and camera frames, light and dark", async () => {
    const covered: string[] = [];
    let looks = 0;
    const check = (image: RgbImage, countdown: string, what: string): void => {
      looks++;
      const cover = coverOfCountdown(image, countdown);
      if (cover) covered.push(`${what}: ${cover}`);
    };
    for (const dark of [false, true])
      await eachMoment(dark, async (n, countdown, phone) => {
        const what = `${dark ? "dark" : "light"} ${countdown}`;
        const png = await phone.screenshot();
        check(await decodeRgb(png), countdown, `${what} screenshot`);
        for (const [k, pose] of POSES.entries()) {
          const camera = cameraOver(phone, pose, false, 20 + 3 * n + k);
          const frame = await decodeRgb(await camera.capture({ width: 2304, height: 1296 }));
          const h = trueScreenToCamera(camera, phone, 2304, 1296);
          // As the pipeline rectifies it (585 px wide, `DEFAULT_VISION_OPTIONS.rectifiedWidth`).
          const image = stretchContrast(warpToScreen(frame, h, 585, 1266));
          check(image, countdown, `${what} camera pose ${k}`);
        }
        const harsh = await realCameraFrame(png, { harsh: true, seed: 40 + n });
        const image = stretchContrast(
          warpToScreen(await decodeRgb(harsh.frame), harsh.screenToCamera, 585, 1266),
        );
        check(image, countdown, `${what} harsh optics`);
      });
    expect(looks).toBe(2 * MOMENTS_S.length * (2 + POSES.length));
    expect(covered).toEqual([]);
  }, 300_000);
});

/** A 390 × 844 pt screen at 1 px a point: white, with `paint(x, y)` giving a pixel's colour or nothing. */
function drawn(paint: (x: number, y: number) => [number, number, number] | undefined): RgbImage {
  const [w, h] = [390, 844];
  const data = Buffer.alloc(w * h * 3, 255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const c = paint(x, y);
      if (c) data.set(c, (y * w + x) * 3);
    }
  return { width: w, height: h, channels: 3, data };
}

/** Roads at every angle across a map's pale land (x 40–350, y 150–450), from a fixed seed. */
function roads(): { on: (x: number, y: number) => boolean } {
  let seed = 7;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const lines = Array.from({ length: 24 }, () => {
    const a = rand() * Math.PI;
    return { nx: Math.cos(a), ny: Math.sin(a), d: 40 + rand() * 300, w: 1 + rand() * 2 };
  });
  return { on: (x, y) => lines.some((l) => Math.abs(l.nx * (x - 40) + l.ny * (y - 150) - l.d) < l.w) };
}

const LAND: [number, number, number] = [238, 234, 222];
const ROAD: [number, number, number] = [120, 110, 100];
const ORANGE: [number, number, number] = [255, 159, 10];
const inMap = (x: number, y: number): boolean => x >= 40 && x < 350 && y >= 150 && y < 450;
const onRingAt = (x: number, y: number, cx: number, cy: number, r: number, stroke: number): boolean =>
  Math.abs(Math.hypot(x - cx, y - cy) - r) <= stroke / 2;
const MAP: FracBox = [40 / 390, 150 / 844, 350 / 390, 450 / 844];

describe("slanted edges on circles", () => {
  it("finds a ring's edges on one circle, a map's roads on none", () => {
    const ring = drawn((x, y) => (onRingAt(x, y, 195, 300, 120, 8) ? ORANGE : undefined));
    const box: FracBox = [60 / 390, 170 / 844, 330 / 390, 430 / 844];
    const pts = toPoints(ring, box);
    const px = [60, 170, 330, 430] as const;
    const e = edgeAngles(pts, box);
    const on = onCircles(e.slanted, px);
    expect(e.slanted.length / SLANT_STRIDE).toBeGreaterThan(1000);
    expect(on.reduce((a, b) => a + b, 0)).toBeGreaterThan(0.75 * on.length);

    const r = roads();
    const map = drawn((x, y) => (inMap(x, y) ? (r.on(x, y) ? ROAD : LAND) : undefined));
    const m = edgeAngles(toPoints(map, MAP), MAP);
    const onMap = onCircles(m.slanted, [40, 150, 350, 450]);
    expect(m.slanted.length / SLANT_STRIDE).toBeGreaterThan(3000);
    expect(onMap.reduce((a, b) => a + b, 0)).toBeLessThan(0.05 * onMap.length);
  });

  it("still takes a map with a round pin and a ring-shaped marker for a picture", () => {
    const r = roads();
    const map = drawn((x, y) => {
      if (!inMap(x, y)) return undefined;
      if (Math.hypot(x - 200, y - 300) < 9 || onRingAt(x, y, 120, 220, 30, 4)) return ORANGE;
      return r.on(x, y) ? ROAD : LAND;
    });
    const pictures = findPictures(map);
    expect(pictures.some((p) => holds(p, [0.45, 0.33, 0.55, 0.38]))).toBe(true);
    // A control's value centred on it (a countdown's digits at 40 pt) says it is a control after all.
    const value = row("text", "04:59", [0.35, 0.33, 0.65, 0.38]);
    const label = row("text", "Oak St", [0.3, 0.34, 0.45, 0.355]);
    expect(listPictures(map, [label]).some((p) => p.kind === "icon")).toBe(false);
    expect(
      listPictures(map, [label, row("icon", "", [0.6, 0.4, 0.65, 0.42])]).filter((p) => p.kind === "icon"),
    ).toHaveLength(1);
    const kept = listPictures(map, [value, row("icon", "", [0.6, 0.4, 0.65, 0.42])]);
    expect(kept).toContain(value);
    expect(kept.filter((p) => p.kind === "icon" && holds(p.box, value.box))).toHaveLength(0);
  });
});
