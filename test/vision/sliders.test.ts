import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import { applySliders, findSliders } from "../../src/vision/sliders.js";
import { filmedRealScreen, filmScreenshot } from "./ocr/filmed-real.js";
import { REAL_SET_DIR } from "./real-set.js";

/** A 390×844 pt screen at 3× (1170×2532 px) filled with `bg`; draw in points. */
function screen(bg: readonly number[]): { image: RgbImage; rect: Fill; disc: Disc } {
  const S = 3;
  const width = 390 * S;
  const height = 844 * S;
  const data = Buffer.alloc(width * height * 3);
  const put = (x: number, y: number, c: readonly number[]): void => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    data.set(c, (y * width + x) * 3);
  };
  for (let i = 0; i < width * height; i++) data.set(bg, i * 3);
  const rect: Fill = (x, y, w, h, c) => {
    for (let py = Math.round(y * S); py < Math.round((y + h) * S); py++)
      for (let px = Math.round(x * S); px < Math.round((x + w) * S); px++) put(px, py, c);
  };
  const disc: Disc = (cx, cy, r, c) => {
    for (let py = Math.floor((cy - r) * S); py <= Math.ceil((cy + r) * S); py++)
      for (let px = Math.floor((cx - r) * S); px <= Math.ceil((cx + r) * S); px++)
        if ((px / S - cx) ** 2 + (py / S - cy) ** 2 <= r * r) put(px, py, c);
  };
  return { image: { width, height, channels: 3, data }, rect, disc };
}
type Fill = (x: number, y: number, w: number, h: number, c: readonly number[]) => void;
type Disc = (cx: number, cy: number, r: number, c: readonly number[]) => void;

const WHITE = [255, 255, 255];
const BLUE = [0, 122, 255];
const GREY = [229, 229, 234];

/**
 * UIKit's slider (HIG "Sliders"): a `track` pt track (4 since iOS 13, 2 before) from x 16 to 374 pt at
 * centre y, blue left of the 28 pt white thumb (a shadow ring round it), grey right of it.
 */
function uiSlider(s: ReturnType<typeof screen>, y: number, value: number, track = 4, grey = GREY): void {
  const [x0, x1] = [16, 374];
  const kx = x0 + 14 + value * (x1 - x0 - 28);
  s.rect(x0, y - track / 2, kx - x0, track, BLUE);
  s.rect(kx, y - track / 2, x1 - kx, track, grey);
  s.disc(kx, y + 0.5, 14.5, [214, 214, 214]);
  s.disc(kx, y, 14, WHITE);
}

/** A custom slider (React Native / Flutter look): a 6 pt track, a 16 pt knob in the tint. */
function customSlider(s: ReturnType<typeof screen>, y: number, value: number): void {
  const [x0, x1] = [40, 350];
  const kx = x0 + 8 + value * (x1 - x0 - 16);
  s.rect(x0, y - 3, kx - x0, 6, BLUE);
  s.rect(kx, y - 3, x1 - kx, 6, GREY);
  s.disc(kx, y, 8, BLUE);
}

describe("findSliders", () => {
  it("finds UIKit and custom sliders at their knob's position, light and dark, 4 pt and 2 pt tracks", () => {
    const light = screen(WHITE); // a table cell
    uiSlider(light, 200, 0.3);
    uiSlider(light, 300, 0.85, 2);
    customSlider(light, 400, 0);
    const found = findSliders(light.image);
    expect(found).toHaveLength(3);
    const [a, b, c] = found;
    expect(a?.value).toBeCloseTo(0.3, 1);
    expect(b?.value).toBeCloseTo(0.85, 1);
    expect(c?.value).toBeLessThan(0.08);
    // The box is the track from end to end, as tall as the thumb, round its centre line.
    expect(a?.box[0]).toBeCloseTo(16 / 390, 2);
    expect(a?.box[2]).toBeCloseTo(374 / 390, 2);
    expect(c?.box[0]).toBeCloseTo(40 / 390, 2);
    expect(((a?.box[1] ?? 0) + (a?.box[3] ?? 0)) / 2).toBeCloseTo(200 / 844, 2);

    const dark = screen([28, 28, 30]); // a dark grouped cell
    uiSlider(dark, 500, 0.6, 4, [57, 57, 61]);
    const [d] = findSliders(dark.image);
    expect(d?.value).toBeCloseTo(0.6, 1);
  });

  it("finds UIKit's 4 pt sliders on filmed frames, white thumbs whose shadow the blur has lost", async () => {
    const light = screen(WHITE);
    uiSlider(light, 150, 0.3);
    uiSlider(light, 350, 0.5);
    uiSlider(light, 450, 0.1);
    const { width, height, data } = light.image;
    const png = await sharp(data, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    // Each found at its drawn value; at least two of the three on every frame (the thumb near the
    // track's end is the one blur hides, on some noise seeds).
    for (const seed of [7, 17, 27, 37]) {
      const values = findSliders(await filmScreenshot(png, seed)).map((f) => Math.round(f.value * 10) / 10);
      expect(values.length, `seed ${seed}`).toBeGreaterThanOrEqual(2);
      for (const v of values) expect([0.3, 0.5, 0.1], `seed ${seed}`).toContain(v);
    }
  });

  it("finds nothing in a progress bar, a hairline by a radio circle, a switch or a bar with a tile on it", () => {
    const s = screen(WHITE);
    s.rect(16, 100, 200, 4, BLUE); // UIProgressView: no thumb
    s.rect(216, 100, 158, 4, GREY);
    s.rect(16, 200, 358, 0.34, [198, 198, 200]); // a table separator (1 px) with a selection circle on it
    s.disc(40, 200, 11, BLUE);
    s.rect(300, 284.5, 51, 31, [52, 199, 89]); // a switch, on
    s.disc(335.5, 300, 13.5, WHITE);
    s.rect(16, 400, 358, 4, [180, 180, 180]); // a thin bar with a square tile on it
    s.rect(150, 386, 32, 32, [255, 149, 0]);
    expect(findSliders(s.image)).toEqual([]);
  });

  it("finds the playback slider of a real player screen, on the screenshot and filmed", async () => {
    // TubeCast's player (dev set): a custom slider, an orange 5 pt track and a small ringed knob at 21%.
    // Filmed, the white ring nearly meets the cream background: found on 3 of 8 camera seeds (17, 37, 57).
    const name = "rc-tubecast-player.jpg";
    const shot = await decodeRgb(readFileSync(join(REAL_SET_DIR, "images", name)));
    const truth = [0.06, 0.795, 0.94, 0.812]; // the label's slider box
    for (const image of [shot, await filmedRealScreen(name, 17), await filmedRealScreen(name, 37)]) {
      const found = findSliders(image);
      expect(found).toHaveLength(1);
      const [s] = found;
      expect(s?.value).toBeGreaterThan(0.18);
      expect(s?.value).toBeLessThan(0.25);
      const cx = ((s?.box[0] ?? 0) + (s?.box[2] ?? 0)) / 2;
      const cy = ((s?.box[1] ?? 0) + (s?.box[3] ?? 0)) / 2;
      expect(
        cx > (truth[0] ?? 0) && cx < (truth[2] ?? 0) && cy > (truth[1] ?? 0) && cy < (truth[3] ?? 0),
      ).toBe(true);
    }
    // As a listing row, with the knob's icon box folded into it.
    const rows = applySliders(shot, [{ kind: "icon", label: "", box: [0.07, 0.79, 0.1, 0.81], conf: 0.5 }]);
    expect(rows.map((r) => [r.kind, r.value !== undefined])).toEqual([["slider", true]]);
  });
});
