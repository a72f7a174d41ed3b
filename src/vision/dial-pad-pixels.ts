import { luma, type RgbImage } from "../shared/image.js";
import { median } from "../shared/median.js";

/**
 * What the pixels of one keypad cell show, for `dial-pad.ts`: whether a cap is drawn there (a filled
 * disc, or a glyph on a flat or ringed cell), and whether it is the green call button. Points and radii
 * are fractions of the screen (`rx` of its width, `ry` of its height).
 */

function lumaAt(screen: RgbImage, x: number, y: number): number {
  const { width: W, height: H, data } = screen;
  const ix = Math.min(W - 1, Math.max(0, Math.round(x * W)));
  const iy = Math.min(H - 1, Math.max(0, Math.round(y * H)));
  return luma(data, (iy * W + ix) * 3);
}

/** Mean absolute luma difference between the disc at (cx, cy) and its cell's corners: a filled cap. */
export function capContrast(screen: RgbImage, cx: number, cy: number, rx: number, ry: number): number {
  const bg = median([
    lumaAt(screen, cx - 1.25 * rx, cy - 1.1 * ry),
    lumaAt(screen, cx + 1.25 * rx, cy - 1.1 * ry),
    lumaAt(screen, cx - 1.25 * rx, cy + 1.1 * ry),
    lumaAt(screen, cx + 1.25 * rx, cy + 1.1 * ry),
  ]);
  let sum = 0;
  let n = 0;
  for (let i = -3; i <= 3; i++)
    for (let j = -3; j <= 3; j++) {
      sum += Math.abs(lumaAt(screen, cx + (i / 4) * rx, cy + (j / 4) * ry) - bg);
      n++;
    }
  return sum / n;
}

/** Luma steps from the cell's own median that count as a glyph's ink (text is ≥ 3:1 contrast, WCAG). */
const INK_STEP = 60;

/**
 * Share of the pixels in the middle of the cap (±0.4 of its radius: inside an outline ring, where the
 * key's glyph sits) that differ from that area's median luma by a glyph's contrast. An empty cell (the
 * passcode pad's bottom corners) reads ~0 even on a blurred wallpaper; a `*` or `#` OCR did not read,
 * drawn on a flat cell (iOS 6's keypad) or inside a thin ring (iOS 7 style), reads a few percent.
 */
export function glyphInk(screen: RgbImage, cx: number, cy: number, rx: number, ry: number): number {
  const { width: W, height: H } = screen;
  const x0 = Math.max(0, Math.round((cx - 0.4 * rx) * W));
  const x1 = Math.min(W - 1, Math.round((cx + 0.4 * rx) * W));
  const y0 = Math.max(0, Math.round((cy - 0.4 * ry) * H));
  const y1 = Math.min(H - 1, Math.round((cy + 0.4 * ry) * H));
  if (x1 <= x0 || y1 <= y0) return 0;
  const vals: number[] = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) vals.push(luma(screen.data, (y * W + x) * 3));
  const bg = median(vals);
  return vals.filter((v) => Math.abs(v - bg) > INK_STEP).length / vals.length;
}

/** Share of the disc's sample points that are the system green of the call button (#34C759 / #30D158). */
export function greenShare(screen: RgbImage, cx: number, cy: number, rx: number, ry: number): number {
  const { width: W, height: H, data } = screen;
  let green = 0;
  let n = 0;
  for (let i = -3; i <= 3; i++)
    for (let j = -3; j <= 3; j++) {
      const ix = Math.min(W - 1, Math.max(0, Math.round((cx + (i / 4) * rx) * W)));
      const iy = Math.min(H - 1, Math.max(0, Math.round((cy + (j / 4) * ry) * H)));
      const o = (iy * W + ix) * 3;
      const r = data[o] ?? 0;
      const g = data[o + 1] ?? 0;
      const b = data[o + 2] ?? 0;
      if (g > 150 && g - r > 70 && g - b > 50) green++;
      n++;
    }
  return green / n;
}
