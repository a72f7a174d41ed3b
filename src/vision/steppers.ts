import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { type Candidate, centreX, centreY, contains } from "./row.js";
import { smoothGrid } from "./smooth-grid.js";
import { brightness, cell, cellBrightness, cellDiff, diff, type Grid, SAME } from "./switches-grid.js";

/**
 * Steppers (UIStepper and look-alikes) found in the pixels: one control, two buttons, `−` left and `+`
 * right. UIKit's metrics (UIStepper's intrinsic size; HIG "Steppers"):
 *
 * - 94 × 32 pt (iOS 13+; 94 × 29 pt through iOS 12), split in two 47 pt halves by a 1 pt divider; a
 *   `−` centred in the left half, a `+` centred in the right, both the same width (~14 pt, SF Symbols
 *   `minus` / `plus` at the body size) and drawn in the tint colour (iOS 7–12) or the label colour
 *   (iOS 13+).
 * - iOS 13+ fills the rounded rect with `tertiarySystemFill` (light ≈ #EFEFF0 on white, dark a grey
 *   a little lighter than the cell) and draws a short grey divider; iOS 7–12 draws a 1 pt tint outline
 *   and a full-height tint divider on the cell's own colour.
 * - UIStepper disables the half whose limit is reached (`minimumValue` 0 is the default and so is
 *   `value`): that glyph is drawn dimmed. A stepper at rest therefore often shows a faint `−` — the
 *   glyph proposer's contrast floor (70) drops it, and the control loses its decrement button.
 *
 * So, on a grid of about one cell per point (`switches-grid.ts`): a thin horizontal bar (the `−`) and,
 * 40–60 cells to its right on the same grid row, a bar of the same width whose centre column carries a
 * vertical stroke as tall as the bar is wide (the `+`), the `−` with none; between them one colour
 * (the body) with a divider at the midpoint; and the body ending, left and right, half a pitch from the
 * glyphs' centres (the fill's edge or the outline). One glyph may be dim (≥ `DIM_INK`), the other must
 * stand out (≥ `FULL_INK`). Each half becomes `[button] "minus"` / `[button] "plus"` (the symbols'
 * names, as icon-only buttons are named here), and the icon, button and one-character text rows on the
 * stepper (the detector's boxes, the glyph proposer's `+`, an OCR `-`) give way to them.
 */

/** A glyph bar's width in cells: SF Symbols' minus/plus at 14–17 pt are 11–16 pt wide; slack for blur. */
const BAR = { min: 8, max: 20 };
/** The two glyphs' widths agree within this many cells (the same symbol size). */
const BAR_AGREE = 4;
/** Glyph centre to glyph centre, in cells: 47 pt halves on 320–430 pt screens (a 390-cell grid). */
const PITCH = { min: 38, max: 60 };
/** Rows above and below a bar's centre read as its background (the bar is ≤ 3 pt thick; the body ≥ 29). */
const PROBE = 4;
/** The divider's brightness step from the body. */
const DIVIDER = 4;
/** A glyph's footprint reaches this many cells past its stroke (anti-aliasing, a camera's blur). */
const FOOT = 2;
/** Share of a half's other cells that may stand out from the body (sensor noise). */
const CLEAN_SHARE = 0.03;
/** A glyph cell's contrast with its background: a dimmed (disabled) half's glyph, and a live one. */
const DIM_INK = 18;
const FULL_INK = 50;
/** Gaps inside one bar (the `+`'s stem breaks its bar's above/below test), in cells. */
const BAR_GAP = 5;
/** The divider and the body's edges differ from the body by at least this (a faint grey hairline). */
const EDGE = 8;
/** Where the body's edge may lie around half a pitch from a glyph's centre, in cells. */
const EDGE_SLACK = 6;
/** The control's height as a share of the pitch when its edge cannot be measured: 32 / 47. */
const HEIGHT_SHARE = 32 / 47;

interface Bar {
  y: number;
  x0: number;
  /** Exclusive. */
  x1: number;
  /** Mean contrast of its cells with the rows above and below. */
  ink: number;
}

/** A cell's contrast with the cells `PROBE` rows above and below, when those two agree (else 0). */
function barInk(g: Grid, x: number, y: number): number {
  if (y < PROBE || y + PROBE >= g.h) return 0;
  const up = cell(g, x, y - PROBE);
  const down = cell(g, x, y + PROBE);
  if (diff(up, down) > SAME) return 0;
  return Math.min(cellDiff(g, x, y, up), cellDiff(g, x, y, down));
}

/** Thin horizontal bars on grid row `y`, glyph-sized. */
function barsOnRow(g: Grid, y: number): Bar[] {
  const out: Bar[] = [];
  let x0 = -1;
  let last = -1;
  let sum = 0;
  let n = 0;
  const close = (): void => {
    const x1 = last + 1;
    if (x0 >= 0 && x1 - x0 >= BAR.min && x1 - x0 <= BAR.max) out.push({ y, x0, x1, ink: sum / n });
    x0 = -1;
    sum = 0;
    n = 0;
  };
  for (let x = 0; x < g.w; x++) {
    const ink = barInk(g, x, y);
    if (ink < DIM_INK) continue;
    if (x0 >= 0 && x - last > BAR_GAP) close();
    if (x0 < 0) x0 = x;
    last = x;
    sum += ink;
    n++;
  }
  close();
  return out;
}

/** Whether the column through a bar's centre has a stroke `PROBE`–`reach` rows above and below it. */
function hasStem(g: Grid, b: Bar, body: readonly number[]): boolean {
  const cx = Math.round((b.x0 + b.x1 - 1) / 2);
  const reach = Math.floor((b.x1 - b.x0) / 2) - 1;
  let hits = 0;
  let probes = 0;
  for (let dy = 2; dy <= reach; dy++)
    for (const y of [b.y - dy, b.y + dy]) {
      if (y < 0 || y >= g.h) continue;
      probes++;
      let best = 0;
      for (let dx = -1; dx <= 1; dx++) best = Math.max(best, cellDiff(g, cx + dx, y, body));
      if (best >= DIM_INK) hits++;
    }
  return probes > 0 && hits >= 0.7 * probes;
}

/**
 * Whether a divider stands out from the body at column `x` (±2) on rows y ± 3, by brightness: iOS 13's
 * is a faint grey hairline on the fill (5 levels once a small screenshot's pixel is spread over cells).
 */
function hasDivider(g: Grid, x: number, y: number, body: readonly number[]): boolean {
  const level = brightness(body);
  for (let dx = -2; dx <= 2; dx++) {
    let hits = 0;
    for (let dy = -3; dy <= 3; dy++)
      if (Math.abs(cellBrightness(g, x + dx, y + dy) - level) >= DIVIDER) hits++;
    if (hits >= 5) return true;
  }
  return false;
}

/**
 * Whether one half holds nothing but its glyph: every cell of [x0, x1) × [y0, y1) off the glyph's
 * footprint (its bar, and for `+` its stem, each with a cell or two of blur) keeps the body's
 * brightness, bar a few (noise). A key cap's letter (`f` has a crossbar on a stem) or a label is not a
 * stepper half.
 */
function cleanHalf(
  g: Grid,
  box: readonly [number, number, number, number],
  bar: Bar,
  stem: boolean,
  body: readonly number[],
): boolean {
  const level = brightness(body);
  const cx = (bar.x0 + bar.x1 - 1) / 2;
  let foreign = 0;
  let n = 0;
  for (let y = box[1]; y < box[3]; y++)
    for (let x = box[0]; x < box[2]; x++) {
      const onBar = Math.abs(y - bar.y) <= FOOT && x >= bar.x0 - FOOT && x < bar.x1 + FOOT;
      const onStem = stem && Math.abs(x - cx) <= FOOT + 0.5;
      if (onBar || onStem) continue;
      n++;
      if (Math.abs(cellBrightness(g, x, y) - level) >= DIM_INK) foreign++;
    }
  return n > 0 && foreign <= CLEAN_SHARE * n;
}

/**
 * Where, walking from `from` by `step`, row `y` first leaves the body's brightness (a fill's edge, or an
 * outline's 1 pt line); -1 when that is not within `EDGE_SLACK` of `expect`.
 */
function edgeAt(
  g: Grid,
  from: number,
  step: number,
  y: number,
  body: readonly number[],
  expect: number,
): number {
  // Brightness, not the largest channel: a camera's colour noise moves one channel by more than EDGE.
  const level = brightness(body);
  const off = (x: number): boolean => x >= 0 && x < g.w && Math.abs(cellBrightness(g, x, y) - level) >= EDGE;
  for (let x = from; x >= 0 && x < g.w; x += step) {
    if (off(x)) return Math.abs(x - expect) <= EDGE_SLACK ? x : -1;
    if ((x - expect) * step > EDGE_SLACK) return -1;
  }
  return -1;
}

/** How far the body colour runs up and down column `x` from row `y`: [top, bottom). */
function bodyRows(g: Grid, x: number, y: number, body: readonly number[]): [number, number] {
  let top = y;
  while (top > 0 && cellDiff(g, x, top - 1, body) < EDGE) top--;
  let bottom = y + 1;
  while (bottom < g.h && cellDiff(g, x, bottom, body) < EDGE) bottom++;
  return [top, bottom];
}

export interface FoundStepper {
  /** The whole control, and its two halves (where a tap decrements / increments). */
  box: FracBox;
  minus: FracBox;
  plus: FracBox;
}

/** The `−` bar `a` and `+` bar `b` as a stepper, or undefined when the pixels between and round them are not one. */
function stepperOf(g: Grid, a: Bar, b: Bar): FoundStepper | undefined {
  const wa = a.x1 - a.x0;
  const wb = b.x1 - b.x0;
  if (Math.abs(wa - wb) > BAR_AGREE) return undefined;
  if (Math.max(a.ink, b.ink) < FULL_INK) return undefined;
  const ca = (a.x0 + a.x1) / 2;
  const cb = (b.x0 + b.x1) / 2;
  const pitch = cb - ca;
  if (pitch < PITCH.min || pitch > PITCH.max) return undefined;
  const y = a.y;
  const mid = Math.round((ca + cb) / 2);
  // The body: one colour from each glyph's inner end to the divider.
  const left = cell(g, Math.round((a.x1 + mid) / 2), y);
  const right = cell(g, Math.round((mid + b.x0) / 2), y);
  if (diff(left, right) > SAME) return undefined;
  if (!hasStem(g, b, left) || hasStem(g, a, left)) return undefined;
  if (!hasDivider(g, mid, y, left)) return undefined;
  const half = pitch / 2;
  // Each edge against the body just outside its glyph: a camera's shading drifts across the control.
  const x0 = edgeAt(g, a.x0 - 3, -1, y, cell(g, a.x0 - 3, y), Math.round(ca - half));
  const x1 = edgeAt(g, b.x1 + 2, 1, y, cell(g, b.x1 + 2, y), Math.round(cb + half));
  if (x0 < 0 || x1 < 0) return undefined;
  // Each half, inside its edge and the divider, over the glyph's height and a cell more: the glyph alone.
  const reach = Math.ceil(Math.max(wa, wb) / 2) + 1;
  const rows = [Math.max(0, y - reach), Math.min(g.h, y + reach + 1)] as const;
  if (!cleanHalf(g, [x0 + 4, rows[0], mid - 3, rows[1]], a, false, left)) return undefined;
  if (!cleanHalf(g, [mid + 4, rows[0], x1 - 3, rows[1]], b, true, right)) return undefined;
  const [top, bottom] = bodyRows(g, Math.round((a.x1 + mid) / 2), y, left);
  const tall = bottom - top;
  const expect = HEIGHT_SHARE * pitch;
  const [y0, y1] =
    tall >= 0.6 * expect && tall <= 1.3 * expect ? [top, bottom] : [y - expect / 2, y + expect / 2];
  const fx = (x: number): number => x / g.w;
  const fy = (v: number): number => v / g.h;
  return {
    box: [fx(x0), fy(y0), fx(x1 + 1), fy(y1)],
    minus: [fx(x0), fy(y0), fx(mid), fy(y1)],
    plus: [fx(mid), fy(y0), fx(x1 + 1), fy(y1)],
  };
}

/**
 * Every stepper on the screen (see the module comment), read on `g`: the 3 × 3-pixel mean per cell (a
 * camera's sensor noise alone moves one pixel by about `SAME`), which the slider finder reads too.
 */
export function findSteppers(screen: RgbImage, g: Grid = smoothGrid(screen)): FoundStepper[] {
  const found: FoundStepper[] = [];
  for (let y = PROBE; y < g.h - PROBE; y++) {
    const bars = barsOnRow(g, y);
    if (bars.length < 2) continue;
    for (const a of bars)
      for (const b of bars) {
        if (b.x0 <= a.x1) continue;
        const s = stepperOf(g, a, b);
        if (!s) continue;
        // One stepper is found on each grid row its bars cross: keep the first.
        if (found.some((f) => contains(f.box, centreX(s.box), centreY(s.box)))) continue;
        found.push(s);
      }
  }
  return found;
}

/** A one-character read of a stepper's glyph: `-`, `−`, `—`, `+`, `十`. */
const GLYPH_READ = /^[-−–—+＋十一]$/;

/**
 * The rows with each stepper's two halves as `[button] "minus"` and `[button] "plus"`; the icon and
 * button rows centred on a stepper and the one-character reads of its glyphs are dropped.
 */
export function applySteppers(
  screen: RgbImage,
  rows: readonly Candidate[],
  grid: Grid = smoothGrid(screen),
): Candidate[] {
  const steppers = findSteppers(screen, grid);
  if (steppers.length === 0) return [...rows];
  const on = (r: Candidate): boolean =>
    steppers.some((s) => contains(s.box, centreX(r.box), centreY(r.box))) &&
    (r.kind === "icon" || r.kind === "button" || (r.kind === "text" && GLYPH_READ.test(r.label.trim())));
  const added = steppers.flatMap((s): Candidate[] => [
    { kind: "button", label: "minus", box: s.minus, conf: 0.8 },
    { kind: "button", label: "plus", box: s.plus, conf: 0.8 },
  ]);
  return [...rows.filter((r) => !on(r)), ...added];
}
