import type { RgbImage } from "../shared/image.js";
import { middleOf } from "./ink-spread.js";
import type { Candidate } from "./row.js";
import { boxWidth } from "./row.js";

/**
 * Icon boxes on a blank fill, seen through a camera too.
 *
 * An icon row has ink: a glyph or an image (SF Symbols, app artwork). A box with no ink in it is the
 * detector boxing empty background — a blank table header, a field's empty band, a wallpaper's smooth
 * gradient, a patch of Control Center's blurred backdrop. `spurious.ts` drops such boxes wider than a
 * glyph button when their luma spreads less than JPEG noise, which holds on screenshots; a camera frame
 * adds sensor noise (read and shot noise, `sim/camera/options.ts`; a real sensor the same) that spreads
 * a flat fill over 5–9 levels pixel by pixel, so the same blank box passes there. Noise is independent
 * from pixel to pixel and ink is not: averaging each sample over a 3 × 3 pixel patch divides the
 * noise's spread by ~3, while a stroke (≥ 1 pt, ≥ 1.5 px of the 585 px rectified screen, blurred over
 * ~3 px by the lens) keeps most of its contrast. iOS's faintest ink, `quaternaryLabel` (18% opacity,
 * UIKit `UIColor`), spreads ~35 levels on a screenshot — ≥ 15 after the camera's blur and the patch
 * mean — while flat fills and smooth gradients measure 3–6 levels in a wide box.
 */

/**
 * A box at least this wide (fraction of the screen) — wider than a 44 pt glyph button's hit target on
 * the narrowest iPhone screen (320 pt; HIG "Buttons") — is blank under `BLANK_SPREAD` …
 */
const BLANK_WIDTH = 44 / 320;
/** … levels of 3 × 3-averaged luma (3rd to 97th percentile): a gradient across a wide box spreads more. */
const BLANK_SPREAD = 8;
/**
 * A narrower box is blank under this spread: a small box holds no smooth gradient, and a glyph button's
 * faintest ink (a disabled chevron, `tertiaryLabel`) still spreads ~9 levels after the patch mean,
 * while an empty patch of backdrop — even Control Center's blurred one under sensor noise — stays
 * under 3.
 */
const BLANK_SPREAD_NARROW = 4;
/** Samples per side at most (the box is sampled on a grid, each sample a 3 × 3 patch mean). */
const GRID = { x: 64, y: 32 } as const;

/** The icon rows of `rows` on a blank fill (see the module comment), of any size. */
export function blankIconBoxes(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const wide = boxWidth(r.box) >= BLANK_WIDTH;
    const limit = wide ? BLANK_SPREAD : BLANK_SPREAD_NARROW;
    if (patchSpread(screen, r.box) >= limit) continue;
    // A thin symbol centred in a wide box (`middleOf`: a chevron in a toolbar button's hit area) is
    // too little of the whole box to move its percentiles; in a narrow one it is not.
    if (!wide || patchSpread(screen, middleOf(r.box)) < limit) out.add(r);
  }
  return out;
}

/**
 * Luma spread inside `box` (screen fractions) of 3 × 3 patch means, sampled on a grid of at most
 * `GRID` points: the 97th minus the 3rd percentile, in levels. Infinity for a box too small to sample.
 */
export function patchSpread(screen: RgbImage, box: Candidate["box"]): number {
  const { width: W, height: H, data } = screen;
  const l = Math.max(1, Math.floor(box[0] * W));
  const r = Math.min(W - 1, Math.ceil(box[2] * W));
  const t = Math.max(1, Math.floor(box[1] * H));
  const b = Math.min(H - 1, Math.ceil(box[3] * H));
  if (r - l < 3 || b - t < 3) return Number.POSITIVE_INFINITY;
  const sx = Math.max(1, (r - l) / GRID.x);
  const sy = Math.max(1, (b - t) / GRID.y);
  const values: number[] = [];
  for (let y = t; y < b; y += sy)
    for (let x = l; x < r; x += sx) {
      const cx = Math.floor(x);
      const cy = Math.floor(y);
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const i = ((cy + dy) * W + cx + dx) * 3;
          sum += 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
        }
      values.push(sum / 9);
    }
  values.sort((a, c) => a - c);
  const at = (q: number): number => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
  return at(0.97) - at(0.03);
}
