import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { HomeGrid } from "./home-layout.js";

/**
 * Whether a medium widget's place continues up into a large widget's, from the pixels: a widget is one
 * rounded tile (HIG "Widgets": large 338×354 pt on a 390×844 pt iPhone, the medium's width), so its left
 * and right edges run unbroken from its top corner down to the medium's place, its surface on one side
 * and the wallpaper on the other. What else can fill the two grid rows above a medium's place breaks
 * them: app tiles (60 pt, inset from the edges, the wallpaper showing between rows and under the names),
 * two small widgets (their edges do line up, but a 38 pt row gap with their captions lies between them and
 * the medium's place). The large widget's own content need not cross the screen's middle (a month's day
 * grid, a list of events): `home-tiles.ts` takes a large widget from a line across the middle, or from this.
 */

/** Points inside and outside an edge the two sides are sampled at. */
const SIDE_PT = 4;
/** The continuous corner's radius (about 22 pt on iOS 16 widgets): the edge is straight below it. */
const CORNER_PT = 24;
/** A side stands out from the other by this much (largest channel difference, 0–255). */
const STEP = 20;
/** Rows sampled down each edge, and the share of them that must show the step on both edges. */
const SAMPLES = 24;
const MIN_SHARE = 0.9;

function colour(img: RgbImage, x: number, y: number): [number, number, number] {
  const xi = Math.min(img.width - 1, Math.max(0, Math.round(x * img.width)));
  const yi = Math.min(img.height - 1, Math.max(0, Math.round(y * img.height)));
  const o = (yi * img.width + xi) * img.channels;
  return [img.data[o] ?? 0, img.data[o + 1] ?? 0, img.data[o + 2] ?? 0];
}

function step(img: RgbImage, xa: number, xb: number, y: number): number {
  const a = colour(img, xa, y);
  const b = colour(img, xb, y);
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

/**
 * Whether both side edges of `medium` (a medium widget's box, fractions) run unbroken from `top` (the
 * large widget's top, a fraction of the height) down to the medium's top (module comment).
 */
export function edgesRunUp(img: RgbImage, g: HomeGrid, medium: FracBox, top: number): boolean {
  const dx = SIDE_PT / g.w;
  const y0 = top + CORNER_PT / g.h;
  const y1 = medium[1] - SIDE_PT / g.h;
  if (y1 <= y0 || medium[0] - dx < 0 || medium[2] + dx > 1) return false;
  let both = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const y = y0 + ((y1 - y0) * (i + 0.5)) / SAMPLES;
    const left = step(img, medium[0] + dx, medium[0] - dx, y);
    const right = step(img, medium[2] - dx, medium[2] + dx, y);
    if (left >= STEP && right >= STEP) both++;
  }
  return both >= MIN_SHARE * SAMPLES;
}
