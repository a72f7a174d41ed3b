import { cell, diff, type Grid, type Run, runs, SAME } from "./switches-grid.js";

/** Colours of one track's runs through a camera differ by up to ~17; UIKit's grey track and white by 26. */
const DRIFT = 22;
/**
 * Cells from a tick to a column clear of it: ticks across a track (ResearchKit's `ORKScaleSlider`
 * strokes a 1 × 7 pt tick at each step; stepped sliders drawn by apps alike) are 1 pt wide, blurred a
 * cell either side.
 */
export const TICK_CLEAR = 3;
/** Cells of blend between a track's end and its background (anti-aliasing, a camera's blur). */
const END_SLACK = 3;
/** Share of the cells beside the track that must be its background (min/max symbols at the ends may not). */
const FLAT_SHARE = 0.85;

/** A thin bar along a grid row (`sliders.ts`): a track's run with its height and background. */
export interface Bar {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  colour: readonly number[];
  /** The background just above the bar. */
  bg: readonly number[];
}

/**
 * The runs along row y, a run joined to the one before it where the colour only drifted across their
 * boundary (the cells either side within `SAME`) and the two differ by at most `DRIFT`: `runs` compares
 * each cell with its run's first, and a camera's vignetting and exposure move a long track's colour by
 * more than `SAME` end to end; a white thumb's shadow is a gradient from white to the grey track, which
 * differ by more than `DRIFT`. Runs of one colour either side of a tick are joined too.
 */
export function barRuns(g: Grid, y: number): Run[] {
  const out: Run[] = [];
  for (const r of runs(g, y)) {
    const last = out[out.length - 1];
    const drift =
      last &&
      r.x0 - last.x1 <= 1 &&
      diff(cell(g, last.x1 - 1, y), cell(g, r.x0, y)) <= SAME &&
      diff(cell(g, (last.x0 + last.x1) >> 1, y), cell(g, (r.x0 + r.x1) >> 1, y)) <= DRIFT; // middles: a run's first cell may be a blend
    // A tick across the track (a cell or two of fuller colour where it crosses a track that straddles
    // two grid rows) splits it into runs of one colour a few cells apart.
    const tick =
      last && r.x0 - last.x1 <= TICK_CLEAR && diff(bodyColour(g, last, y), bodyColour(g, r, y)) <= SAME;
    if (last && (drift || tick)) last.x1 = r.x1;
    else out.push({ ...r });
  }
  return out;
}

/** A run's colour away from ticks and blends: per channel the median of the cells at ¼, ½ and ¾ along it. */
function bodyColour(g: Grid, r: Run, y: number): number[] {
  const cs = [0.25, 0.5, 0.75].map((f) => cell(g, Math.floor(r.x0 + f * (r.x1 - r.x0)), y));
  return [0, 1, 2].map((c) => cs.map((v) => v[c] ?? 0).sort((p, q) => p - q)[1] ?? 0);
}

/**
 * Whether the track's surroundings are one flat background: cells just above and below the track, every
 * few cells along it (the knob's span skipped). A slider sits on a table cell or a sheet; a street on a
 * map with a pin on it has labels, blocks and other streets beside it.
 */
export function flatBeside(g: Grid, a: Bar, x0: number, x1: number, k: { x0: number; x1: number }): boolean {
  const ys = [a.top - 2, a.bottom + 1].filter((y) => y >= 0 && y < g.h);
  let n = 0;
  let flat = 0;
  for (let x = x0 + 1; x < x1 - 1; x += 4) {
    if (x >= k.x0 - 2 && x < k.x1 + 2) continue;
    for (const y of ys) {
      n++;
      if (diff(cell(g, x, y), a.bg) <= SAME) flat++;
    }
  }
  return n > 0 && flat >= FLAT_SHARE * n;
}

/**
 * Where the track's end really is, from a run's end at `x` stepping `dir`: past more of the track's
 * colour (a run stops short where sensor noise or blur moved a cell a little), then the first
 * background cell within `END_SLACK` cells of blend; undefined when the bar runs on into something
 * else (a street into a label or another street).
 */
export function trackEnd(
  g: Grid,
  a: Bar,
  x: number,
  dir: 1 | -1,
  colour: readonly number[],
): number | undefined {
  const cy = Math.floor((a.top + a.bottom) / 2);
  let e = x;
  // More track: near its colour, and nearer it than the background (a pale grey track on white is
  // within twice SAME of both).
  const onTrack = (c: readonly number[]): boolean =>
    diff(c, colour) <= 2 * SAME && diff(c, colour) < diff(c, a.bg);
  const inRow = (x: number): boolean => x >= 0 && x < g.w;
  for (;;) {
    while (inRow(e) && onTrack(cell(g, e, cy))) e += dir;
    // A tick across the track (darker where it crosses): more track within `TICK_CLEAR` cells past it.
    let t = e;
    while (
      inRow(t) &&
      Math.abs(t - e) < TICK_CLEAR &&
      diff(cell(g, t, cy), a.bg) > SAME &&
      !onTrack(cell(g, t, cy))
    )
      t += dir;
    if (t === e || !inRow(t) || !onTrack(cell(g, t, cy))) break;
    e = t;
  }
  for (let i = 0; i <= END_SLACK && e >= 0 && e < g.w; e += dir, i++)
    if (diff(cell(g, e, cy), a.bg) <= SAME) return e;
  return undefined;
}
