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
  const r = d[o] ?? 0;
  const g = d[o + 1] ?? 0;
  const b = d[o + 2] ?? 0;
  return r >= 200 && g <= 130 && b <= 130 && r - Math.max(g, b) >= 110;
}

/** At most this many badges per screen (a home screen rarely shows more than a few). */
const MAX_BADGES = 12;

/**
 * The inner boxes of badges on `image` (the working screen), in `detail` pixels: the disc inset by 18%
 * of its height on every side (a centred square within 0.64 of the diameter stays inside the disc).
 */
export function badgeSlots(image: RgbImage, detail: RgbImage): PixelBox[] {
  const { width: W, height: H, data } = image;
  const red = new Uint8Array(W * H);
  for (let i = 0, o = 0; i < W * H; i++, o += 3) if (isBadgeRed(data, o)) red[i] = 1;
  const minH = 0.03 * W;
  const maxH = 0.1 * W;
  const out: PixelBox[] = [];
  const stack: number[] = [];
  for (let start = 0; start < W * H && out.length < MAX_BADGES; start++) {
    if (red[start] !== 1) continue;
    // Flood fill (4-connected), marking visited pixels 2.
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    let n = 0;
    red[start] = 2;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop() ?? 0;
      const x = p % W;
      const y = (p - x) / W;
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < W - 1 ? p + 1 : -1,
        y > 0 ? p - W : -1,
        y < H - 1 ? p + W : -1,
      ])
        if (q >= 0 && red[q] === 1) {
          red[q] = 2;
          stack.push(q);
        }
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (h < minH || h > maxH || w < 0.8 * h || w > 3 * h) continue;
    const fill = n / (w * h);
    if (fill < 0.5 || fill > 0.85 || !whiteMiddle(image, x0, y0, w, h)) continue;
    const inset = 0.18 * h;
    const sx = detail.width / W;
    const sy = detail.height / H;
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
