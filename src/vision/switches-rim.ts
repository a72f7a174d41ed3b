import { cell, type Grid, type Run } from "./switches-grid.js";

/**
 * Through a camera a switch's knob loses its outer edge: the blur greys the last cell or two of the
 * white knob past `SAME` (its run ends early) and the 2 pt sliver of track beyond it (UISwitch's knob is
 * inset 2 pt) grades from the knob's colour to the background, no run at all. The box built from the
 * runs then ends inside that rim and its surroundings do not read flat; `switches.ts` reads them again
 * `KNOB_RIM` cells further out, when the rim is there.
 */

/** Cells a camera's blur takes off a knob's outer edge (its white run and the track's sliver beyond). */
export const KNOB_RIM = 2;

/** A rim cell lies between the knob's and the track's colour: this far along, at least and at most… */
const ALONG = { min: 0.3, max: 1.2 };
/** …and at most this far (largest channel) off the line between them. */
const OFF_LINE = 30;

/**
 * Whether, just past the knob's outer end (`side` +1: the track is right of the knob, its outer end the
 * left), a cell is a blend of the knob's and the track's colours: the blurred sliver of track round the
 * knob. A white patch beside a photo or a dark bubble has no such cell (its neighbour is no blend of
 * white and the "track").
 */
export function blurredRim(g: Grid, y: number, knob: Run, track: readonly number[], side: -1 | 1): boolean {
  const k = knob.colour;
  const d = [0, 1, 2].map((c) => (track[c] ?? 0) - (k[c] ?? 0));
  const len2 = d.reduce((a, v) => a + v * v, 0);
  if (len2 === 0) return false;
  for (let i = 0; i <= KNOB_RIM + 2; i++) {
    const x = side === 1 ? knob.x0 - 1 - i : knob.x1 + i;
    if (x < 0 || x >= g.w) break;
    const c = cell(g, x, y);
    const t = [0, 1, 2].reduce((a, j) => a + ((c[j] ?? 0) - (k[j] ?? 0)) * (d[j] ?? 0), 0) / len2;
    if (t < ALONG.min || t > ALONG.max) continue;
    const off = Math.max(...[0, 1, 2].map((j) => Math.abs((c[j] ?? 0) - ((k[j] ?? 0) + t * (d[j] ?? 0)))));
    if (off <= OFF_LINE) return true;
  }
  return false;
}

/**
 * Mean absolute difference between the grid and its 3×3 mean inside a box (2 cells in), per channel,
 * above which the box is texture (a photo's surf foam), not a flat control under a camera's sensor
 * noise: filmed switches read ~4 (noise plus their own edges), a wallpaper's foam ~8.
 */
const TEXTURE_MAX = 6;

export function textured(g: Grid, smooth: Grid, box: readonly [number, number, number, number]): boolean {
  const [x0, y0, x1, y1] = box;
  let sum = 0;
  let n = 0;
  for (let y = y0 + 2; y < y1 - 2; y++)
    for (let i = (y * g.w + x0 + 2) * 3, end = (y * g.w + x1 - 2) * 3; i < end; i++) {
      sum += Math.abs((g.rgb[i] ?? 0) - (smooth.rgb[i] ?? 0));
      n++;
    }
  return n > 0 && sum / n > TEXTURE_MAX;
}
