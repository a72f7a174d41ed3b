import { brightness, cell, cellBrightness, diff, type Grid, SAME } from "./switches-grid.js";

/**
 * The ends of a slider's track (`sliders.ts`), in grid cells of about one point:
 *
 * - A white thumb at the track's very end (UISlider at value 0 or 1: `thumbRectForBounds` centres the
 *   28 pt thumb on the track's end point, so it hides that end). On a white cell the thumb is the
 *   background inside; only its shadow shows — a rim on the far side and, heavier, below it (UIKit draws
 *   the shadow offset ~3 pt down, as UISwitch's knob), the top rim faint or missing.
 * - A knob whose far side the bar finder did not take as track (a dark-mode grey track only ~30 levels
 *   off its cell, a 1 pt track crossed by ticks): the line goes on past the knob, so the knob is not at
 *   an end and the track runs to where that line stops.
 */

/** A white thumb's width in cells: UIKit's 28 pt thumb on 320–430 pt screens with its shadow's blur. */
const THUMB = { min: 22, max: 36 };
/**
 * A cell darker than the background by more than this (mean of the channels) is the thumb's shadow: a
 * white-on-white thumb's far rim measured 15–26 levels on a screenshot's grid and ~20 filmed, its bottom
 * shadow ~26 (filmed ~30), its top rim ~7 (not needed); camera noise after `smoothGrid`'s 3 × 3 mean is
 * ~±5 a channel.
 */
const RIM = 9;
/** A rim is a few cells wide (anti-aliasing and the shadow's blur); longer is a stroke or a glyph. */
const RIM_WIDE = 5;

export interface EndKnob {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

/**
 * A white thumb right past a track's end at column `x` (the first cell off the track), stepping `dir`,
 * on grid row `cy` over background `bg`: a near rim of at most `RIM_WIDE` cells, a thumb-wide span of
 * background, a far rim, background again; and down the thumb's middle column background until a
 * shadow rim at about the thumb's radius (above: that rim or nothing). Undefined when not that shape.
 */
export function hollowEndThumb(
  g: Grid,
  cy: number,
  bg: readonly number[],
  x: number,
  dir: 1 | -1,
): EndKnob | undefined {
  const inside = (xx: number, yy: number): boolean => xx >= 0 && xx < g.w && yy >= 0 && yy < g.h;
  const ink = (xx: number, yy: number): boolean => shadowAt(g, xx, yy, bg);
  let e = x;
  for (let i = 0; i < RIM_WIDE && inside(e, cy) && ink(e, cy); i++) e += dir;
  let n = 0;
  while (inside(e, cy) && !ink(e, cy) && n <= THUMB.max) {
    e += dir;
    n++;
  }
  if (!inside(e, cy) || n > THUMB.max) return undefined;
  let rim = 0;
  while (rim < RIM_WIDE && ink(e, cy)) {
    e += dir;
    rim++;
  }
  // The far rim, then background (a label may follow a few points on: ResearchKit's range label).
  if (rim === 0 || rim >= RIM_WIDE || !inside(e, cy) || ink(e, cy)) return undefined;
  const d = Math.abs(e - x);
  if (d < THUMB.min || d > THUMB.max) return undefined;
  if (!thumbShadow(g, cy, bg, x + dir * Math.floor(d / 2), d / 2)) return undefined;
  const [x0, x1] = dir === 1 ? [x, e] : [e + 1, x + 1];
  return { x0, x1, top: Math.round(cy - d / 2), bottom: Math.round(cy + d / 2) };
}

/** `bg` less bright than a cell by more than `RIM`: a shadow (a neutral darkening; the mean of the
 * channels, not the largest channel's difference, so a camera's colour noise counts a third as much). */
function shadowAt(g: Grid, xx: number, yy: number, bg: readonly number[]): boolean {
  return xx >= 0 && xx < g.w && yy >= 0 && yy < g.h && brightness(bg) - cellBrightness(g, xx, yy) > RIM;
}

/**
 * Whether column `cx` down from row `cy` is a white thumb of radius `r` on background `bg`: the
 * background until a shadow rim at about `r` below; above, a rim at about `r` or none within reach
 * (UIKit offsets the shadow down); the interior clear a quarter of the way out on either side (no glyph
 * inside a ring), the track's row `cy` aside.
 */
export function thumbShadow(g: Grid, cy: number, bg: readonly number[], cx: number, r: number): boolean {
  const rimAt = (step: 1 | -1): number => {
    let k = 1;
    while (k <= r + 4 && cy + step * k >= 0 && cy + step * k < g.h && !shadowAt(g, cx, cy + step * k, bg))
      k++;
    return k;
  };
  const slack = Math.max(3, 0.2 * r);
  const down = rimAt(1);
  const up = rimAt(-1);
  if (Math.abs(down - r) > slack || (up <= r + 4 && Math.abs(up - r) > slack)) return false;
  const q = Math.floor(r / 2);
  for (const qx of [cx - q, cx + q])
    for (let yy = cy - q; yy <= cy + q; yy++)
      if (Math.abs(yy - cy) > 1 && shadowAt(g, qx, yy, bg)) return false;
  return true;
}

/** Background cells in a row that end a line (a tick's or a rounded end's blend is shorter). */
const LINE_GAP = 3;

/**
 * Where a thin line on row `cy` that starts within `LINE_GAP` cells of `x` ends, stepping `dir` (the
 * first background cell of `LINE_GAP` in a row); undefined when no line starts there, or it is not thin
 * (rows `reach` above and below it are not background: a label, a shape). A knob's far side that the
 * bar finder missed.
 */
export function lineOnward(
  g: Grid,
  cy: number,
  bg: readonly number[],
  x: number,
  dir: 1 | -1,
  reach: number,
): number | undefined {
  const on = (xx: number): boolean => diff(cell(g, xx, cy), bg) > SAME;
  let e = x;
  let gap = 0;
  while (e >= 0 && e < g.w && !on(e) && gap < LINE_GAP) {
    e += dir;
    gap++;
  }
  if (e < 0 || e >= g.w || !on(e)) return undefined;
  let len = 0;
  let thin = 0;
  let n = 0;
  gap = 0;
  for (; e >= 0 && e < g.w && gap < LINE_GAP; e += dir) {
    if (!on(e)) {
      gap++;
      continue;
    }
    gap = 0;
    len++;
    if (len % 4 === 0 && cy - reach >= 0 && cy + reach < g.h) {
      n++;
      if (diff(cell(g, e, cy - reach), bg) <= SAME && diff(cell(g, e, cy + reach), bg) <= SAME) thin++;
    }
  }
  if (len < 8 || thin < 0.8 * n) return undefined;
  return e - dir * gap;
}
