import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { type Candidate, centreX, centreY, contains } from "./row.js";
import { trimTrackCaps } from "./slider-caps.js";
import { hollowEndThumb, lineOnward, thumbShadow } from "./slider-ends.js";
import { type Bar, barRuns, flatBeside, TICK_CLEAR, trackEnd } from "./slider-runs.js";
import { smoothGrid } from "./smooth-grid.js";
import { cell, diff, type Grid, isKnob, SAME } from "./switches-grid.js";

/**
 * Sliders (UISlider and look-alikes) found in the pixels: a thin horizontal track with a knob on it.
 * The shape model, in grid cells of about one point (`switches-grid.ts`):
 *
 * - UIKit's `UISlider`: a 4 pt track (2 pt before iOS 13) with rounded ends, the part left of the knob
 *   in the tint (`minimumTrackTintColor`, system blue by default), the rest grey
 *   (`maximumTrackTintColor`); a 28 pt white round thumb with a soft shadow (HIG "Sliders"). Media
 *   scrubbers and custom sliders (React Native, Flutter) keep the shape with a smaller or coloured
 *   knob; iOS 26 draws a taller track and a pill-shaped glass knob.
 * - So: along one grid row, a track run 2–8 cells tall (the same background above and below it), a
 *   knob 1.8–10× the track's height centred on it (bounded above and below by that background), and on
 *   the knob's far side either more track at the same height or nothing (the knob at an end). A
 *   progress bar (no knob) and a hairline separator (1 cell) are not sliders.
 * - Through a camera (a denoised grid, `smoothGrid`; runs joined where the colour only drifted): a white
 *   thumb's faint shadow is lost, so a thumb-wide gap of background between the track's two colours on
 *   a long track is taken as the thumb.
 *
 * - A white thumb at the track's very end (value 0 or 1) is found by its shadow (`slider-ends.ts`); a
 *   line going on past a knob makes it a mid-track knob (its far side a track the bar test missed).
 * - Ticked tracks (ResearchKit's `ORKScaleSlider`: a 1 pt line with a 1 × 7 pt tick at each step):
 *   runs split by ticks are joined (`slider-runs.ts`), the height is read beside a tick, and a 1 pt line
 *   on whole points (one cell) is a track in full colour under a white thumb.
 *
 * Not covered: vertical sliders (Control Center's volume and brightness blocks, found as icons), a knob
 * without a visible track, ResearchKit's scale before a touch (no thumb drawn at all), 2 pt tracks
 * through a camera.
 */

export interface FoundSlider {
  /** The track from end to end, as tall as the knob: where a drag along it acts. */
  box: FracBox;
  /** The knob's centre along the track: 0 at the left end, 1 at the right end. */
  value: number;
}

/**
 * A white thumb seen only as a gap in the track, in cells: UIKit's 28 pt thumb on 320–430 pt screens
 * (1.2–0.9 cells a point), with its shadow's blur.
 */
const HOLLOW_THUMB = { min: 22, max: 36 };
/** …on a track this long at least (UIKit sliders span a table cell, ≥ 150 pt in Settings). */
const HOLLOW_TRACK = 120;
/** Track height in cells: 2 pt (iOS 7–12) to ~8 pt (custom and iOS 26 tracks); 1 in full colour (`asBar`). */
const TRACK_TALL = { min: 2, max: 8 };
/** Knob height in cells, and as a multiple of the track's: a 28 pt thumb on 4 pt; a 12 pt dot on 5 pt. */
const KNOB_TALL = { min: 8, max: 40, minRatio: 1.8 };
/** Knob width / height: round 1, an iOS 26 pill ~1.6; anti-aliasing adds a cell or two. */
const KNOB_WIDE = { min: 0.6, max: 1.8 };
/** The whole track: HIG sliders span a row's width; 70 cells (≈ 70 pt) excludes a stroke with a dot. */
const MIN_TRACK = 70;
/** Each side of a knob between two track runs is at least this long (the knob can sit near an end). */
const MIN_SIDE = 4;
/** A run at least this long may have a tick at a sampled point: ResearchKit's 10-step scale spaces them ~30. */
const TICK_DODGE_RUN = 24;

/**
 * Cells up and down from (x, y) nearer `colour` than the background (read past the tallest track above):
 * a camera's blur leaves a 4 pt track two cells of its colour and a blend either side, which is still
 * the track; a pale track's blend with white is nearer white, which is not.
 */
function barExtent(g: Grid, x: number, y: number, colour: readonly number[]): [number, number] {
  const bg = cell(g, x, Math.max(0, y - TRACK_TALL.max - 2));
  const near = (yy: number): boolean => {
    const c = cell(g, x, yy);
    return diff(c, colour) < diff(c, bg);
  };
  let top = y;
  while (top - 1 >= 0 && y - top <= TRACK_TALL.max && near(top - 1)) top--;
  let bottom = y + 1;
  while (bottom < g.h && bottom - y <= TRACK_TALL.max && near(bottom)) bottom++;
  return [top, bottom];
}

/** A run at row y that is a thin bar: 2–8 cells tall at its quarter points, one background around. */
function asBar(g: Grid, y: number, x0: number, x1: number, colour: readonly number[]): Bar | undefined {
  let top = -1;
  let bottom = 0;
  let bg: readonly number[] | undefined;
  for (const f of [0.5, 0.25, 0.75]) {
    // A tick across the track (ResearchKit's scale, a stepped slider: 1 pt wide) may sit at the point:
    // the thinnest extent of it and the columns `TICK_CLEAR` either side is the track's.
    let x = Math.floor(x0 + f * (x1 - x0));
    let [t, b] = barExtent(g, x, y, colour);
    // Only on a long run (a ticked track's runs are joined across their ticks): on a short one the
    // thinnest column is a shape's tip (a play triangle's).
    for (const nx of x1 - x0 >= TICK_DODGE_RUN ? [x - TICK_CLEAR, x + TICK_CLEAR] : []) {
      if (nx < x0 || nx >= x1) continue;
      const [nt, nb] = barExtent(g, nx, y, colour);
      if (nb - nt < b - t) [x, t, b] = [nx, nt, nb];
    }
    if (b - t < 1 || b - t > TRACK_TALL.max || t < 1 || b >= g.h) return undefined;
    // Straight: the same edges along it (a glyph's curve, a clock digit's bowl, is not a track).
    if (top >= 0 && (Math.abs(t - top) > 1 || Math.abs(b - bottom) > 1)) return undefined;
    const above = cell(g, x, t - 1);
    const below = cell(g, x, b);
    // Anti-aliasing, and a camera's blur, blend the two cells right outside; the third is the background.
    const up = t >= 3 ? cell(g, x, t - 3) : above;
    const down = b + 2 < g.h ? cell(g, x, b + 2) : below;
    if (diff(up, down) > 2 * SAME || diff(up, colour) <= SAME) return undefined;
    // One cell tall only in full colour: a 1 pt line on whole points (ResearchKit's scale track); a
    // 1 px hairline (a separator) is a third of a cell, within `2 * SAME` of its cell.
    if (b - t < TRACK_TALL.min && diff(up, colour) <= 2 * SAME) return undefined;
    if (bg && diff(bg, up) > 2 * SAME) return undefined;
    bg ??= up;
    if (top < 0) [top, bottom] = [t, b];
  }
  return bg ? { x0, x1, top, bottom, colour, bg } : undefined;
}

/**
 * The knob's [top, bottom) through column x: the cells from the track's row `cy` out that are not the
 * background `bg`. A white thumb on a white cell is the background inside; only its shadow's rim
 * shows, so when the centre is background the outermost rim cell within `reach` is its edge (the
 * cells just past it must be background again), the same distance on both sides.
 */
function knobExtent(g: Grid, x: number, cy: number, bg: readonly number[], reach = 0): [number, number] {
  const ink = (y: number): boolean => y >= 0 && y < g.h && diff(cell(g, x, y), bg) > SAME;
  let top = cy;
  while (top - 1 >= 0 && cy - top < KNOB_TALL.max && ink(top - 1)) top--;
  let bottom = cy + 1;
  while (bottom < g.h && bottom - cy < KNOB_TALL.max && ink(bottom)) bottom++;
  if (reach === 0) return [top, bottom];
  let rimTop = top;
  let rimBottom = bottom;
  for (let d = 1; d <= reach; d++) {
    if (ink(cy - d)) rimTop = cy - d;
    if (ink(cy + d)) rimBottom = cy + d + 1;
  }
  if (ink(rimTop - 1) || ink(rimTop - 2) || ink(rimBottom) || ink(rimBottom + 1)) return [top, bottom];
  // The shadow falls below the thumb (UIKit offsets it down): its top rim may not show at all.
  const r = Math.max(cy - rimTop, rimBottom - 1 - cy);
  return [cy - r, cy + r + 1];
}

interface Knob {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

/** A knob over [x0, x1) on bar `a`'s centre row, or undefined when the shape is not a knob's. */
function knobAt(g: Grid, a: Bar, x0: number, x1: number, hollowOk = false): Knob | undefined {
  const cy = Math.floor((a.top + a.bottom) / 2);
  const tall = a.bottom - a.top;
  const w = x1 - x0;
  const mid = Math.floor((x0 + x1) / 2);
  const solid = diff(cell(g, mid, cy), a.bg) > SAME;
  // Between the track's two colours, a gap of the background is a white thumb whose faint shadow a
  // camera's blur has lost: taken as round, as tall as the gap is wide.
  const hollow = !solid && hollowOk && hollowGap(g, a, x0, x1);
  const [top, bottom] = hollow
    ? [cy - Math.floor(w / 2), cy - Math.floor(w / 2) + w]
    : knobExtent(g, mid, cy, a.bg, solid ? 0 : Math.round(0.75 * w));
  const h = bottom - top;
  if (h < KNOB_TALL.min || h >= KNOB_TALL.max || h < KNOB_TALL.minRatio * tall) return undefined;
  if (w < KNOB_WIDE.min * h || w > KNOB_WIDE.max * h + 2) return undefined;
  // A white thumb seen by its shadow's rim is round: the rim as far below as the gap is wide (a clock's
  // colon under the gap between two digits' tops is not).
  if (!solid && !hollow && (h < 0.75 * w || h > 1.3 * w)) return undefined;
  // Centred on the track (a shadow drawn 1 pt low shifts it a little).
  if (Math.abs((top + bottom) / 2 - (a.top + a.bottom) / 2) > 0.2 * h + 1) return undefined;
  // Round or pill: narrower near its top and bottom than at the track (a square tile is not a knob).
  // The leftmost ink in the knob's span on a row (a ringed knob has a pale gap inside its ring).
  const edge = (y: number): number => {
    for (let x = Math.max(0, x0 - 2); x < mid; x++) if (diff(cell(g, x, y), a.bg) > SAME) return x;
    return mid;
  };
  // Compared just above the track (at the track's row the scan runs on into it).
  if (solid && edge(top + 1) <= edge(Math.min(cy, a.top - 1)) + 1) return undefined;
  return { x0, x1, top, bottom };
}

/** The gap's middle half on the track's row is all background: nothing but a white thumb there. */
function hollowGap(g: Grid, a: Bar, x0: number, x1: number): boolean {
  const cy = Math.floor((a.top + a.bottom) / 2);
  const q = Math.floor((x1 - x0) / 4);
  for (let x = x0 + q; x < x1 - q; x++) if (diff(cell(g, x, cy), a.bg) > SAME) return false;
  return true;
}

/**
 * A thumb-wide gap of background from bar `a`'s end to `x1` where a white thumb's shadow shows below it
 * (`thumbShadow`): the thumb on a one-colour track (ResearchKit's scale, a grey-on-grey custom slider),
 * where the two-colour test of `hollowOk` cannot apply.
 */
function shadowedGap(g: Grid, a: Bar, x1: number): Knob | undefined {
  const w = x1 - a.x1;
  if (w < HOLLOW_THUMB.min || w > HOLLOW_THUMB.max || !hollowGap(g, a, a.x1, x1)) return undefined;
  const cy = Math.floor((a.top + a.bottom) / 2);
  if (!thumbShadow(g, cy, a.bg, (a.x1 + x1) >> 1, w / 2)) return undefined;
  return { x0: a.x1, x1, top: cy - (w >> 1), bottom: cy - (w >> 1) + w };
}

/** Where the knob beside a bar's end ends: the first background cell out from `x`, stepping `dir`. */
function knobEnd(g: Grid, a: Bar, x: number, dir: 1 | -1): number {
  const cy = Math.floor((a.top + a.bottom) / 2);
  let e = x;
  while (e >= 0 && e < g.w && Math.abs(e - x) < KNOB_TALL.max && diff(cell(g, e, cy), a.bg) > SAME) e += dir;
  return e;
}

/**
 * The slider over [from, to) with knob `k`, its ends found past more track of `leftColour` /
 * `rightColour` (the part beyond the knob, when the knob is not at that end).
 */
function slider(
  g: Grid,
  a: Bar,
  from: number,
  to: number,
  k: Knob,
  leftColour: readonly number[] | undefined,
  rightColour: readonly number[] | undefined,
): FoundSlider | undefined {
  const left = leftColour ? trackEnd(g, a, from - 1, -1, leftColour) : from - 1;
  const right = rightColour ? trackEnd(g, a, to, 1, rightColour) : to;
  if (left === undefined || right === undefined) return undefined;
  const x0 = left + 1;
  const x1 = right;
  if (x1 - x0 < MIN_TRACK || !flatBeside(g, a, x0, x1, k)) return undefined;
  // A one-cell track (a 1 pt line) only under UIKit's white thumb (ResearchKit's scale keeps it): a
  // thin line ending at a coloured shape (a switch, a lit edge in a photo) is not a slider.
  if (
    a.bottom - a.top < TRACK_TALL.min &&
    !isKnob(cell(g, (k.x0 + k.x1) >> 1, Math.floor((a.top + a.bottom) / 2)))
  )
    return undefined;
  return {
    box: [x0 / g.w, k.top / g.h, x1 / g.w, k.bottom / g.h],
    value: Math.min(1, Math.max(0, ((k.x0 + k.x1) / 2 - x0) / Math.max(1, x1 - x0))),
  };
}

/**
 * Sliders along grid row y: a knob between two thin bars at one height (tint one side, grey the other),
 * or at one end of a long bar.
 */
function sliderRow(g: Grid, y: number): FoundSlider[] {
  const bars: Bar[] = [];
  for (const r of barRuns(g, y)) {
    if (r.x1 - r.x0 < MIN_SIDE) continue;
    const b = asBar(g, y, r.x0, r.x1, r.colour);
    if (b) bars.push(b);
  }
  const out: FoundSlider[] = [];
  const used = new Set<Bar>();
  for (let i = 0; i < bars.length; i++) {
    const a = bars[i] as Bar;
    if (used.has(a)) continue;
    const b = bars[i + 1];
    if (b && Math.abs(b.top - a.top) <= 1 && Math.abs(b.bottom - a.bottom) <= 1 && b.x1 - a.x0 >= MIN_TRACK) {
      // A hollow (white) thumb only as UIKit draws one: a 28 pt gap between the track's two colours
      // (tint left, grey right) on a long track; a passcode's dashes or a clock's strokes are not one.
      const gap = b.x0 - a.x1;
      const hollowOk =
        diff(a.colour, b.colour) > 2 * SAME &&
        gap >= HOLLOW_THUMB.min &&
        gap <= HOLLOW_THUMB.max &&
        b.x1 - a.x0 >= HOLLOW_TRACK;
      const between = (k: Knob | undefined): FoundSlider | undefined =>
        k && slider(g, a, a.x0, b.x1, k, a.colour, b.colour);
      const s = between(knobAt(g, a, a.x1, b.x0, hollowOk)) ?? between(shadowedGap(g, a, b.x0));
      if (s) {
        out.push(s);
        used.add(b);
        continue;
      }
    }
    if (a.x1 - a.x0 < MIN_TRACK) continue;
    // The knob at an end: after the bar's right end, or before its left end.
    const sr = endSlider(g, a, 1);
    if (sr) {
      out.push(sr);
      continue;
    }
    const sl = endSlider(g, a, -1);
    if (sl) out.push(sl);
  }
  return out;
}

/**
 * The slider with its knob past bar `a`'s right (`dir` 1) or left end: a solid knob, or a white thumb
 * seen by its shadow (`hollowEndThumb`); when a thin line goes on past the knob (`lineOnward`), the knob
 * is not at the end and the track runs to that line's end.
 */
function endSlider(g: Grid, a: Bar, dir: 1 | -1): FoundSlider | undefined {
  const cy = Math.floor((a.top + a.bottom) / 2);
  const start = dir === 1 ? a.x1 : a.x0 - 1;
  const e = knobEnd(g, a, start, dir);
  let k = e !== start ? (dir === 1 ? knobAt(g, a, a.x1, e) : knobAt(g, a, e + 1, a.x0)) : undefined;
  k ??= hollowEndThumb(g, cy, a.bg, start, dir);
  if (!k) return undefined;
  const past = dir === 1 ? k.x1 : k.x0 - 1;
  const on = lineOnward(g, cy, a.bg, past, dir, a.bottom - a.top + 2);
  if (dir === 1) return slider(g, a, a.x0, on ?? k.x1, k, a.colour, undefined);
  return slider(g, a, on === undefined ? k.x0 : on + 1, a.x1, k, undefined, a.colour);
}

/**
 * Every slider on the screen, top to bottom. A slider is seen on each grid row through its track;
 * overlapping finds are one (the first row's).
 */
export function findSliders(image: RgbImage, grid: Grid = smoothGrid(image)): FoundSlider[] {
  const found: FoundSlider[] = [];
  for (let y = 2; y < grid.h - 2; y++) {
    for (const s of sliderRow(grid, y)) {
      const twin = found.find(
        (f) => f.box[0] < s.box[2] && s.box[0] < f.box[2] && f.box[1] < s.box[3] && s.box[1] < f.box[3],
      );
      if (!twin) found.push(s);
    }
  }
  return found;
}

/**
 * Slider rows added to `rows`: `[slider] "" 21%` over each track found. Icon rows centred on a track
 * (the knob boxed by the detector or the glyph proposer) are the slider and are dropped; the min/max
 * symbols beside a track stay (they are drawn outside its box); a value label that read the track's end
 * cap as a last character loses it (`slider-caps.ts`).
 */
export function applySliders(
  screen: RgbImage,
  rows: readonly Candidate[],
  grid: Grid = smoothGrid(screen),
): Candidate[] {
  const found = findSliders(screen, grid);
  if (found.length === 0) return [...rows];
  const kept = trimTrackCaps(
    rows.filter(
      (r) => !(r.kind === "icon" && found.some((s) => contains(s.box, centreX(r.box), centreY(r.box)))),
    ),
    found.map((s) => s.box),
  );
  return [
    ...kept,
    ...found.map((s): Candidate => ({ kind: "slider", label: "", value: s.value, box: s.box, conf: 0.8 })),
  ];
}
