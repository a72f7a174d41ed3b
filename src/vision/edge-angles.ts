import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";

/**
 * How the edges in a region run: UIKit draws on a pixel grid with rectangles — cards, cells, bars,
 * separators (HIG "Layout") — so outside text and glyphs an interface's edges are horizontal or
 * vertical, and only a rounded corner or a disc bends them. A map's roads, coastlines and park
 * outlines (MapKit draws the street grid as it lies on the ground, `MKMapView`) and a photo's contours
 * run at every angle. Counted at about 1 pt a pixel (the screen averaged down to ~390 px wide), on the
 * colour channel that changes most, so a pale road on pale land counts as much as a dark line.
 */

/** Points across the commonest iPhones. */
const SCREEN_PT = 390;
/** Sobel magnitude (of a 0–255 channel, sum of |gx| + |gy| weights 4) below this is noise, not an edge. */
const MIN_EDGE = 40;
/** Degrees from the nearest axis: under this an edge is straight across or down … */
const AXIS_DEG = 12;
/** … over this it is slanted. */
const SLANT_DEG = 22;
/** A cell of a 3 × 3 split holds slanted edges on this share of its looked-at pixels. */
const CELL_SLANT = 0.02;

export interface EdgeAngles {
  /** Edge pixels within `AXIS_DEG` of horizontal or vertical. */
  axis: number;
  /** Edge pixels more than `SLANT_DEG` from both. */
  slant: number;
  /** Pixels looked at (not masked out). */
  area: number;
  /** Of the box's 3 × 3 cells, how many hold slanted edges on at least `CELL_SLANT` of their area. */
  slantedCells: number;
  /** Pixels looked at in each of the 3 × 3 cells (row-major). */
  cellArea: Uint32Array;
  /**
   * The slanted edge pixels, `SLANT_STRIDE` numbers each: x, y (point-image pixels), the signed Sobel
   * gradient gx, gy of the channel that changes most there, and the 3 × 3 cell it lies in.
   */
  slanted: number[];
}

/** Numbers per pixel in `EdgeAngles.slanted`. */
export const SLANT_STRIDE = 5;

/** How many of the 3 × 3 cells hold slanted edges on at least `CELL_SLANT` of their looked-at area. */
export function slantedCells(cellArea: Uint32Array, cellSlant: ArrayLike<number>): number {
  let n = 0;
  for (let c = 0; c < 9; c++)
    if ((cellArea[c] as number) > 0 && (cellSlant[c] as number) >= CELL_SLANT * (cellArea[c] as number)) n++;
  return n;
}

/** A screen averaged down to about 1 pt a pixel, per channel. */
export interface PointImage {
  w: number;
  h: number;
  /** Three planes, R then G then B, each `w × h`. */
  planes: Float32Array[];
}

/**
 * `screen` averaged over `f × f` blocks, `f` ≈ 1 pt; only within `region` (screen fractions, whole
 * screen by default) and a pixel around it — the rest stays 0 — since averaging a 3× screenshot costs
 * tens of milliseconds.
 */
export function toPoints(screen: RgbImage, region: FracBox = [0, 0, 1, 1]): PointImage {
  const f = Math.max(1, Math.round(screen.width / SCREEN_PT));
  const w = Math.floor(screen.width / f);
  const h = Math.floor(screen.height / f);
  const planes = [new Float32Array(w * h), new Float32Array(w * h), new Float32Array(w * h)];
  const { width: W, data } = screen;
  const k = 1 / (f * f);
  const x0 = Math.max(0, Math.floor(region[0] * w) - 1);
  const x1 = Math.min(w, Math.ceil(region[2] * w) + 1);
  const y0 = Math.max(0, Math.floor(region[1] * h) - 1);
  const y1 = Math.min(h, Math.ceil(region[3] * h) + 1);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < f; dy++) {
        let o = ((y * f + dy) * W + x * f) * 3;
        for (let dx = 0; dx < f; dx++, o += 3) {
          r += data[o] as number;
          g += data[o + 1] as number;
          b += data[o + 2] as number;
        }
      }
      const i = y * w + x;
      (planes[0] as Float32Array)[i] = r * k;
      (planes[1] as Float32Array)[i] = g * k;
      (planes[2] as Float32Array)[i] = b * k;
    }
  return { w, h, planes };
}

/**
 * Edge angles in `box` (screen fractions) of `img`, skipping pixels inside any of `skip` (the rows'
 * boxes: text and glyphs have slanted strokes whatever they sit on).
 */
export function edgeAngles(img: PointImage, box: FracBox, skip: readonly FracBox[] = []): EdgeAngles {
  const { w, h, planes } = img;
  const x0 = Math.max(1, Math.floor(box[0] * w));
  const x1 = Math.min(w - 1, Math.ceil(box[2] * w));
  const y0 = Math.max(1, Math.floor(box[1] * h));
  const y1 = Math.min(h - 1, Math.ceil(box[3] * h));
  const cellArea = new Uint32Array(9);
  const out: EdgeAngles = { axis: 0, slant: 0, area: 0, slantedCells: 0, cellArea, slanted: [] };
  const cellSlant = new Uint32Array(9);
  const cellOf = (x: number, y: number): number =>
    Math.min(2, Math.floor((3 * (y - y0)) / Math.max(1, y1 - y0))) * 3 +
    Math.min(2, Math.floor((3 * (x - x0)) / Math.max(1, x1 - x0)));
  const masked = new Uint8Array(w * h);
  for (const s of skip) {
    const sx0 = Math.max(0, Math.floor(s[0] * w) - 1);
    const sx1 = Math.min(w, Math.ceil(s[2] * w) + 1);
    const sy0 = Math.max(0, Math.floor(s[1] * h) - 1);
    const sy1 = Math.min(h, Math.ceil(s[3] * h) + 1);
    for (let y = sy0; y < sy1; y++) masked.fill(1, y * w + sx0, y * w + sx1);
  }
  const tanAxis = Math.tan((AXIS_DEG * Math.PI) / 180);
  const tanSlant = Math.tan((SLANT_DEG * Math.PI) / 180);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      if (masked[i]) continue;
      out.area++;
      const cell = cellOf(x, y);
      cellArea[cell] = (cellArea[cell] as number) + 1;
      let gx = 0;
      let gy = 0;
      let best = 0;
      let signedX = 0;
      let signedY = 0;
      for (const p of planes) {
        const a = p[i - w - 1] as number;
        const b = p[i - w] as number;
        const c = p[i - w + 1] as number;
        const d = p[i - 1] as number;
        const e = p[i + 1] as number;
        const f = p[i + w - 1] as number;
        const g = p[i + w] as number;
        const hh = p[i + w + 1] as number;
        const sx = c + 2 * e + hh - a - 2 * d - f;
        const sy = f + 2 * g + hh - a - 2 * b - c;
        const m = Math.abs(sx) + Math.abs(sy);
        if (m > best) {
          best = m;
          gx = Math.abs(sx);
          gy = Math.abs(sy);
          signedX = sx;
          signedY = sy;
        }
      }
      if (best < MIN_EDGE) continue;
      const lo = Math.min(gx, gy);
      const hi = Math.max(gx, gy);
      if (lo <= tanAxis * hi) out.axis++;
      else if (lo >= tanSlant * hi) {
        out.slant++;
        cellSlant[cell] = (cellSlant[cell] as number) + 1;
        out.slanted.push(x, y, signedX, signedY, cell);
      }
    }
  out.slantedCells = slantedCells(cellArea, cellSlant);
  return out;
}
