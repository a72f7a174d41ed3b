import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";

/**
 * iOS switches (UISwitch) found in the pixels, in either state, whatever the detector saw. Apple draws
 * a switch as a 51×31 pt capsule with a 27 pt white knob (UIKit's `UISwitch` intrinsic size; HIG
 * "Toggles"): on = the track filled with the tint (system green #34C759, dark #30D158, or an app's own
 * `onTintColor`) and the knob at the right; off = a light grey (#E9E9EA) or dark grey (#39393D) track
 * and the knob at the left. So the state is where the knob sits, whatever the colours.
 *
 * How: the screen is sampled on a grid of about one cell per point (390 cells across: iPhones are
 * 375–430 pt wide). Along each grid row, runs of one colour are collected; a switch's centre row reads
 * [background][track ≈ 20 pt][white knob ≈ 27 pt][track ≈ 2 pt][background] (on) or mirrored (off).
 * A candidate is kept when the track is also ~31 pt tall at the middle of its long run and the knob
 * ~27 pt tall at its centre. About 5 ms for a 1170×2532 screen.
 */

export interface FoundSwitch {
  box: FracBox;
  on: boolean;
}

/** Grid cells across the screen: about one per point. */
const GRID_WIDTH = 390;
/** Two colours closer than this (largest channel difference) are one run. */
const SAME = 16;
/** A knob is near-white in every channel. */
const KNOB_MIN = 205;

interface Grid {
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
function sampleGrid(image: RgbImage): Grid {
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

const cell = (g: Grid, x: number, y: number): [number, number, number] => {
  const o = (y * g.w + x) * 3;
  return [g.rgb[o] ?? 0, g.rgb[o + 1] ?? 0, g.rgb[o + 2] ?? 0];
};
const diff = (a: readonly number[], b: readonly number[]): number =>
  Math.max(
    Math.abs((a[0] ?? 0) - (b[0] ?? 0)),
    Math.abs((a[1] ?? 0) - (b[1] ?? 0)),
    Math.abs((a[2] ?? 0) - (b[2] ?? 0)),
  );
const brightness = (c: readonly number[]): number => ((c[0] ?? 0) + (c[1] ?? 0) + (c[2] ?? 0)) / 3;
const isKnob = (c: readonly number[]): boolean => Math.min(c[0] ?? 0, c[1] ?? 0, c[2] ?? 0) >= KNOB_MIN;

interface Run {
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
function runs(g: Grid, y: number): Run[] {
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

/** How many cells up and down from (x, y) keep `colour`; returns [top, bottom) rows. */
function verticalExtent(
  g: Grid,
  x: number,
  y: number,
  colour: readonly number[],
  limit: number,
): [number, number] {
  let top = y;
  while (top - 1 >= 0 && y - top < limit && diff(cell(g, x, top - 1), colour) <= SAME) top--;
  let bottom = y + 1;
  while (bottom < g.h && bottom - y < limit && diff(cell(g, x, bottom), colour) <= SAME) bottom++;
  return [top, bottom];
}

/** Knob and track sizes in grid cells (≈ points), with tolerance for 375–430 pt screens and blur. */
const KNOB = { min: 20, max: 32 };
/** The knob's diameter (27 pt). */
const KNOB_SIZE = 27;
const LONG_TRACK = { min: 12, max: 28 };
const TRACK_HEIGHT = { min: 22, max: 38 };
const SWITCH_WIDTH = { min: 40, max: 62 };

interface Candidate {
  box: [number, number, number, number];
  on: boolean;
  /** The knob was cut out of a white run that merged with the background (a weaker reading). */
  merged: boolean;
}

function candidateAt(g: Grid, y: number, rs: readonly Run[], k: number): Candidate | null {
  const run = rs[k];
  if (!run || !isKnob(run.colour)) return null;
  const rw = run.x1 - run.x0;
  if (rw < KNOB.min) return null;
  for (const side of [-1, 1] as const) {
    // The long stretch of track is on the side away from the knob's end of the capsule.
    const trackIdx = k + side;
    const track = rs[trackIdx];
    // The knob is the brighter: the off track (#E9E9EA) is pale too, but darker than the white knob.
    if (
      !track ||
      brightness(track.colour) > brightness(run.colour) - 12 ||
      diff(track.colour, run.colour) < 20
    )
      continue;
    const tw = track.x1 - track.x0;
    if (tw < LONG_TRACK.min || tw > LONG_TRACK.max) continue;
    // Beyond the long track: background, not more of the track colour.
    const beyond = rs[trackIdx + side];
    if (beyond && diff(beyond.colour, track.colour) <= SAME) continue;
    // A white knob with no visible rim on a white cell runs on into the background: its own part is the
    // knob's width next to the track.
    const knob =
      rw <= KNOB.max
        ? run
        : side === 1
          ? { ...run, x0: run.x1 - KNOB_SIZE }
          : { ...run, x1: run.x0 + KNOB_SIZE };
    // On the knob's other side a sliver of track (≤ 6 cells, often dropped as an edge), then background.
    const near = rs[k - side];
    let nearEdge = side === 1 ? knob.x0 - 2 : knob.x1 + 2;
    if (rw <= KNOB.max && near && diff(near.colour, track.colour) <= SAME) {
      // More than a sliver of track colour past the knob: the "knob" is a white glyph on a coloured
      // tile (the Messages icon's bubble), not a switch's knob.
      if (near.x1 - near.x0 > 6) continue;
      nearEdge = side === 1 ? near.x0 : near.x1;
    }
    const x0 = side === 1 ? nearEdge : track.x0;
    const x1 = side === 1 ? track.x1 : nearEdge;
    if (x1 - x0 < SWITCH_WIDTH.min || x1 - x0 > SWITCH_WIDTH.max) continue;
    // The track is a capsule ~31 pt tall, centred on this row …
    const tx = Math.floor((track.x0 + track.x1) / 2);
    const [t0, t1] = verticalExtent(g, tx, y, track.colour, TRACK_HEIGHT.max);
    if (t1 - t0 < TRACK_HEIGHT.min || t1 - t0 >= TRACK_HEIGHT.max) continue;
    if (Math.abs((t0 + t1) / 2 - y) > 4) continue;
    // … with a rounded end: near its outer end the track is much lower than in its middle (a grey
    // rectangle beside a white one is not a switch).
    const endX = side === 1 ? track.x1 - 3 : track.x0 + 2;
    const [e0, e1] = verticalExtent(g, endX, y, track.colour, TRACK_HEIGHT.max);
    if (e1 - e0 > 0.8 * (t1 - t0)) continue;
    // The knob ~27 pt tall (only a lower bound: a white knob on a white cell runs on into the cell).
    const kx = Math.floor((knob.x0 + knob.x1) / 2);
    const [k0, k1] = verticalExtent(g, kx, y, knob.colour, KNOB.max);
    if (k1 - k0 < KNOB.min - 4) continue;
    return { box: [x0, t0, x1, t1], on: side === -1, merged: rw > KNOB.max };
  }
  return null;
}

/** Every switch on the screen, top to bottom. */
export function findSwitches(image: RgbImage): FoundSwitch[] {
  if (image.width < 100 || image.height < 100) return [];
  const g = sampleGrid(image);
  const found: Candidate[] = [];
  for (let y = 10; y < g.h - 10; y++) {
    const rs = runs(g, y);
    for (let k = 0; k < rs.length; k++) {
      const c = candidateAt(g, y, rs, k);
      if (!c) continue;
      // Several rows through one switch match: keep the first, unless a reading with a knob of its own
      // comes after one cut out of a merged run.
      const twin = found.findIndex(
        (f) => f.box[0] < c.box[2] && c.box[0] < f.box[2] && f.box[1] < c.box[3] && c.box[1] < f.box[3],
      );
      if (twin < 0) found.push(c);
      else if (found[twin]?.merged && !c.merged) found[twin] = c;
    }
  }
  return found.map((f) => ({
    on: f.on,
    box: [f.box[0] / g.w, f.box[1] / g.h, f.box[2] / g.w, f.box[3] / g.h],
  }));
}
