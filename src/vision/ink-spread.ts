import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";

/**
 * Luma spread inside `box` (screen fractions): its 97th minus its 3rd percentile, in levels (0–255),
 * sampled on a grid of at most 64 × 32 points, leaving out the points inside any of `holes`. 0 for an
 * empty box (or one all holes).
 */
export function inkContrast(screen: RgbImage, box: FracBox, holes: readonly FracBox[] = []): number {
  const { width: W, height: H, data } = screen;
  const l = Math.max(0, Math.floor(box[0] * W));
  const r = Math.min(W, Math.ceil(box[2] * W));
  const t = Math.max(0, Math.floor(box[1] * H));
  const b = Math.min(H, Math.ceil(box[3] * H));
  if (r <= l || b <= t) return 0;
  const sx = Math.max(1, (r - l) / 64);
  const sy = Math.max(1, (b - t) / 32);
  const histogram = new Uint32Array(256);
  let n = 0;
  for (let y = t; y < b; y += sy)
    for (let x = l; x < r; x += sx) {
      if (holes.some((h) => inHole(h, x / W, y / H))) continue;
      const i = (Math.floor(y) * W + Math.floor(x)) * 3;
      const luma = Math.round(
        0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0),
      );
      histogram[luma] = (histogram[luma] ?? 0) + 1;
      n++;
    }
  if (n === 0) return 0;
  return percentile(histogram, n, 0.97) - percentile(histogram, n, 0.03);
}

/** The smallest level at or below which a fraction `q` of the `n` counted samples lie. */
function percentile(histogram: Uint32Array, n: number, q: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v] ?? 0;
    if (seen >= q * n) return v;
  }
  return 255;
}

const inHole = (h: FracBox, x: number, y: number): boolean =>
  x >= h[0] && x <= h[2] && y >= h[1] && y <= h[3];

/**
 * The middle of a box, as a fraction of its width and height, for blank tests (`spurious.ts`,
 * `blank-boxes.ts`): UIKit centres a button's image in its hit area (`UIBarButtonItem`, `UIButton`'s
 * default content alignment), so the detector's box around a toolbar button has its symbol in the
 * middle. A thin one — a chevron's two 2–3 pt strokes, 1–2% of a 73 × 46 pt box — falls under a whole
 * wide box's 3rd percentile and reads as blank; in the middle half each way it is 4× denser. A blank
 * box is blank there too.
 */
export const BLANK_MIDDLE = 0.5;

/** The middle `BLANK_MIDDLE` of `box` each way, centred on it. */
export function middleOf(box: FracBox): FracBox {
  const mx = ((1 - BLANK_MIDDLE) / 2) * (box[2] - box[0]);
  const my = ((1 - BLANK_MIDDLE) / 2) * (box[3] - box[1]);
  return [box[0] + mx, box[1] + my, box[2] - mx, box[3] - my];
}
