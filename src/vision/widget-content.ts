import type { FracBox } from "../shared/box.js";
import { GRID_BOTTOM, type HomeGrid, slotAt } from "./home-layout.js";
import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY, contains } from "./row.js";

/**
 * Rows on a recognised home screen that `named-icons.ts` made `[app]` rows but that are a widget's
 * content: a picture inside a widget over a line of the widget's text (`Updated: 2 Hours ago` under a
 * car's photo in a Scriptable widget). SpringBoard prints an app's name only under an app icon, and app
 * icons sit only on the grid's four columns (HIG: 60 pt icons in a 4-column grid; `home-layout.ts`); a
 * widget's inside — its 22 pt-cornered tile, small 158×158, medium 338×158, large 338×354 pt on a 390 pt
 * wide phone — holds the widget's own pictures and text, centred anywhere. So an `[app]` row named by a line
 * - inside a `[widget]` row's box (the widget was named by its caption), or
 * - centred off every app column, above the dock (the widget's caption misread or hidden, so no
 *   `[widget]` row marks the tile: a caption over a busy wallpaper read `BlNiptable`), unless another
 *   name on its line sits on a column (a share sheet's row of apps, taken for a home screen's),
 * is listed as what it is: the picture's `[icon] ""` and the line's `[text]`. The dock's apps carry no
 * name and are never touched.
 */
export function widgetContentApps(g: HomeGrid, rows: readonly Candidate[]): Set<Candidate> {
  const widgets = rows.filter((r) => r.kind === "widget");
  const onColumn = (b: FracBox): boolean => slotAt(g, centreX(b))?.kind === "app";
  const named = rows.filter((r) => r.kind === "app" && r.labelBox !== undefined);
  const out = new Set<Candidate>();
  for (const r of named) {
    const name = r.labelBox;
    if (!name) continue;
    const inWidget = widgets.some((w) => contains(w.box, centreX(r.box), centreY(r.box)));
    // A line of names with one of them on a column is a row of apps drifting off the class's columns (a
    // share sheet's app row, evenly pitched from its own margin), not a widget's line.
    const rowOfApps = named.some(
      (o) =>
        o !== r &&
        o.labelBox !== undefined &&
        Math.abs(centreY(o.labelBox) - centreY(name)) < 0.5 * boxHeight(name) &&
        onColumn(o.labelBox),
    );
    const offColumn = centreY(name) < GRID_BOTTOM && !onColumn(name) && !rowOfApps;
    if (inWidget || offColumn) out.add(r);
  }
  return out;
}

/** An `[app]` row taken apart into its picture's `[icon] ""` and its line's `[text]` (`widgetContentApps`). */
export function asIconAndText(r: Candidate): Candidate[] {
  const icon: Candidate = { kind: "icon", label: "", box: r.box, conf: r.conf };
  return r.labelBox ? [icon, { kind: "text", label: r.label, box: r.labelBox, conf: r.conf }] : [icon];
}
