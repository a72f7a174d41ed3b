import { cellDiff, diff, type Grid, isKnob, runs, SAME } from "./switches-grid.js";

/**
 * Switches cut by the screen's bottom edge: a list scrolled so that its last row shows only its top
 * (a long page captured in parts, a table under a toolbar-less bottom). A table's switches share one
 * column (UITableViewCell's accessory view is right-aligned at the same inset in every row), so a
 * whole switch found on the same screen gives the model: its columns, track height `h` and track
 * colour. At the last grid rows, inside those columns, a run of that track colour beside a white
 * knob run, the track's outer end at the column's end, is the same control cut — knob at the right:
 * on. At least a quarter of `h` must show (less is too little to tell a knob from a gap).
 */

export interface CutSwitch {
  box: [number, number, number, number];
  on: boolean;
}

interface Whole {
  box: readonly [number, number, number, number];
  colour?: readonly number[];
}

export function findCutSwitches(g: Grid, whole: readonly Whole[]): CutSwitch[] {
  const out: CutSwitch[] = [];
  const y = g.h - 2;
  const rs = runs(g, y);
  for (const w of whole) {
    const { colour } = w;
    if (!colour) continue;
    const [x0, , x1] = w.box;
    const h = w.box[3] - w.box[1];
    if (out.some((o) => Math.abs(o.box[0] - x0) <= 2)) continue;
    const inside = rs.filter((r) => r.x0 >= x0 - 2 && r.x1 <= x1 + 2);
    for (let i = 0; i + 1 < inside.length; i++) {
      const a = inside[i];
      const b = inside[i + 1];
      if (!a || !b || b.x0 - a.x1 > 3) continue;
      const on = diff(a.colour, colour) <= SAME && isKnob(b.colour);
      const off = isKnob(a.colour) && diff(b.colour, colour) <= SAME;
      if (!on && !off) continue;
      const track = on ? a : b;
      // The track's outer end at the column's end (within the cap's curve at a quarter of h down).
      if (on ? track.x0 - x0 > 0.3 * h : x1 - track.x1 > 0.3 * h) continue;
      // How much shows: up from the edge, the track's colour down its middle.
      const tx = Math.floor((track.x0 + track.x1) / 2);
      let top = y;
      while (top > 0 && y - top <= h && cellDiff(g, tx, top - 1, colour) <= SAME) top--;
      const shown = g.h - top;
      if (shown < 0.25 * h || shown >= h) continue;
      out.push({ box: [x0, top, x1, g.h], on });
      break;
    }
  }
  return out;
}
