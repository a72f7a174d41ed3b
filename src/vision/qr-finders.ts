import { lumaByte, type RgbImage } from "../shared/image.js";

/**
 * QR code finder patterns in the pixels (ISO/IEC 18004 §6.3.3): a 7 × 7-module square ring around a
 * 3 × 3 block, so any line through its centre crosses ink : gap : ink : gap : ink in the ratio
 * 1 : 1 : 3 : 1 : 1. Found as scanners find them (the approach of ZXing's `FinderPatternFinder`, read,
 * not copied): each pixel row is cut into ink and gap runs, five runs in that ratio (with a tolerance,
 * for blur and the camera's resampling) make a candidate, which must show the same ratio down its
 * column, across the row again at the refined centre, and along both diagonals. Unlike a scanner this
 * also tells a square from a circle, at any turn: the outer ring's edge, walked out from the centre in
 * 16 directions, lies √2 farther at the corners than at the sides' middles (the 16 directions, 22.5°
 * apart, come within 11.25° of both: a spread of ≥ 1.3), while a round target (◉, a radio button, a
 * record button) measures one radius all round. The module is the ring's nearest reach (3.5 modules,
 * a side's middle) over 3.5: along the row only when the code is upright.
 *
 * Both polarities are scanned: dark modules on a light code (the norm) and light ones on a dark code
 * (ISO/IEC 18004 §6.2 allows reflectance reversal; dark-mode apps draw some).
 */

/** A finder pattern's centre (pixels), module size (pixels) and how many scan rows found it. */
export interface FinderPattern {
  x: number;
  y: number;
  module: number;
  count: number;
  /** The polarity it was found in: `true` for dark modules on light. */
  dark: boolean;
}

/** Block side (pixels) of the local threshold grid. */
const BLOCK = 16;
/**
 * The threshold of a block is the mid-grey of the blocks within this many blocks around it (a ~112 px
 * window: wider than a finder's 3-module core at 26 px modules, so a core's centre still sees the gap
 * ring).
 */
const REACH = 3;
/** A window whose luma spans fewer levels than this holds no code (flat fill, a photo's smooth sky). */
const MIN_CONTRAST = 48;
/** Smallest module (pixels) looked for: below ~1.5 px a camera frame's blur merges modules. */
const MIN_MODULE = 1.5;
/**
 * Run tolerance, as a fraction of the module: one-module runs within ±`TOL` (ZXing uses ½; a little
 * more here, as the camera's blur moves each edge by up to a pixel at 2–3 px modules) …
 */
const TOL = 0.6;
/** … the 3-module core within ±`CORE_TOL` modules (ZXing's 1.5): five equal stripes (core 1.4 modules) fail. */
const CORE_TOL = 1.5;
/** The column (and the second row) check's total within this fraction of the row's total (a square). */
const CROSS_TOTAL = 0.4;
/** Directions the outer ring's reach is measured in (22.5° apart). */
const DIRECTIONS = 16;
/** A square's farthest reach over its nearest, at least (√2 at corners; a circle's ~1, ≤ 1.1 blurred). */
const SQUARE_SPREAD = 1.22;

/**
 * Every pixel's class: 1 dark ink, 2 light ink (beyond its window's mid-grey on either side), 0 where
 * its window is flat. One byte a pixel, read in place.
 */
function binarize(screen: RgbImage): Uint8Array {
  const { width: W, height: H, data } = screen;
  const luma = new Uint8Array(W * H);
  for (let i = 0; i < luma.length; i++) luma[i] = lumaByte(data, i * 3);
  const bw = Math.ceil(W / BLOCK);
  const bh = Math.ceil(H / BLOCK);
  const lo = new Uint8Array(bw * bh).fill(255);
  const hi = new Uint8Array(bw * bh);
  for (let y = 0; y < H; y++) {
    const row = ((y / BLOCK) | 0) * bw;
    for (let x = 0; x < W; x++) {
      const v = luma[y * W + x] ?? 0;
      const b = row + ((x / BLOCK) | 0);
      if (v < (lo[b] ?? 255)) lo[b] = v;
      if (v > (hi[b] ?? 0)) hi[b] = v;
    }
  }
  const thr = new Uint8Array(bw * bh);
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let l = 255;
      let h = 0;
      for (let y = Math.max(0, by - REACH); y <= Math.min(bh - 1, by + REACH); y++)
        for (let x = Math.max(0, bx - REACH); x <= Math.min(bw - 1, bx + REACH); x++) {
          l = Math.min(l, lo[y * bw + x] ?? 255);
          h = Math.max(h, hi[y * bw + x] ?? 0);
        }
      thr[by * bw + bx] = h - l >= MIN_CONTRAST ? (l + h + 1) >> 1 : 0;
    }
  // The luma plane becomes the class plane in place.
  for (let y = 0; y < H; y++) {
    const row = ((y / BLOCK) | 0) * bw;
    for (let x = 0; x < W; x++) {
      const t = thr[row + ((x / BLOCK) | 0)] ?? 0;
      const i = y * W + x;
      luma[i] = t === 0 ? 0 : (luma[i] ?? 0) < t ? 1 : 2;
    }
  }
  return luma;
}

/** Whether the five runs `c` (ink, gap, ink, gap, ink) are in the ratio 1 : 1 : 3 : 1 : 1. */
export function finderRatio(c: readonly number[]): boolean {
  const total = c.reduce((s, v) => s + v, 0);
  const m = total / 7;
  if (m < MIN_MODULE || c.some((v) => v === 0)) return false;
  const one = (v: number): boolean => Math.abs(v - m) < TOL * m;
  return (
    one(c[0] ?? 0) &&
    one(c[1] ?? 0) &&
    Math.abs((c[2] ?? 0) - 3 * m) < CORE_TOL * m &&
    one(c[3] ?? 0) &&
    one(c[4] ?? 0)
  );
}

/** Finder patterns in `screen`, both polarities, each once (merged across the rows that found it). */
export function findFinderPatterns(screen: RgbImage): FinderPattern[] {
  const { width: W, height: H } = screen;
  const bits = binarize(screen);
  const found: FinderPattern[] = [];
  for (const dark of [true, false]) {
    // Ink at (x, y): beyond the block's threshold on the polarity's side; nothing is ink where flat.
    const want = dark ? 1 : 2;
    const ink = (x: number, y: number): boolean =>
      x >= 0 && y >= 0 && x < W && y < H && bits[y * W + x] === want;
    /** Run lengths walking from (x, y) by (dx, dy): the centre's ink run's half, then gap, ink (max steps each). */
    const walk = (x: number, y: number, dx: number, dy: number, max: number): number[] => {
      const runs = [0, 0, 0];
      let px = x;
      let py = y;
      for (let state = 0; state < 3; ) {
        const inked = state !== 1;
        if (ink(px, py) !== inked) {
          state++;
          continue;
        }
        runs[state] = (runs[state] ?? 0) + 1;
        if ((runs[state] ?? 0) > max) return [0, 0, 0];
        px += dx;
        py += dy;
        if (px < 0 || py < 0 || px >= W || py >= H) break;
      }
      return runs;
    };
    /** The five runs through (x, y) along (dx, dy) and the centre offset of the core, or undefined. */
    const cross = (
      x: number,
      y: number,
      dx: number,
      dy: number,
      max: number,
    ): { c: number[]; shift: number } | undefined => {
      if (!ink(x, y)) return undefined;
      const a = walk(x, y, dx, dy, max);
      const b = walk(x - dx, y - dy, -dx, -dy, max);
      const c = [b[2] ?? 0, b[1] ?? 0, (b[0] ?? 0) + (a[0] ?? 0), a[1] ?? 0, a[2] ?? 0];
      if (!finderRatio(c)) return undefined;
      return { c, shift: ((a[0] ?? 0) - (b[0] ?? 0)) / 2 };
    };
    const outer: Outer = (x, y, max) => {
      const reach: number[] = [];
      for (let k = 0; k < DIRECTIONS; k++) {
        const a = (2 * Math.PI * k) / DIRECTIONS;
        const ux = Math.cos(a);
        const uy = Math.sin(a);
        // core ink → gap → ring ink → outside: the edge is where the third change falls.
        let changes = 0;
        let was = true;
        for (let t = 0.5; t <= max && changes < 3; t += 0.5) {
          const now = ink(Math.round(x + ux * t), Math.round(y + uy * t));
          if (now !== was) {
            changes++;
            was = now;
            if (changes === 3) reach.push(t);
          }
        }
        if (changes < 3) return reach;
      }
      return reach;
    };
    for (let y = 0; y < H; y++) {
      // The last five runs along the row, oldest first; checked each time an ink run ends.
      const c = [0, 0, 0, 0, 0];
      const base = y * W;
      let x = 0;
      let seen = 0;
      while (x < W) {
        const on = bits[base + x] === want;
        let end = x + 1;
        while (end < W && (bits[base + end] === want) === on) end++;
        c.shift();
        c.push(end - x);
        seen++;
        x = end;
        if (on && seen >= 5) {
          if (finderRatio(c)) {
            const cx = Math.round(end - (c[4] ?? 0) - (c[3] ?? 0) - (c[2] ?? 0) / 2);
            const p = confirm(
              cx,
              y,
              c.reduce((s, v) => s + v, 0),
              cross,
              outer,
            );
            if (p) merge(found, { ...p, count: 1, dark });
          }
        }
      }
    }
  }
  return found.filter((p) => p.count >= 2);
}

/** The outer ring's outer edge's distance from (x, y) in each of `DIRECTIONS` directions (fewer: not a ring). */
type Outer = (x: number, y: number, max: number) => number[];

type Cross = (
  x: number,
  y: number,
  dx: number,
  dy: number,
  max: number,
) => { c: number[]; shift: number } | undefined;

/** The row candidate at (cx, y) with `total` pixels checked down its column, across again and on its diagonals. */
function confirm(
  cx: number,
  y: number,
  total: number,
  cross: Cross,
  outer: Outer,
): { x: number; y: number; module: number } | undefined {
  const max = Math.ceil(total);
  const sum = (c: readonly number[]): number => c.reduce((s, v) => s + v, 0);
  const v = cross(cx, y, 0, 1, max);
  if (!v || Math.abs(sum(v.c) - total) > CROSS_TOTAL * total) return undefined;
  const cy = Math.round(y + v.shift);
  const h = cross(cx, cy, 1, 0, max);
  if (!h || Math.abs(sum(h.c) - total) > CROSS_TOTAL * total) return undefined;
  const x = Math.round(cx + h.shift);
  for (const dx of [1, -1]) if (!cross(x, cy, dx, 1, max)) return undefined;
  const reach = outer(x, cy, max);
  if (reach.length < DIRECTIONS) return undefined;
  const near = Math.min(...reach);
  if (Math.max(...reach) < SQUARE_SPREAD * near) return undefined;
  return { x, y: cy, module: near / 3.5 };
}

/** Add `p` to `found`, or fold it into a pattern it repeats (centres within a module, like modules). */
function merge(found: FinderPattern[], p: FinderPattern): void {
  for (const [i, q] of found.entries()) {
    if (q.dark !== p.dark || Math.abs(q.module - p.module) > 0.5 * q.module) continue;
    if (Math.hypot(q.x - p.x, q.y - p.y) > 1.5 * q.module) continue;
    const n = q.count + 1;
    found[i] = {
      x: (q.x * q.count + p.x) / n,
      y: (q.y * q.count + p.y) / n,
      module: (q.module * q.count + p.module) / n,
      count: n,
      dark: q.dark,
    };
    return;
  }
  found.push(p);
}
