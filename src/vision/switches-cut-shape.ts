import { brightness, cell, diff, type Grid, isKnob, type Run, runs, SAME } from "./switches-grid.js";

/**
 * Switches cut by the screen's bottom edge, found from UISwitch's own shape — no whole switch of the
 * same colour need be on the screen (`switches-cut.ts` needs one): a lone switch in the last row of a
 * scrolled list, or the only *on* switch under off ones. What shows is the top of the capsule: the
 * track's straight top edge and its round outer end, the knob's round top 2 pt inside it.
 *
 * The shapes, in track heights h (UIKit `UISwitch` intrinsic size, HIG "Toggles"):
 * - iOS 7–18: 51×31 pt capsule, a 27 pt round knob inset 2 pt: width 1.65 h, knob 0.87 h.
 * - iOS 26: 64×28 pt capsule, a 38×24 pt pill knob inset 2 pt: width 2.29 h, knob 1.36 × 0.86 h.
 * The track's outer end is a half circle of radius h/2, so its top edge drops by
 * `r − √(r² − (r − j)²)` at j cells in from the end: fitting that profile over the track's columns
 * gives h however little of the control shows; the knob's edge on the track's side must then sit where
 * the model puts it. The knob side is at the right when on.
 */

export interface ShapeCut {
  box: [number, number, number, number];
  on: boolean;
}

interface Model {
  /** Width / height of the capsule. */
  wide: number;
  /** Knob width and height / track height. */
  knobW: number;
  knobH: number;
}

const MODELS: readonly Model[] = [
  { wide: 51 / 31, knobW: 27 / 31, knobH: 27 / 31 },
  { wide: 64 / 28, knobW: 38 / 28, knobH: 24 / 28 },
];

/** Track heights tried, in grid cells (≈ points): a shrunk 20 pt control to Display Zoom's 38 pt. */
const H_RANGE = { min: 17, max: 40 };
/** At least this share of h must show: less is too little to tell a knob from a blob. */
const MIN_SHOWN = 0.3;
/** Mean distance (cells) between the measured and the modelled top edge of the track, at most. */
const FIT_MAE = 1.0;
/** The knob's edge on the track's side within this many cells of the model's. */
const KNOB_SLACK = 2.5;
/** The knob's brightness over the track's, at least (white knob 255 over #E9E9EA 233, shadowed ~250). */
const KNOB_LIGHTER = 12;
/** A white knob's brightness, at least (a filmed white reads 240–255; #E9E9EA, an off track, 233). */
const KNOB_WHITE = 238;
/** A track this bright is an off track's grey (#E9E9EA light), not dark mode's #39393D nor a tint. */
const PALE_TRACK = 150;
/**
 * Rows read for the knob and the track, up from the last one: a switch cut low (most of it showing) has
 * hardly any knob on the last row — the knob is inset 2 pt, and the capsule's round bottom narrows both
 * runs there — so its runs are read higher up, as far as the middle of a 31 pt track shown at 95%
 * (~14 cells) and of a filmed frame's last rows, which the screen's edge blurs into the bezel.
 */
const ROWS_UP = 16;
/** …and only where it lies at least this far (in track heights) under the track's top. */
const MID_ROW = 0.35;
/** Every other row (a cell is about a point; the runs change little from one to the next). */
const ROW_STEP = 2;
/** Cells out from the box where the background is read (above and beside): one flat colour. */
const OUT = 3;
/** The background cells' largest channel difference from their median, at most. */
const FLAT = 20;

/** Depth of a capsule's (or knob's) top edge below its top at `j` cells in from its end (radius r). */
function capDrop(j: number, r: number): number {
  if (j >= r) return 0;
  if (j < 0) return Number.POSITIVE_INFINITY;
  return r - Math.sqrt(r * r - (r - j) * (r - j));
}

/** Half the chord of a circle of radius r at `depth` below its top (0 above its top and below its bottom). */
function halfChord(depth: number, r: number): number {
  return depth <= 0 || depth >= 2 * r ? 0 : Math.sqrt(r * r - (r - depth) * (r - depth));
}

/** How far up from row y column x keeps `colour`: the first row of the run. */
function topOf(g: Grid, x: number, y: number, colour: readonly number[], limit: number): number {
  let top = y;
  while (top - 1 >= 0 && y - top < limit && diff(cell(g, x, top - 1), colour) <= SAME) top--;
  return top;
}

/**
 * The cut switch whose track is run `track` and whose knob run `knob` lies on `side` of it (+1: the knob
 * is right of the track, the switch is on), the row `y` being the screen's last whole grid row.
 */
function fitCapsule(g: Grid, y: number, track: Run, knob: Run, side: -1 | 1): ShapeCut | null {
  const tw = track.x1 - track.x0;
  if (tw < 4) return null;
  // The top edge of the track along its columns (the outer end first).
  const cols: number[] = [];
  for (let i = 0; i < tw; i++) cols.push(side === 1 ? track.x0 + i : track.x1 - 1 - i);
  const tops = cols.map((x) => topOf(g, x, y, track.colour, H_RANGE.max + 2));
  const t0 = Math.min(...tops);
  const shown = g.h - t0;
  const fits: { err: number; h: number; model: Model }[] = [];
  for (const model of MODELS)
    for (let h = Math.max(H_RANGE.min, shown - 1); h <= H_RANGE.max; h++) {
      if (shown < MIN_SHOWN * h) break;
      const r = h / 2;
      // The run's outer end is where the capsule's outline crosses the row: that far in from its end.
      const inset = r - halfChord(y + 0.5 - t0, r);
      let err = 0;
      let n = 0;
      // Only the part of the track well clear of the knob (its shadow and rim blur the edge).
      const usable = Math.min(tw, Math.round(h * (model.wide - model.knobW) - 4 - inset));
      for (let i = 0; i < usable; i++) {
        const want = t0 + capDrop(i + 0.5 + inset, r);
        err += Math.min(4, Math.abs((tops[i] ?? 0) - want));
        n++;
      }
      if (n >= 4 && err / n <= FIT_MAE) fits.push({ err: err / n, h, model });
    }
  // The profile alone hardly tells the two models apart: the knob decides, best fit first.
  fits.sort((a, b) => a.err - b.err);
  for (const { h, model } of fits) {
    const c = placed(g, y, t0, track, knob, side, h, model);
    if (c) return c;
  }
  return null;
}

/** The cut switch of height h and shape `model` whose track's top is row t0, if its knob and background fit. */
function placed(
  g: Grid,
  y: number,
  t0: number,
  track: Run,
  knob: Run,
  side: -1 | 1,
  h: number,
  model: Model,
): ShapeCut | null {
  const r = h / 2;
  const outer =
    side === 1 ? track.x0 - (r - halfChord(y + 0.5 - t0, r)) : track.x1 + (r - halfChord(y + 0.5 - t0, r));
  const w = model.wide * h;
  const x0 = Math.round(side === 1 ? outer : outer - w);
  const x1 = Math.round(side === 1 ? outer + w : outer);
  if (x0 < 0 || x1 > g.w) return null;
  // The knob: inset (h − knob height)/2 from the track's edges, its track-side edge at row y where its
  // round (or pill) outline crosses the row.
  const kh = model.knobH * h;
  const kw = model.knobW * h;
  const kInset = (h - kh) / 2;
  const kr = kh / 2;
  const kDepth = y + 0.5 - (t0 + kInset);
  if (kDepth <= 1) return null;
  // A row above the last is read only for a switch cut low, and there only near the capsule's middle,
  // where the knob and the track are widest (a row near the top of a switch cut high is the last row's job).
  if (y < g.h - 2 && y + 0.5 - t0 < MID_ROW * h) return null;
  const kFar = side === 1 ? x1 - kInset : x0 + kInset; // the knob's end away from the track
  const kNear = kFar - side * (kw - kr + halfChord(kDepth, kr));
  const near = side === 1 ? knob.x0 : knob.x1;
  if (Math.abs(near - kNear) > KNOB_SLACK) return null;
  // …and the white reaches at least its far edge (it may run on into a white cell): a letter's stroke
  // on a capsule button is narrower than a knob.
  const farRow = kFar - side * (kr - halfChord(kDepth, kr));
  if (side === 1 ? knob.x1 < farRow - KNOB_SLACK : knob.x0 > farRow + KNOB_SLACK) return null;
  // The knob's top sits inside the track: its top row `kInset` under the track's.
  const kx = Math.round(kFar - side * (kw / 2));
  if (kx < 0 || kx >= g.w || !isKnob(cell(g, kx, y)) || diff(cell(g, kx, y), track.colour) <= SAME)
    return null;
  const k0 = topOf(g, kx, y, cell(g, kx, y), H_RANGE.max + 2);
  if (k0 <= t0 || k0 - t0 > kInset + 2.5) return null;
  // Around the box (above it, and beside it on its last row) one flat background, not the track's colour.
  const pts: [number, number][] = [
    [x0 - OUT, y],
    [x1 - 1 + OUT, y],
  ];
  for (const f of [0.25, 0.5, 0.75]) pts.push([Math.floor(x0 + f * (x1 - x0)), t0 - OUT]);
  if (pts.some(([x, yy]) => x < 0 || x >= g.w || yy < 0)) return null;
  const cs = pts.map(([x, yy]) => cell(g, x, yy));
  const median = [0, 1, 2].map((c) => {
    const v = cs.map((p) => p[c] ?? 0).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)] ?? 0;
  });
  if (cs.some((p) => diff(p, median) > FLAT)) return null;
  if (diff(median, track.colour) <= SAME) return null;
  return { box: [x0, t0, x1, g.h], on: side === 1 };
}

/**
 * Switches cut by the screen's bottom edge, from their shape alone (see the file's comment). `taken`:
 * the boxes of switches already found, which a cut one may not overlap.
 */
export function findShapeCutSwitches(
  g: Grid,
  taken: readonly (readonly [number, number, number, number])[],
): ShapeCut[] {
  const out: ShapeCut[] = [];
  for (let d = 0; d <= ROWS_UP; d += ROW_STEP) scanRow(g, g.h - 2 - d, taken, out);
  return out;
}

/** The cut switches whose knob and track cross row `y`, added to `out`. */
function scanRow(
  g: Grid,
  y: number,
  taken: readonly (readonly [number, number, number, number])[],
  out: ShapeCut[],
): void {
  const rs = runs(g, y);
  for (let k = 0; k < rs.length; k++) {
    const knob = rs[k];
    if (!knob || !isKnob(knob.colour)) continue;
    for (const side of [1, -1] as const) {
      // The track is the run on the knob's other side (on: left of the knob), a few cells away at most.
      const track = rs[k - side];
      if (!track || (side === 1 ? knob.x0 - track.x1 : track.x0 - knob.x1) > 3) continue;
      // The knob is the brighter: an off track (#E9E9EA) is near-white too, and its run is already apart
      // from the knob's by more than `SAME` (the knob's shadow greys its lower part a little).
      if (brightness(track.colour) > brightness(knob.colour) - KNOB_LIGHTER) continue;
      // A pale "knob" beside a pale "track" is an off track beside the knob's shadow (iOS 26's pill knob
      // casts a grey band at its side): a knob that is not white goes only with a dark or tinted track.
      if (brightness(knob.colour) < KNOB_WHITE && brightness(track.colour) >= PALE_TRACK) continue;
      const c = fitCapsule(g, y, track, knob, side);
      if (!c) continue;
      const clash = (b: readonly [number, number, number, number]) =>
        b[0] < c.box[2] && c.box[0] < b[2] && b[1] < c.box[3] && c.box[1] < b[3];
      if (taken.some(clash) || out.some((o) => clash(o.box))) continue;
      out.push(c);
    }
  }
}
