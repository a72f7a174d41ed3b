import { cell, cellDiff, diff, GRID_WIDTH, type Grid, meanGrid } from "./switches-grid.js";

/**
 * Disabled switches. A `UISwitch` with `isEnabled = false` "draws itself with a dimmed appearance"
 * (UIKit, `UIControl.State.disabled`; SwiftUI's `.disabled()` the same): since iOS 13 the whole control
 * — track, knob and the knob's shadow — is composited at about half opacity over its cell. So with the
 * cell's colour B and α ≈ 0.5 every pixel of the switch reads c = α·s + (1 − α)·B, where s is what the
 * enabled switch would show:
 *
 * - light (B white): the off track #E9E9EA becomes #F4F4F4, 11 levels under the white knob (the finder
 *   wants 16 to tell them apart); the on track #34C759 turns pastel (~#9AE3AC), still found as it is;
 * - dark (B #1C1C1E): the knob is mid grey (~#8D8D8E), not the near-white the finder asks of a knob, and
 *   the off track #39393D sinks to #2A2A2D, 14 levels over the cell.
 *
 * Undoing the blend, s = (c − (1 − α)·B) / α = 2c − B, turns a dimmed switch back into an enabled one,
 * which the ordinary scan (`switches.ts`) reads with all its shape checks: capsule, rounded end, round
 * knob bounded within the track, flat surroundings. B is taken from the screen: the commonest neutral
 * colours on its right half, where a table cell's switch sits (grouped and plain lists, sheets).
 */

/** α of a disabled control (UIKit draws it at about half opacity; 0.4–0.6 still undoes within tolerance). */
const DIMMED_ALPHA = 0.5;
/** A cell background is neutral grey (system cells: white, #F2F2F7, #1C1C1E, #2C2C2E, black). */
const NEUTRAL = 12;
/** A second background is tried when it covers at least this share of the sampled cells. */
const SECOND_SHARE = 0.12;
/** Backgrounds are counted on every this-many-th cell each way (a cell is ~1 pt; a list row is 44). */
const BG_STEP = 4;
/** Two backgrounds closer than this (largest channel difference) are one. */
const DISTINCT = 10;
/** A dimmed knob is white blended with B: within this of (255 + B) / 2 in every channel. */
const KNOB_TOL = 20;
/** Over a near-white cell the dimmed knob is as white as the cell: at most this much darker. */
const KNOB_UNDER_CELL = 8;
/** The cell beside a dimmed switch is its background B: within this (largest channel difference). */
const ON_CELL = 12;
/** In light mode the dimmed off track is #E9E9EA restored: within this of it after undimming. */
const OFF_TRACK_TOL = 18;
const OFF_TRACK = [233, 233, 234] as const;

/** The commonest neutral colours of the right half of the grid (up to two), as backgrounds B. */
function backgrounds(g: Grid): [number, number, number][] {
  const bins = new Uint32Array(1 << 15);
  // Each bin's colour sums, gathered in the same pass: a bin's mean is its cells' mean.
  const sums = new Uint32Array(3 << 15);
  let n = 0;
  for (let y = 0; y < g.h; y += BG_STEP)
    for (let x = g.w >> 1; x < g.w; x += BG_STEP) {
      const [r, gg, b] = cell(g, x, y);
      if (Math.max(r, gg, b) - Math.min(r, gg, b) > NEUTRAL) continue;
      const k = ((r >> 3) << 10) | ((gg >> 3) << 5) | (b >> 3);
      bins[k] = (bins[k] ?? 0) + 1;
      sums[3 * k] = (sums[3 * k] ?? 0) + r;
      sums[3 * k + 1] = (sums[3 * k + 1] ?? 0) + gg;
      sums[3 * k + 2] = (sums[3 * k + 2] ?? 0) + b;
      n++;
    }
  const order = [...bins.keys()]
    .filter((k) => (bins[k] ?? 0) > 0)
    .sort((a, b) => (bins[b] ?? 0) - (bins[a] ?? 0));
  const out: [number, number, number][] = [];
  for (const k of order.slice(0, 2)) {
    const m = bins[k] ?? 0;
    if (out.length > 0 && m < SECOND_SHARE * n) break;
    const bg = [0, 1, 2].map((c) => Math.round((sums[3 * k + c] ?? 0) / m)) as [number, number, number];
    if (!out.some((o) => diff(o, bg) < DISTINCT)) out.push(bg);
  }
  return out;
}

/**
 * Grid `g` with a half-opacity blend over each background undone: s = (c − (1 − α)·B) / α, read from the
 * mean of each cell's 3×3 neighbourhood. Undoing the blend doubles every difference, the camera's noise
 * too (±5 levels a cell on a flat white cell become ±10, enough to cut runs into knob-like pieces); the
 * mean divides that by three, and blurs a switch's edges by one cell (a point), well inside its shape
 * checks' tolerances.
 */
export function undimmedGrids(
  g: Grid,
  smooth: Grid = meanGrid(g),
): { grid: Grid; bg: [number, number, number] }[] {
  if (g.w !== GRID_WIDTH) return [];
  const { w, h } = g;
  const mean = smooth.rgb;
  return backgrounds(g).map((bg) => {
    // A cell's byte has 256 values: each channel's undimmed byte is computed once per value (the same
    // expression) and looked up, not recomputed for each of the grid's ~1M bytes.
    const undim = new Uint8Array(3 * 256);
    for (let c = 0; c < 3; c++)
      for (let m = 0; m < 256; m++)
        undim[c * 256 + m] = Math.max(
          0,
          Math.min(255, Math.round((m - (1 - DIMMED_ALPHA) * (bg[c] ?? 0)) / DIMMED_ALPHA)),
        );
    const rgb = new Uint8Array(g.rgb.length);
    for (let i = 0; i < rgb.length; i++) rgb[i] = undim[(i % 3) * 256 + (mean[i] ?? 0)] ?? 0;
    return { grid: { w, h, rgb }, bg };
  });
}

/**
 * Whether a switch found on the undimmed grid was drawn dimmed over `bg`, not an enabled switch the
 * plain scan missed: its knob (in the original grid `g`, at box `[x0, y0, x1, y1)` cells) is white
 * blended with the cell. Where the cell is itself near-white that says nothing, and the off track
 * must then undim to UIKit's #E9E9EA (an enabled off track would undim far darker).
 */
export function dimmedKnob(
  g: Grid,
  box: readonly [number, number, number, number],
  on: boolean,
  bg: readonly [number, number, number],
  undimmedTrack?: readonly number[],
): boolean {
  const [x0, y0, x1, y1] = box;
  const h = y1 - y0;
  const kx = Math.round(on ? x1 - h / 2 : x0 + h / 2);
  const ky = Math.floor((y0 + y1) / 2);
  // The blend undone was over B: the switch must sit on B, at both ends (a map's blocks and roads
  // undimmed over the page's colour are no cell).
  if (!sitsOnCell(g, box, bg)) return false;
  const knob = cell(g, Math.max(0, Math.min(g.w - 1, kx)), ky);
  const expect = bg.map((b) => DIMMED_ALPHA * 255 + (1 - DIMMED_ALPHA) * b);
  if (diff(knob, expect) > KNOB_TOL) return false;
  const light = Math.min(...bg) >= 255 - 2 * KNOB_TOL;
  if (light && Math.min(...knob.map((v, i) => v - (bg[i] ?? 0))) < -KNOB_UNDER_CELL) return false;
  if (light && !on && undimmedTrack) return diff(undimmedTrack, OFF_TRACK) <= OFF_TRACK_TOL;
  return true;
}

/**
 * Whether the cells a little beyond both ends of a switch (box `[x0, y0, x1, y1)` in cells of `g`, at
 * its middle row; a fifth of its height out, at least 3 cells) are the cell colour `bg`: the switch sits
 * on one flat cell, as a colour found by undoing a blend over `bg` must.
 */
export function sitsOnCell(
  g: Grid,
  box: readonly [number, number, number, number],
  bg: readonly [number, number, number],
): boolean {
  const [x0, y0, x1, y1] = box;
  const ky = Math.floor((y0 + y1) / 2);
  const o = Math.max(3, Math.round(0.2 * (y1 - y0)));
  for (const x of [x0 - o, x1 - 1 + o])
    if (x < 0 || x >= g.w || cellDiff(g, x, ky, bg) > ON_CELL) return false;
  return true;
}

/** A dimmed on track over a white cell: every channel at least half white (the tint's half plus ~128). */
const PASTEL_MIN = 120;
/** …and still tinted: a pale grey capsule is an off track, not a faded tint. */
const PASTEL_TINT = 30;

/**
 * Whether an on switch the plain scan found (a white knob beside a tinted track) is dimmed: over a
 * light cell its track is pastel, the tint half blended with white (#34C759 → ~#9AE3AC). UIKit's
 * tints are saturated (system green, blue, orange all have a channel under 100), so an enabled track
 * keeps a dark channel. `box` in grid cells, `colour` the track's.
 */
export function pastelOnTrack(
  g: Grid,
  box: readonly [number, number, number, number],
  colour: readonly number[],
): boolean {
  const [x0, y0, , y1] = box;
  const beside = cell(
    g,
    Math.max(0, x0 - Math.max(2, Math.round(0.2 * (y1 - y0)))),
    Math.floor((y0 + y1) / 2),
  );
  if (Math.min(...beside) < 255 - 2 * KNOB_TOL) return false;
  const lo = Math.min(colour[0] ?? 0, colour[1] ?? 0, colour[2] ?? 0);
  const hi = Math.max(colour[0] ?? 0, colour[1] ?? 0, colour[2] ?? 0);
  return lo >= PASTEL_MIN && hi - lo >= PASTEL_TINT;
}
