import { SLANT_STRIDE } from "./edge-angles.js";

/**
 * Slanted edges that lie on circles: a progress ring or a circular timer (HIG "Progress indicators":
 * a circular indicator fills its track clockwise), Activity rings (HIG "Activity rings": concentric
 * rings around one centre), a gauge's or dial's arc (SwiftUI `Gauge`, `.accessoryCircular`), a round
 * button or an avatar cropped to a circle. UIKit draws these as circles and arcs, so their slanted
 * edges run around a centre: each edge pixel's gradient points straight at it (the edge is tangent to a
 * circle about it), all round it. A map's roads and coasts and a photo's contours point every which way;
 * where one of their curves bends round a centre (a bay, a roundabout) it covers a small arc and a small
 * share of the edges.
 *
 * So: every slanted edge pixel votes, along its gradient line, for the centres it could be tangent
 * around; the most-voted centre is a circle's when many of the pixels whose gradient passes through it
 * lie at one distance from it, all round it (in at least half of the directions from it). Those pixels
 * are the circle's, not a picture's; the next circle is looked for among the rest (a ring's other edge,
 * concentric rings, a round button beside it).
 */

/** Centres are voted for in cells this many pixels (≈ pt) square. */
const CELL = 2;
/** Pixels closer to a centre than this (≈ pt) bend like a glyph's strokes, not a ring's. */
const MIN_RADIUS = 6;
/**
 * A pixel is tangent around a centre when its gradient line passes this close to it: a pixel and a
 * half for the cell and the Sobel kernel, plus ~3° of direction error (a camera frame's blur and noise)
 * over the radius.
 */
const TOL_PX = 1.5;
const TOL_SLOPE = 0.05;
/**
 * Directions from a centre, in bins of 45° from the horizontal: a circle's slanted pixels (22–68° from
 * its centre's axes, `edge-angles.ts`) reach into every bin …
 */
const BINS = 8;
/** … and a circle's pixels fill at least this many: half a turn (a rounded corner covers a quarter). */
const MIN_BINS = 4;
/**
 * A bin is filled when it holds this many pixels per pixel of radius: a drawn circle's one edge puts
 * ~0.4 R slanted pixels (two or three wide after Sobel) in each 45° bin, a ring's stroke twice that; a
 * map's or photo's edges that happen to be tangent around a centre at one radius put ~0.03 R there.
 */
const BIN_MIN_PER_R = 0.25;
/** A circle's edge pixels lie within this of its radius (a pixel or two, and a slightly oval ring). */
const BAND_PX = 2;
const BAND_SLOPE = 0.03;
/** A known circle's pixels have gradients within this of its radial direction. */
const MEMBER_DEG = 20;
/** Circles (each edge of a ring counts once) looked for in one picture candidate. */
const MAX_CIRCLES = 6;

/**
 * Which of `slanted` (`EdgeAngles.slanted`) lie on circles whose centres fall within the pixel box
 * `[x0, y0, x1, y1)`: one flag per pixel.
 */
export function onCircles(
  slanted: readonly number[],
  box: readonly [number, number, number, number],
): Uint8Array {
  const n = slanted.length / SLANT_STRIDE;
  const on = new Uint8Array(n);
  for (let k = 0; k < MAX_CIRCLES; k++) {
    const centre = mostVoted(slanted, on, box);
    if (!centre) break;
    const radius = circleRadius(slanted, tangentAround(slanted, on, centre), centre);
    if (radius === undefined) break;
    onRing(slanted, on, centre, radius);
  }
  return on;
}

/** The centre (pixels) voted for by the most of the pixels not yet `on` a circle. */
function mostVoted(
  slanted: readonly number[],
  on: Uint8Array,
  [x0, y0, x1, y1]: readonly [number, number, number, number],
): { x: number; y: number } | undefined {
  const cw = Math.max(1, Math.ceil((x1 - x0) / CELL));
  const ch = Math.max(1, Math.ceil((y1 - y0) / CELL));
  const votes = new Uint32Array(cw * ch);
  // A circle inside the box is at most half its shorter side in radius.
  const maxR = Math.min(x1 - x0, y1 - y0) / 2 + CELL;
  for (let i = 0; i < on.length; i++) {
    if (on[i]) continue;
    const o = i * SLANT_STRIDE;
    const x = slanted[o] as number;
    const y = slanted[o + 1] as number;
    const gx = slanted[o + 2] as number;
    const gy = slanted[o + 3] as number;
    const g = Math.hypot(gx, gy);
    if (g === 0) continue;
    for (const s of [-1, 1]) {
      let last = -1;
      for (let t = MIN_RADIUS; t <= maxR; t++) {
        const cx = Math.floor((x + (s * t * gx) / g - x0) / CELL);
        const cy = Math.floor((y + (s * t * gy) / g - y0) / CELL);
        if (cx < 0 || cy < 0 || cx >= cw || cy >= ch) break;
        const c = cy * cw + cx;
        if (c === last) continue;
        last = c;
        votes[c] = (votes[c] as number) + 1;
      }
    }
  }
  // The peak of the votes summed over 3 × 3 cells (a centre's votes straddle cell borders).
  let best = 0;
  let at = -1;
  for (let cy = 1; cy < ch - 1; cy++)
    for (let cx = 1; cx < cw - 1; cx++) {
      let v = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) v += votes[(cy + dy) * cw + cx + dx] as number;
      if (v > best) {
        best = v;
        at = cy * cw + cx;
      }
    }
  if (at < 0) return undefined;
  // Its vote-weighted middle, for a centre finer than a cell.
  const acx = at % cw;
  const acy = (at - acx) / cw;
  let sx = 0;
  let sy = 0;
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      const v = votes[(acy + dy) * cw + acx + dx] as number;
      sx += v * (acx + dx + 0.5);
      sy += v * (acy + dy + 0.5);
    }
  return { x: x0 + (CELL * sx) / best, y: y0 + (CELL * sy) / best };
}

/** Indices of the pixels not yet `on` a circle whose gradient line passes through `c`. */
function tangentAround(slanted: readonly number[], on: Uint8Array, c: { x: number; y: number }): number[] {
  const out: number[] = [];
  for (let i = 0; i < on.length; i++) {
    if (on[i]) continue;
    const o = i * SLANT_STRIDE;
    const dx = c.x - (slanted[o] as number);
    const dy = c.y - (slanted[o + 1] as number);
    const gx = slanted[o + 2] as number;
    const gy = slanted[o + 3] as number;
    const g = Math.hypot(gx, gy);
    const r = Math.hypot(dx, dy);
    if (g === 0 || r < MIN_RADIUS) continue;
    // Distance from the centre to the pixel's gradient line.
    if (Math.abs(dx * gy - dy * gx) / g <= TOL_PX + TOL_SLOPE * r) out.push(i);
  }
  return out;
}

/**
 * The radius most of `pixels` (tangent around `c`) share, when they lie all round `c` there (at least
 * `MIN_BINS` of the `BINS` directions from it hold `BIN_MIN_PER_R` × radius of them).
 */
function circleRadius(
  slanted: readonly number[],
  pixels: readonly number[],
  c: { x: number; y: number },
): number | undefined {
  const dist = pixels.map((i) =>
    Math.hypot((slanted[i * SLANT_STRIDE] as number) - c.x, (slanted[i * SLANT_STRIDE + 1] as number) - c.y),
  );
  const hist = new Uint32Array(Math.ceil(Math.max(0, ...dist)) + 2);
  for (const d of dist) hist[Math.round(d)] = (hist[Math.round(d)] as number) + 1;
  let best = 0;
  let radius = 0;
  for (let r = MIN_RADIUS; r < hist.length; r++) {
    const band = Math.round(BAND_PX + BAND_SLOPE * r);
    let n = 0;
    for (let d = Math.max(0, r - band); d <= Math.min(hist.length - 1, r + band); d++) n += hist[d] as number;
    if (n > best) {
      best = n;
      radius = r;
    }
  }
  if (best === 0) return undefined;
  const band = BAND_PX + BAND_SLOPE * radius + 0.5;
  const ring = pixels.filter((_, k) => Math.abs((dist[k] as number) - radius) <= band);
  const bins = new Uint32Array(BINS);
  for (const i of ring) {
    const o = i * SLANT_STRIDE;
    const a = Math.atan2((slanted[o + 1] as number) - c.y, (slanted[o] as number) - c.x);
    const b = Math.min(BINS - 1, Math.floor(((a + Math.PI) / (2 * Math.PI)) * BINS));
    bins[b] = (bins[b] as number) + 1;
  }
  return bins.filter((v) => v >= BIN_MIN_PER_R * radius).length >= MIN_BINS ? radius : undefined;
}

/**
 * Marks `on` the pixels at `radius` from `c` whose gradient points within `MEMBER_DEG` of `c`: once a
 * circle is known, its pixels where a 1 pt grid turns it into stairs (the Sobel direction off by up to
 * ~10° near the axes) are its pixels too.
 */
function onRing(
  slanted: readonly number[],
  on: Uint8Array,
  c: { x: number; y: number },
  radius: number,
): void {
  const band = BAND_PX + BAND_SLOPE * radius + 0.5;
  const cos = Math.cos((MEMBER_DEG * Math.PI) / 180);
  for (let i = 0; i < on.length; i++) {
    if (on[i]) continue;
    const o = i * SLANT_STRIDE;
    const dx = (slanted[o] as number) - c.x;
    const dy = (slanted[o + 1] as number) - c.y;
    const d = Math.hypot(dx, dy);
    if (Math.abs(d - radius) > band) continue;
    const gx = slanted[o + 2] as number;
    const gy = slanted[o + 3] as number;
    const g = Math.hypot(gx, gy);
    if (g > 0 && Math.abs(dx * gx + dy * gy) >= cos * d * g) on[i] = 1;
  }
}
