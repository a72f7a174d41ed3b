import { floodRegion } from "../../shared/flood-box.js";
import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";

/**
 * Notification badges: iOS draws a count as white digits on a filled systemRed disc (a pill for two or
 * more digits) at an app icon's or a tab's top-right corner (HIG, "Badges"; systemRed is
 * RGB 255 59 48 light / 255 69 58 dark, Apple's "Color" guidelines). The badge is 17–24 pt across, the
 * digit ~9 pt tall: too small for the text detector's 320 px map. A badge here is a connected region of
 * that red, round (as tall as 3–10% of the screen's width, width 0.8–3 times its height, filling
 * 50–85% of its box: a disc fills 79% less its glyph), with near-white ink in its middle.
 */

/** Pixel is systemRed (light or dark) after JPEG and scaling: strong red, weak green and blue. */
function isBadgeRed(d: Uint8Array, o: number): boolean {
  const r = d[o] as number;
  if (r < 200) return false;
  const g = d[o + 1] as number;
  const b = d[o + 2] as number;
  return r >= 200 && g <= 130 && b <= 130 && r - Math.max(g, b) >= 110;
}

/** The scan's grid step in working pixels. */
const STEP = 2;

/** At most this many badges per screen (a home screen rarely shows more than a few). */
const MAX_BADGES = 12;

/**
 * The inner boxes of badges on `image` (the working screen), in `detail` pixels: the disc inset by 18%
 * of its height on every side (a centred square within 0.64 of the diameter stays inside the disc).
 */
export function badgeSlots(image: RgbImage, detail: RgbImage): PixelBox[] {
  // On every other pixel of every other row: a badge is ≥ 3% of the width across (≥ 8 grid cells at a
  // 585 px working width; a 3-pixel grid lost a badge on a camera frame), a quarter of a full scan.
  const { data } = image;
  const W = Math.floor(image.width / STEP);
  const H = Math.floor(image.height / STEP);
  const red = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0, o = y * STEP * image.width * 3; x < W; x++, o += 3 * STEP)
      if (isBadgeRed(data, o)) red[y * W + x] = 1;
  const minH = (0.03 * image.width) / STEP;
  const maxH = (0.1 * image.width) / STEP;
  const out: PixelBox[] = [];
  const stack = new Int32Array(W * H);
  // Red cells are 1; visited cells are marked 2.
  const enter = (q: number): boolean => {
    if (red[q] !== 1) return false;
    red[q] = 2;
    return true;
  };
  for (let start = 0; start < W * H && out.length < MAX_BADGES; start++) {
    if (red[start] !== 1) continue;
    red[start] = 2;
    const { x0, y0, x1, y1, count: n } = floodRegion(W, H, start, stack, enter);
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (h < minH || h > maxH || w < 0.8 * h || w > 3 * h) continue;
    const fill = n / (w * h);
    if (fill < 0.5 || fill > 0.85 || !whiteMiddle(image, x0 * STEP, y0 * STEP, w * STEP, h * STEP)) continue;
    const inset = 0.18 * h;
    const sx = (detail.width / image.width) * STEP;
    const sy = (detail.height / image.height) * STEP;
    out.push({
      x0: (x0 + inset) * sx,
      y0: (y0 + inset) * sy,
      x1: (x1 + 1 - inset) * sx,
      y1: (y1 + 1 - inset) * sy,
      score: 1,
    });
  }
  return out;
}

/** Near-white pixels (all channels ≥ 190) in the middle third of the box: the badge's digits. */
function whiteMiddle(image: RgbImage, x0: number, y0: number, w: number, h: number): boolean {
  let white = 0;
  for (let y = Math.floor(y0 + h / 3); y < y0 + (2 * h) / 3; y++)
    for (let x = Math.floor(x0 + w / 3); x < x0 + (2 * w) / 3; x++) {
      const o = (y * image.width + x) * 3;
      if ((image.data[o] ?? 0) >= 190 && (image.data[o + 1] ?? 0) >= 190 && (image.data[o + 2] ?? 0) >= 190)
        white++;
    }
  return white >= 2;
}
