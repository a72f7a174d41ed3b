import type { RgbImage } from "../shared/image.js";
import { luma } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * A row of equal outlined buttons, split. A toolbar of bordered buttons (UIButton.Configuration
 * `.bordered`/outlined, or a widget's row of actions) repeats one rounded rectangle at one pitch; the
 * detector often boxes two or three of them as one wide icon, which then spans several targets. The
 * buttons' outlines are found in the pixels: across the icon's band, a column where the middle half of
 * a window a third of the band high is all edge (the straight side of a rounded rectangle, between its
 * corners), a stroke at most 4 pt wide, is a button's side. Each box must be closed by such a thin
 * stroke above and below its middle, background on both sides of it (text stems at a pitch, or a filled
 * pill's edge, are not), and be 24 pt tall. Sides taken in pairs give boxes; three or more boxes of
 * one width at one pitch, at least 30 pt wide (HIG: 44 pt targets), are the buttons. The wide icon rows
 * on them give way to one icon row per button.
 */

/** Points across a portrait iPhone screen. */
const SCREEN_PT = 390;
/** A wide icon: at least this many times as wide as tall (in points). */
const WIDE = 1.6;
/** A side column: this share of the band's middle half is edge. */
const SIDE_SHARE = 0.9;
/** An outline's stroke is at most this many points wide (with anti-aliasing). */
const STROKE_PT = 4;
/** Luma step from the band's median that marks an edge pixel. */
const EDGE_STEP = 30;
/** Boxes of one row: widths and pitches within this share of each other. */
const SAME = 0.05;
const MIN_BUTTONS = 3;
const MIN_BUTTON_PT = 30;
/** A bordered button's least height in points (HIG: 44 pt targets; bordered buttons are drawn ≥ 28 pt). */
const MIN_BUTTON_HEIGHT_PT = 24;

/** The rows with wide icons over a row of equal outlined buttons replaced by one icon per button. */
export function splitOutlinedButtons(
  screen: RgbImage,
  rows: readonly Candidate[],
  aspect: number,
): Candidate[] {
  let out = [...rows];
  for (const wide of rows) {
    if (wide.kind !== "icon" || !out.includes(wide)) continue;
    if (boxWidth(wide.box) * SCREEN_PT < WIDE * boxHeight(wide.box) * aspect * SCREEN_PT) continue;
    const buttons = outlinedRow(screen, wide.box, aspect);
    if (!buttons) continue;
    const [left, right] = [buttons[0]?.[0] ?? 0, buttons[buttons.length - 1]?.[2] ?? 0];
    const top = Math.min(...buttons.map((b) => b[1]));
    const bottom = Math.max(...buttons.map((b) => b[3]));
    const on = (r: Candidate): boolean =>
      r.kind === "icon" &&
      centreX(r.box) > left &&
      centreX(r.box) < right &&
      centreY(r.box) > top &&
      centreY(r.box) < bottom;
    out = [
      ...out.filter((r) => !on(r)),
      ...buttons.map((box): Candidate => ({ kind: "icon", label: "", box, conf: wide.conf })),
    ];
  }
  return out;
}

/**
 * The boxes of three or more equal outlined buttons in `box`'s band, left to right, or undefined. The
 * detector's box may reach past the buttons' tops or bottoms, so windows a third of its height are tried
 * from its middle outwards.
 */
function outlinedRow(
  screen: RgbImage,
  box: Candidate["box"],
  aspect: number,
): Candidate["box"][] | undefined {
  const W = screen.width;
  const h = Math.round((box[3] - box[1]) * screen.height);
  if (boxHeight(box) * aspect * SCREEN_PT < MIN_BUTTON_HEIGHT_PT) return undefined;
  // The band's luma, read once, with a quarter of the box's height above and below for the outlines'
  // tops and bottoms.
  const pad = Math.round(h / 4);
  const y0 = Math.max(0, Math.round(box[1] * screen.height) - pad);
  const n = Math.min(screen.height, y0 + h + 2 * pad) - y0;
  const lum = new Float32Array(W * n);
  for (let k = 0; k < n; k++)
    for (let x = 0; x < W; x++) lum[k * W + x] = luma(screen.data, ((y0 + k) * W + x) * 3);
  const top = Math.round(box[1] * screen.height) - y0;
  for (const f of WINDOWS) {
    const m0 = top + Math.round(f * h);
    const { sides, median } = sideColumns(lum, W, m0, m0 + Math.round(h / 3));
    const found = equalBoxes(sides, W, centreX(box) * W);
    if (!found) continue;
    const spans = found.map(([l, r]) => closed(lum, W, n, median, l, r));
    if (!spans.every((span) => span !== undefined)) continue;
    // Each box runs from its outline's top to its bottom, not the detector's: a wide box often takes in
    // the caption under the row (a widget's "Updated …" line), which the split buttons must not cover.
    return found.map(([l, r], i) => {
      const [t, b] = spans[i] ?? [0, 0];
      return [l / W, (y0 + t) / screen.height, r / W, (y0 + b + 1) / screen.height];
    });
  }
  return undefined;
}

/**
 * The band rows of the box's outline top and bottom when the box between sides `l` and `r` is closed
 * above and below: some band row in its upper half and one in its lower half are edge along `SIDE_SHARE`
 * of the middle 60% of its width (the outline's top and bottom, clear of the rounded corners) — what text
 * stems standing at one pitch do not have. Undefined when it is not closed.
 */
function closed(
  lum: Float32Array,
  W: number,
  n: number,
  median: number,
  l: number,
  r: number,
): [number, number] | undefined {
  const x0 = Math.round(l + 0.2 * (r - l));
  const x1 = Math.round(r - 0.2 * (r - l));
  const shares = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let edge = 0;
    for (let x = x0; x < x1; x++) if (Math.abs((lum[k * W + x] ?? 0) - median) > EDGE_STEP) edge++;
    shares[k] = edge / Math.max(1, x1 - x0);
  }
  const share = (k: number): number => (k < 0 || k >= n ? 1 : (shares[k] ?? 1));
  // An outline's top or bottom is a thin stroke: background a stroke's width above and below it.
  const s = Math.max(2, Math.round((STROKE_PT / SCREEN_PT) * W));
  let upper = -1;
  let lower = -1;
  for (let k = 0; k < n; k++) {
    if (share(k) < SIDE_SHARE || share(k - s) > 0.5 || share(k + s) > 0.5) continue;
    if (k < n / 2) upper = upper < 0 ? k : upper;
    else lower = k;
  }
  return upper >= 0 && lower >= 0 ? [upper, lower] : undefined;
}

/** Where the windows (a third of the box's height) start, as fractions of it: the middle first. */
const WINDOWS = [1 / 3, 1 / 4, 5 / 12, 1 / 6, 1 / 2];

/** The x of every column (run of columns) of band rows `m0`–`m1` that is edge over `SIDE_SHARE` of them. */
function sideColumns(
  lum: Float32Array,
  W: number,
  m0: number,
  m1: number,
): { sides: number[]; median: number } {
  const histogram = new Array<number>(256).fill(0);
  for (let i = m0 * W; i < m1 * W; i++) {
    const v = Math.min(255, Math.floor(lum[i] ?? 0));
    histogram[v] = (histogram[v] ?? 0) + 1;
  }
  let median = 0;
  for (let seen = 0; median < 255; median++) {
    seen += histogram[median] ?? 0;
    if (seen >= ((m1 - m0) * W) / 2) break;
  }
  const rowsN = m1 - m0;
  const maxRun = Math.max(2, Math.round((STROKE_PT / SCREEN_PT) * W));
  // Edge pixels counted per column, walking the band row by row (memory order).
  const edges = new Uint16Array(W);
  for (let k = m0; k < m1; k++) {
    const row = k * W;
    for (let x = 0; x < W; x++)
      if (Math.abs((lum[row + x] ?? 0) - median) > EDGE_STEP) edges[x] = (edges[x] ?? 0) + 1;
  }
  const sides: number[] = [];
  let run = -1;
  for (let x = 0; x <= W; x++) {
    const side = x < W && (edges[x] ?? 0) >= SIDE_SHARE * rowsN;
    if (side && run < 0) run = x;
    if (!side && run >= 0) {
      if (x - run <= maxRun) sides.push((run + x - 1) / 2); // an outline's side is a thin stroke
      run = -1;
    }
  }
  return { sides, median };
}

/**
 * The longest run (three or more) of boxes of one width at one pitch between `sides` (pixels) that takes
 * in pixel column `x`, or undefined.
 */
function equalBoxes(sides: readonly number[], W: number, x: number): [number, number][] | undefined {
  const minW = (MIN_BUTTON_PT / SCREEN_PT) * W;
  let best: [number, number][] | undefined;
  for (let i = 0; i < sides.length; i++) {
    for (let j = i + 1; j < sides.length; j++) {
      const a = sides[i] ?? 0;
      const w = (sides[j] ?? 0) - a;
      if (w < minW) continue;
      const found = chain(sides, j, a, w);
      const end = found[found.length - 1]?.[1] ?? 0;
      if (found.length < MIN_BUTTONS || a > x || end < x) continue;
      if (!best || found.length > best.length) best = found;
    }
  }
  return best;
}

/** Buttons of width `w` from the side at `a` (its right side is `sides[j]`), at one pitch, as far as they go. */
function chain(sides: readonly number[], j: number, a: number, w: number): [number, number][] {
  const out: [number, number][] = [[a, a + w]];
  let pitch = 0;
  let k = j + 1;
  while (k < sides.length) {
    const last = out[out.length - 1] as [number, number];
    const next = sides.findIndex((s, n) => n >= k && Math.abs(s - last[1]) > 0 && s > last[1]);
    if (next < 0) break;
    const l = sides[next] ?? 0;
    const r = sides.find((s) => Math.abs(s - (l + w)) <= SAME * w);
    if (r === undefined) break;
    const p = l - last[0];
    if (pitch > 0 && Math.abs(p - pitch) > SAME * pitch) break;
    if (pitch === 0 && l - last[1] > w) break; // the gap between buttons is less than a button
    pitch = p;
    out.push([l, r]);
    k = sides.indexOf(r) + 1;
  }
  return out;
}
