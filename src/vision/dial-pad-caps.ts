import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * A phone keypad's key caps found from the detector's shapes, for keypads whose digits OCR reads too
 * few of (thin digits inside outline rings, digits on a busy wallpaper). The ITU-T E.161 keypad is a
 * 3×4 grid of equal keys (1 2 3 / 4 5 6 / 7 8 9 / * 0 #); apps draw them as equal round caps, ~75–78 pt
 * on a 375–430 pt wide screen in Apple's Phone app and passcode screen (0.17–0.21 of the width), smaller
 * in VoIP apps' in-call keypads, on an even pitch wider than a cap. So: near-round `icon` rows of one
 * size (within 20 %) whose centres fall on three evenly spaced columns and four evenly spaced rows, at
 * least ten of the twelve cells holding one. Which digit each cap is comes from the layout; the caller
 * checks that the digits OCR did read sit in their own cells before believing it is a keypad.
 */

export interface CapGrid {
  cols: [number, number, number];
  rows: [number, number, number, number];
  pitchX: number;
  pitchY: number;
  /** The caps' median size, fractions of the screen's width and height. */
  capW: number;
  capH: number;
  /** The cap found in each cell (row-major, 12 cells), or null. */
  cells: ({ x: number; y: number } | null)[];
}

/** A cap's width as a share of the screen's width: small VoIP keypads to Apple's (0.21) and a bit more. */
const CAP = { min: 0.1, max: 0.3 };
/** Caps of one keypad are the same size within this share. */
const SAME_SIZE = 0.2;
/** Fewest of the twelve cells that must hold a cap (`*` and `#` may be drawn without one). */
const MIN_CAPS = 10;

interface Cap {
  x: number;
  y: number;
  /** Width and height in screen-width units (height × aspect), so round caps have w ≈ h. */
  w: number;
  h: number;
}

/** Centres of groups of values closer than `tol` to their group's first member, ascending. */
function clusters(values: number[], tol: number): number[] {
  const out: number[][] = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && v - (last[0] ?? v) < tol) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((s, v) => s + v, 0) / g.length);
}

/** Every way to pick `k` of `xs` in order (`xs` holds a dozen values at most: clusters of caps). */
function choose(xs: number[], k: number): number[][] {
  if (k === 0) return [[]];
  return xs.flatMap((x, i) => choose(xs.slice(i + 1), k - 1).map((rest) => [x, ...rest]));
}

const evenly = (xs: number[], pitch: number): boolean =>
  xs.every((x, i) => i === 0 || Math.abs(x - (xs[i - 1] ?? x) - pitch) < 0.15 * pitch);

/**
 * The best 3×4 grid of equal round caps among the `icon` rows, or null. `aspect` is the screen's
 * height / width.
 */
export function findCapGrid(rows: readonly Candidate[], aspect: number): CapGrid | null {
  const caps: Cap[] = rows
    .filter((r) => r.kind === "icon")
    .map((r) => ({ x: centreX(r.box), y: centreY(r.box), w: boxWidth(r.box), h: boxHeight(r.box) * aspect }))
    .filter((c) => Math.abs(c.w - c.h) <= 0.2 * Math.max(c.w, c.h) && c.w >= CAP.min && c.w <= CAP.max);
  let best: CapGrid | null = null;
  let bestCount = 0;
  const seen = new Set<number>();
  for (const seed of caps) {
    const size = seed.w;
    if (seen.has(Math.round(size * 200))) continue; // one search per size class
    seen.add(Math.round(size * 200));
    const same = caps.filter((c) => Math.abs(c.w - size) <= SAME_SIZE * size);
    if (same.length < MIN_CAPS) continue;
    const xs = clusters(
      same.map((c) => c.x),
      0.3 * size,
    );
    const ys = clusters(
      same.map((c) => c.y),
      (0.3 * size) / aspect,
    );
    // Any three columns and four rows: other shapes of the same size (an in-call screen's buttons,
    // the call button under the keypad) add columns and rows between or beside the keypad's.
    for (const cols of choose(xs, 3) as [number, number, number][])
      for (const rowsY of choose(ys, 4) as [number, number, number, number][]) {
        const pitchX = (cols[2] - cols[0]) / 2;
        const pitchY = (rowsY[3] - rowsY[0]) / 3;
        // Caps do not overlap and are not scattered: pitch 1–2 caps in both directions.
        if (pitchX < size || pitchX > 2 * size || pitchY * aspect < size || pitchY * aspect > 2 * size)
          continue;
        if (!evenly(cols, pitchX) || !evenly(rowsY, pitchY)) continue;
        const cells = rowsY.flatMap((y) =>
          cols.map(
            (x) =>
              same.find((c) => Math.abs(c.x - x) < 0.3 * size && Math.abs(c.y - y) < (0.3 * size) / aspect) ??
              null,
          ),
        );
        const count = cells.filter((c) => c !== null).length;
        if (count < MIN_CAPS || count <= bestCount) continue;
        const found = cells.filter((c): c is Cap => c !== null);
        const mid = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
        bestCount = count;
        best = {
          cols,
          rows: rowsY,
          pitchX,
          pitchY,
          capW: mid(found.map((c) => c.w)),
          capH: mid(found.map((c) => c.h)) / aspect,
          cells: cells.map((c) => (c ? { x: c.x, y: c.y } : null)),
        };
      }
  }
  return best;
}
