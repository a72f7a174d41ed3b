import { cell, diff, type Grid, type Run, runs, SAME } from "./switches-grid.js";

/** Colours of one track's runs through a camera differ by up to ~17; UIKit's grey track and white by 26. */
const DRIFT = 22;
/**
 * Cells from a tick to a column clear of it: ticks across a track (ResearchKit's `ORKScaleSlider`
 * strokes a 1 × 7 pt tick at each step; stepped sliders drawn by apps alike) are 1 pt wide, blurred a
 * cell either side.
 */
export const TICK_CLEAR = 3;

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
