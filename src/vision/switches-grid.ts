import type { RgbImage } from "../shared/image.js";

/**
 * The pixel grid the switch finders read (`switches.ts`, `switches-outline.ts`): the screen sampled at
 * about one cell per point, with runs of one colour along a row and extents of one colour up and down.
 */

/** Grid cells across the screen: about one per point. */
export const GRID_WIDTH = 390;
/** Two colours closer than this (largest channel difference) are one run. */
export const SAME = 16;

/** A knob is near-white in every channel. */
const KNOB_MIN = 200;
/** …and neutral: UISwitch's thumb is white (`thumbTintColor` nil); a cream patch of a photo is not. */
const KNOB_TINT = 20;

export const isKnob = (c: readonly number[]): boolean =>
  Math.min(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) >= KNOB_MIN &&
  Math.max(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) - Math.min(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) <= KNOB_TINT;

/**
 * A pale knob: neutral and at least this light, but under `KNOB_MIN`. Dark-mode documentation
 * screenshots are often saved with reduced levels or a dimmed gamma (a white knob measured #C7C7CC and
 * lower), and apps set a light grey `thumbTintColor`; on a dark cell such a knob is still by far the
 * lightest thing on the control. Not under 170: a disabled switch's knob on a dark cell is white at
 * half opacity over #1C1C1E (~#8D8D8E, 141; 164 at 0.6), which `switches-disabled.ts` reads and flags.
 */
const PALE_KNOB_MIN = 170;

/** Whether `c` is a pale knob's colour (see `PALE_KNOB_MIN`); only on a dark cell (`switches.ts`). */
export const isPaleKnob = (c: readonly number[]): boolean =>
  Math.min(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) >= PALE_KNOB_MIN &&
  Math.max(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) - Math.min(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) <= KNOB_TINT;

export interface Grid {
  w: number;
  h: number;
  /** RGB per cell, row-major. */
  rgb: Uint8Array;
}

/**
 * A grid of `GRID_WIDTH` columns (cells square in pixels), each cell the mean of the 2×2 pixels at its
 * centre (the nearest pixel when cells are under two pixels): switches are large flat regions, so a
 * full area average (up to 9× the reads) buys nothing.
 */
export function sampleGrid(image: RgbImage): Grid {
  const { width: W, height: H, data } = image;
  const step = W / GRID_WIDTH;
  const w = GRID_WIDTH;
  const h = Math.max(1, Math.floor(H / step));
  const rgb = new Uint8Array(w * h * 3);
  const xs = new Int32Array(w);
  for (let gx = 0; gx < w; gx++) xs[gx] = Math.min(W - 2, Math.floor((gx + 0.5) * step));
  for (let gy = 0; gy < h; gy++) {
    const y = Math.min(H - 2, Math.floor((gy + 0.5) * step));
    const r0 = y * W * 3;
    const r1 = r0 + W * 3;
    for (let gx = 0, o = gy * w * 3; gx < w; gx++, o += 3) {
      const a = r0 + (xs[gx] ?? 0) * 3;
      const b = r1 + (xs[gx] ?? 0) * 3;
      if (step < 2) {
        // Cells no bigger than two pixels: the nearest pixel, or the knob's edge smears into the track.
        rgb[o] = data[a] ?? 0;
        rgb[o + 1] = data[a + 1] ?? 0;
        rgb[o + 2] = data[a + 2] ?? 0;
        continue;
      }
      for (let c = 0; c < 3; c++)
        rgb[o + c] =
          ((data[a + c] ?? 0) + (data[a + 3 + c] ?? 0) + (data[b + c] ?? 0) + (data[b + 3 + c] ?? 0)) >> 2;
    }
  }
  return { w, h, rgb };
}

export const cell = (g: Grid, x: number, y: number): [number, number, number] => {
  const o = (y * g.w + x) * 3;
  return [g.rgb[o] ?? 0, g.rgb[o + 1] ?? 0, g.rgb[o + 2] ?? 0];
};
export const diff = (a: readonly number[], b: readonly number[]): number =>
  Math.max(
    Math.abs((a[0] ?? 0) - (b[0] ?? 0)),
    Math.abs((a[1] ?? 0) - (b[1] ?? 0)),
    Math.abs((a[2] ?? 0) - (b[2] ?? 0)),
  );
export const brightness = (c: readonly number[]): number => ((c[0] ?? 0) + (c[1] ?? 0) + (c[2] ?? 0)) / 3;
/**
 * `diff(cell(g, x, y), c)` read in place: the same number without a cell array a call (the switch and
 * stepper scans call it for most cells of a row, and the arrays were garbage to collect).
 */
export function cellDiff(g: Grid, x: number, y: number, c: readonly number[]): number {
  const o = (y * g.w + x) * 3;
  const { rgb } = g;
  return Math.max(
    Math.abs((rgb[o] ?? 0) - (c[0] ?? 0)),
    Math.abs((rgb[o + 1] ?? 0) - (c[1] ?? 0)),
    Math.abs((rgb[o + 2] ?? 0) - (c[2] ?? 0)),
  );
}
/** `cellBrightness(g, x, y)` read in place (see `cellDiff`). */
export function cellBrightness(g: Grid, x: number, y: number): number {
  const o = (y * g.w + x) * 3;
  const { rgb } = g;
  return ((rgb[o] ?? 0) + (rgb[o + 1] ?? 0) + (rgb[o + 2] ?? 0)) / 3;
}

export interface Run {
  x0: number;
  /** Exclusive. */
  x1: number;
  colour: [number, number, number];
}

/** Runs shorter than this are anti-aliased edges (a knob's rim, a track's rounded end), not regions. */
const MIN_RUN = 3;

/**
 * Runs of one colour along grid row `y` (each cell compared with the run's first cell), without the
 * runs shorter than `MIN_RUN`: the neighbours of a run in the result are the regions beside it.
 */
export function runs(g: Grid, y: number): Run[] {
  const out: Run[] = [];
  const { rgb, w } = g;
  const row = y * w * 3;
  let start = 0;
  let r0 = rgb[row] ?? 0;
  let g0 = rgb[row + 1] ?? 0;
  let b0 = rgb[row + 2] ?? 0;
  for (let x = 1; x <= w; x++) {
    const o = row + x * 3;
    if (
      x < w &&
      Math.abs((rgb[o] ?? 0) - r0) <= SAME &&
      Math.abs((rgb[o + 1] ?? 0) - g0) <= SAME &&
      Math.abs((rgb[o + 2] ?? 0) - b0) <= SAME
    )
      continue;
    if (x - start >= MIN_RUN) out.push({ x0: start, x1: x, colour: [r0, g0, b0] });
    start = x;
    r0 = rgb[o] ?? 0;
    g0 = rgb[o + 1] ?? 0;
    b0 = rgb[o + 2] ?? 0;
  }
  return out;
}

/**
 * Grid `g` with each cell replaced by the mean of its 3×3 neighbourhood (edge cells repeated), as two
 * 1-D passes. A camera's sensor noise (±5–8 levels a cell after `stretchContrast`) cuts a flat white
 * knob's run into pieces at `SAME`; the mean divides it by three and blurs edges by one cell (a point),
 * well inside the shape checks' tolerances.
 */
export function meanGrid(g: Grid): Grid {
  const { w, h, rgb } = g;
  const stride = w * 3;
  const row = new Uint16Array(rgb.length);
  for (let y = 0; y < h; y++) {
    const o = y * stride;
    for (let i = 0; i < stride; i++) {
      const l = i >= 3 ? i - 3 : i;
      const r = i + 3 < stride ? i + 3 : i;
      row[o + i] = (rgb[o + l] ?? 0) + (rgb[o + i] ?? 0) + (rgb[o + r] ?? 0);
    }
  }
  const out = new Uint8Array(rgb.length);
  for (let y = 0; y < h; y++) {
    const o = y * stride;
    const up = y > 0 ? o - stride : o;
    const down = y < h - 1 ? o + stride : o;
    for (let i = 0; i < stride; i++)
      out[o + i] = ((row[up + i] ?? 0) + (row[o + i] ?? 0) + (row[down + i] ?? 0) + 4) / 9;
  }
  return { w, h, rgb: out };
}

/** How many cells up and down from (x, y) keep `colour`; returns [top, bottom) rows. */
export function verticalExtent(
  g: Grid,
  x: number,
  y: number,
  colour: readonly number[],
  limit: number,
): [number, number] {
  let top = y;
  while (top - 1 >= 0 && y - top < limit && cellDiff(g, x, top - 1, colour) <= SAME) top--;
  let bottom = y + 1;
  while (bottom < g.h && bottom - y < limit && cellDiff(g, x, bottom, colour) <= SAME) bottom++;
  return [top, bottom];
}

/** Around a flat control the background is one colour: cells this close to their median colour. */
const FLAT_AROUND = 24;

/**
 * How far out of a box `flatAround` reads its surroundings by default, in track heights: past the knob's
 * shadow and anti-aliased edges, which hug the capsule, but inside the gap to a row's separator (6.5 pt
 * away in a 44 pt row) or to the next switch in a list of 35 pt rows (4 pt).
 */
export const FLAT_OUT = 0.12;

/** Cells out of a box `height` cells tall that `flatAround` reads at `out` track heights (at least 3). */
export function flatOffset(height: number, out = FLAT_OUT): number {
  return Math.max(3, Math.round(out * height));
}

/**
 * Whether the cells just outside the box [x0, y0, x1, y1) — beyond both ends at its middle row, above
 * and below at a quarter, half and three quarters of its width — are one background colour. A switch
 * sits on a flat table cell or sheet; a look-alike on a map or a photo has streets and texture there.
 * `belowExtra` cells more are skipped under the box (a knob's shadow, offset down).
 */
export function flatAround(
  g: Grid,
  box: readonly [number, number, number, number],
  out = FLAT_OUT,
  belowExtra = 0,
): boolean {
  const [x0, y0, x1, y1] = box;
  const cy = Math.floor((y0 + y1) / 2);
  // `out` track heights out (`FLAT_OUT`); an outline switch's box runs to its border lines' inner edge,
  // so its caller reads a little further.
  const o = flatOffset(y1 - y0, out);
  const pts: [number, number][] = [
    [x0 - o, cy],
    [x1 - 1 + o, cy],
  ];
  for (const f of [0.25, 0.5, 0.75]) {
    const x = Math.floor(x0 + f * (x1 - x0));
    pts.push([x, y0 - o], [x, y1 - 1 + o + belowExtra]);
  }
  const cs = pts.filter(([x, y]) => x >= 0 && y >= 0 && x < g.w && y < g.h).map(([x, y]) => cell(g, x, y));
  if (cs.length < 6) return false;
  const median = [0, 1, 2].map((c) => {
    const v = cs.map((p) => p[c] ?? 0).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)] ?? 0;
  });
  // One cell may differ (a separator line, a glyph's tip nearby).
  return cs.filter((p) => diff(p, median) > FLAT_AROUND).length <= 1;
}
