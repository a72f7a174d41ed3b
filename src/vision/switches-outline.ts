import { cellBrightness, flatAround, type Grid } from "./switches-grid.js";

/**
 * Off switches drawn as an outline (iOS 7–12): the track is the background's white with a thin grey
 * border (≈ 1.5–2 pt, #E5E5EA-ish, 20–30 levels darker), the white knob at the left edged by a thin rim
 * and a soft shadow. Nothing is filled, so `switches.ts`'s runs of colour see one white run; here the
 * capsule is found from its border instead: along a grid row, two thin dark lines (the capsule's ends)
 * 1.45–1.85 h apart with one more thin line between them (the knob's rim), and at the straight part the
 * border above and below, h ≈ 31/51 of the width apart (UISwitch 51×31 pt, knob 27 pt). The knob's
 * side gives the state: the rim nearer the left end means the knob is at the left, off. The track is
 * clear, so on a cell that is not white (a grouped table's #EFEFF4, an app's grey) its inside is that
 * grey and the white knob is brighter than both: a line is darker than the light on each of its sides,
 * which need not be the same.
 */

export interface OutlineSwitch {
  box: [number, number, number, number];
  on: boolean;
}

/** A border line is at least this much darker than the white on both sides of it. */
const DIP = 10;
/** …and at most this many cells wide (a 2 pt line, blurred). */
const DIP_MAX = 4;
/**
 * The knob's rim may be wider: its soft drop shadow (UISwitch's knob casts one, ≈ 3 pt, on iOS 7–12)
 * darkens the track beside it, and a camera's blur merges rim and shadow into one 5–6 pt dip.
 */
const RIM_MAX = 6;
/**
 * The border above and below the track, read on three cells' mean along it (`along`): a 1 pt grey line
 * 12 levels darker than a grouped cell's #F2F2F7 (iOS 7–12) keeps only 8–9 through a camera's blur, and
 * the mean's noise (±1.5 levels) leaves that clear of this.
 */
const LINE_DIP = 7;
/**
 * The border is faint — UIKit's #E5E5EA-ish line is 20–30 levels under white, less on a grey cell — and
 * the same above and below the track; a text's strokes or a table's separator (#C6C6C8, ~57 under
 * white) are darker.
 */
const BORDER_MAX = 45;
/** Border depths above and below the track differ by at most this much (noise and exposure). */
const BORDER_SAME = 12;
/** The white inside and outside the capsule. */
const LIGHT = 200;
/**
 * Inside the capsule, away from the knob's rim and shadow, no cell is darker than the white outside by
 * more than this (a camera's exposure and vignetting move the white, not the contrast).
 */
const INK = 14;
/** Capsule width in cells (≈ points): 51 pt, from 0.75× to Display Zoom's 1.35×. */
const WIDTH = { min: 36, max: 70 };

interface Dip {
  x0: number;
  /** Exclusive. */
  x1: number;
}

/** Thin dark lines along row `y`: short stretches darker by `DIP` than the light cells either side. */
function dips(g: Grid, y: number): { dips: Dip[]; b: Float32Array } {
  const b = new Float32Array(g.w);
  for (let x = 0; x < g.w; x++) b[x] = cellBrightness(g, x, y);
  const out: Dip[] = [];
  let x = 3;
  while (x < g.w - 1) {
    // The light level before the line: the brightest of the three cells before it (a blurred edge
    // darkens gradually).
    const ref = Math.max(b[x - 1] ?? 0, b[x - 2] ?? 0, b[x - 3] ?? 0);
    if (ref < LIGHT || (b[x] ?? 0) > ref - DIP) {
      x++;
      continue;
    }
    // The light level past the line: a line may have two lights (the white knob on one side, a clear
    // track showing a grey cell on the other: iOS 7–12 on a grouped table's #EFEFF4), so it ends where
    // the nearer of the two is reached again, and is darker than both.
    const after = Math.max(b[x + DIP_MAX + 1] ?? 0, b[x + DIP_MAX + 2] ?? 0, b[x + DIP_MAX + 3] ?? 0);
    const level = after >= LIGHT ? Math.min(ref, after) : ref;
    let e = x;
    while (e < g.w && e - x <= RIM_MAX && (b[e] ?? 0) < level - DIP / 2) e++;
    let dark = 255;
    for (let k = x; k < e; k++) dark = Math.min(dark, b[k] ?? 255);
    const back = (b[e] ?? 0) >= LIGHT && (Math.abs((b[e] ?? 0) - ref) < DIP || dark <= level - DIP);
    if (e - x <= RIM_MAX && e < g.w && back) out.push({ x0: x, x1: e });
    x = e + 1;
  }
  return { dips: out, b };
}

/**
 * The first thin dark line from (x, y) going `dir` within `limit` cells, as its distance; -1 if none.
 * Darker than the start or than `light` (the light outside the capsule on its row), whichever is
 * lighter: the knob's soft shadow greys the track's middle, so the start need not be the track's light.
 * `level`: the line runs level here (the track's straight part), so it is read on three cells' mean
 * along it (`along`, `LINE_DIP`); a capsule's end curves, so there one cell and `DIP`.
 */
function lineAlong(
  g: Grid,
  x: number,
  y: number,
  dir: -1 | 1,
  limit: number,
  light = 0,
  level = false,
): number {
  const at = level ? along : (gg: Grid, xx: number, yy: number) => cellBrightness(gg, xx, yy);
  const dip = level ? LINE_DIP : DIP;
  const ref = Math.max(at(g, x, y), light);
  for (let d = 1; d <= limit; d++) {
    const yy = y + dir * d;
    if (yy < 0 || yy >= g.h) return -1;
    if (at(g, x, yy) < ref - dip) return d;
  }
  return -1;
}

/**
 * How much darker than the track at (x, y) the border `d` cells away in `dir` gets at its darkest (it
 * may be blurred over three cells); Infinity when it is no line — the light does not come back at least
 * half way within the next three cells (the edge of a grey band, a cell's shadow).
 */
function borderDepth(g: Grid, x: number, y: number, dir: -1 | 1, d: number): number {
  const ref = along(g, x, y);
  const at = (k: number) => {
    const yy = y + dir * k;
    return yy >= 0 && yy < g.h ? along(g, x, yy) : Number.NaN;
  };
  const dark = Math.min(at(d), at(d + 1), at(d + 2));
  const back = Math.max(at(d + 3), at(d + 4), at(d + 5));
  if (!(back >= dark + (ref - dark) / 2)) return Number.POSITIVE_INFINITY;
  return ref - dark;
}

/**
 * Brightness at (x, y) averaged with the cells left and right of it: the border above and below the
 * track's straight part runs level, so the mean keeps its dip and cuts a camera's sensor noise by √3.
 */
function along(g: Grid, x: number, y: number): number {
  const x0 = Math.max(0, x - 1);
  const x1 = Math.min(g.w - 1, x + 1);
  let sum = 0;
  for (let xx = x0; xx <= x1; xx++) sum += cellBrightness(g, xx, y);
  return sum / (x1 - x0 + 1);
}

/** Outline-style switches, as grid-cell boxes. */
export function findOutlineSwitches(g: Grid): OutlineSwitch[] {
  const found: OutlineSwitch[] = [];
  for (let y = 10; y < g.h - 10; y++) {
    const { dips: ds, b } = dips(g, y);
    for (let i = 0; i + 2 < ds.length; i++) {
      const a = ds[i];
      const rim = ds[i + 1];
      const z = ds[i + 2];
      if (!a || !rim || !z) continue;
      // The capsule's ends are thin lines; only the rim carries a shadow.
      if (a.x1 - a.x0 > DIP_MAX || z.x1 - z.x0 > DIP_MAX) continue;
      const w = z.x1 - a.x0;
      if (w < WIDTH.min || w > WIDTH.max) continue;
      const h = (31 / 51) * w;
      // The knob's rim one knob width (27/51 of the capsule, ± blur and shadow) from one end.
      const fromLeft = (rim.x0 + rim.x1) / 2 - a.x0;
      const off = Math.abs(fromLeft - 0.55 * w) < 0.1 * w;
      const on = Math.abs(w - fromLeft - 0.55 * w) < 0.1 * w;
      if (off === on) continue;
      // Inside, nothing but white: the knob and the empty track (a line of text or a map has more ink),
      // apart from the rim and the knob's shadow beside it.
      const light = Math.min(b[a.x0 - 2] ?? 0, b[z.x1 + 1] ?? 0);
      let ink = false;
      for (let x = a.x1; x < z.x0 && !ink; x++)
        if ((x < rim.x0 - 3 || x >= rim.x1 + 4) && (b[x] ?? 0) < light - INK) ink = true;
      if (ink) continue;
      // The border above and below the straight part of the track (away from the knob), h apart and
      // centred on this row.
      const tx = Math.round(off ? a.x0 + 0.78 * w : a.x0 + 0.22 * w);
      // The light outside the end away from the knob (the knob's shadow spills past its own end),
      // trusted only where it is clean (a screenshot): on a camera frame's sensor noise a border this
      // faint cannot be told from a noise dip.
      const sides = (off ? [z.x1 + 1, z.x1 + 2, z.x1 + 3] : [a.x0 - 4, a.x0 - 3, a.x0 - 2]).map(
        (x) => b[x] ?? 0,
      );
      const clean = Math.max(...sides) - Math.min(...sides) <= DIP / 4;
      const outside = clean ? Math.max(...sides) : 0;
      const up = lineAlong(g, tx, y, -1, Math.ceil(0.7 * h), outside, true);
      const down = lineAlong(g, tx, y, 1, Math.ceil(0.7 * h), outside, true);
      if (up < 0 || down < 0) continue;
      if (up + down < 0.7 * h || up + down > 1.15 * h || Math.abs(up - down) > 0.15 * h + 1) continue;
      // One border all round: as dark above as below, and faint (a separator under a text line, or the
      // text's own strokes, is a far darker line on one side only).
      const depthUp = borderDepth(g, tx, y, -1, up);
      const depthDown = borderDepth(g, tx, y, 1, down);
      if (Math.max(depthUp, depthDown) > BORDER_MAX || Math.abs(depthUp - depthDown) > BORDER_SAME) continue;
      // … and straight: the same distances a tenth of the width nearer the knob.
      const tx2 = Math.round(off ? tx - 0.1 * w : tx + 0.1 * w);
      const up2 = lineAlong(g, tx2, y, -1, Math.ceil(0.7 * h), outside, true);
      const down2 = lineAlong(g, tx2, y, 1, Math.ceil(0.7 * h), outside, true);
      if (Math.abs(up2 - up) > 3 || Math.abs(down2 - down) > 3) continue;
      // Rounded ends: just inside each end line the border is close above this row (a capsule's end
      // curves round; streets on a map or a rectangle's sides run straight up).
      const ends = [a.x1 + 1, z.x0 - 2].map((ex) => lineAlong(g, ex, y, -1, Math.ceil(0.45 * h)));
      if (ends.some((e) => e < 0)) continue;
      const box: OutlineSwitch["box"] = [a.x0, y - up, z.x1, y + down + 1];
      if (!flatAround(g, box, 0.15)) continue;
      if (found.some((f) => f.box[0] < box[2] && box[0] < f.box[2] && f.box[1] < box[3] && box[1] < f.box[3]))
        continue;
      found.push({ box, on });
    }
  }
  return found;
}
