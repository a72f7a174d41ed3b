import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { median } from "../shared/median.js";

/**
 * How much of a box's ink is a picture rather than one tint.
 *
 * A symbol button is drawn in one colour on its background: an SF Symbol in monochrome or hierarchical
 * rendering is one tint at one or more opacities (HIG "SF Symbols", rendering modes), and antialiasing
 * only blends that tint with the background. Every pixel then lies on the line in RGB from the
 * background to the tint. A photo, an emoji or a drawn avatar has pixels off that line (skin, sky, a
 * second colour). The share of ink pixels farther than `OFF_LINE` from the line measures that.
 */

/** Sample grid at most this many points a side. */
const GRID = 48;
/** A pixel is ink when it differs from the background by more than this (Euclidean RGB). */
const INK = 40;
/** An ink pixel is off the tint's line when farther than this from it (Euclidean RGB). */
const OFF_LINE = 25;
/** The tint: the mean of this share of the ink pixels farthest from the background. */
const TINT_SHARE = 0.2;

/**
 * The share (0–1) of the ink inside `box` (screen fractions) that lies off the line from the
 * background (the median of the box's border) to its main tint; 0 when the box has no ink.
 */
export function pictureShare(screen: RgbImage, box: FracBox): number {
  const { width: W, height: H } = screen;
  const l = Math.max(0, Math.floor(box[0] * W));
  const r = Math.min(W - 1, Math.ceil(box[2] * W) - 1);
  const t = Math.max(0, Math.floor(box[1] * H));
  const b = Math.min(H - 1, Math.ceil(box[3] * H) - 1);
  if (r <= l || b <= t) return 0;
  const sx = Math.max(1, (r - l) / GRID);
  const sy = Math.max(1, (b - t) / GRID);
  const at = (x: number, y: number): number[] => {
    const i = (Math.round(y) * W + Math.round(x)) * 3;
    return [screen.data[i] ?? 0, screen.data[i + 1] ?? 0, screen.data[i + 2] ?? 0];
  };
  const border: number[][] = [];
  for (let x = l; x <= r; x += sx) border.push(at(x, t), at(x, b));
  for (let y = t; y <= b; y += sy) border.push(at(l, y), at(r, y));
  const bg = [0, 1, 2].map((c) => median(border.map((p) => p[c] ?? 0)));
  const ink: { c: number[]; d: number }[] = [];
  for (let y = t; y <= b; y += sy)
    for (let x = l; x <= r; x += sx) {
      const c = at(x, y);
      const d = euclid(c, bg);
      if (d > INK) ink.push({ c, d });
    }
  if (ink.length === 0) return 0;
  ink.sort((p, q) => q.d - p.d);
  const top = ink.slice(0, Math.max(1, Math.round(TINT_SHARE * ink.length)));
  const tint = [0, 1, 2].map((c) => top.reduce((s, p) => s + (p.c[c] ?? 0), 0) / top.length);
  const off = ink.filter((p) => offLine(p.c, bg, tint) > OFF_LINE).length;
  return off / ink.length;
}

/** Distance (RGB) from `p` to the segment from `a` to `b`. */
function offLine(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const ab = [0, 1, 2].map((i) => (b[i] ?? 0) - (a[i] ?? 0));
  const ap = [0, 1, 2].map((i) => (p[i] ?? 0) - (a[i] ?? 0));
  const len2 = ab.reduce((s, v) => s + v * v, 0);
  const k = len2 > 0 ? Math.min(1, Math.max(0, ab.reduce((s, v, i) => s + v * (ap[i] ?? 0), 0) / len2)) : 0;
  return euclid(
    p,
    ab.map((v, i) => (a[i] ?? 0) + k * v),
  );
}

const euclid = (a: readonly number[], b: readonly number[]): number =>
  Math.sqrt(a.reduce((s, v, i) => s + (v - (b[i] ?? 0)) ** 2, 0));
