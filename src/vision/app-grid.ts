import { median } from "../shared/median.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * App tiles the detector missed, placed from the home screen's grid. iOS lays out home-screen apps on a
 * fixed grid: every tile the same size (60 pt on most iPhones), each name set in one size centred under
 * its tile at one fixed gap (Apple HIG, "App icons"; the home screen's `SBIconListView` layout). Once
 * `nameAppIcons` has named some tiles, a name line on the same row of names as a named app, of the same
 * text height, with no row on the place its tile must be, is a name whose tile was missed: it becomes
 * an `[app]` row with the tile's box (size and gap taken from the named apps), and the name's row goes.
 *
 * Needs at least `MIN_NAMED` named apps of one tile size, so a screen with one captioned button (a call
 * screen) or a share sheet's row is left alone unless it really is a grid.
 */

const MIN_NAMED = 2;
/** Named tiles are one size within this share (detector boxes hug the artwork loosely). */
const SIZE_TOL = 0.2;
/** A name line's height within this share of the named apps' median name height. */
const NAME_HEIGHT_TOL = 0.3;
/** Names are short: a home-screen label truncates at ~12 characters (`named-icons.ts`). */
const MAX_NAME_CHARS = 24;

/**
 * `aspect` is the screen's height / width (fractions to pixels). A tile's size is its box's longer
 * side in pixels: the tile is square, and a detector box may hug the artwork tighter on one axis than
 * the other, or be snapped to the whole plate (`app-tiles.ts`), so the two axes alone do not compare.
 */
export function inferGridApps(rows: readonly Candidate[], aspect: number): Candidate[] {
  const apps = rows.filter((r) => r.kind === "app" && r.labelBox !== undefined);
  if (apps.length < MIN_NAMED) return [...rows];
  const size = (a: Candidate): number => Math.max(boxWidth(a.box), boxHeight(a.box) * aspect);
  const ts = median(apps.map(size));
  const grid = apps.filter((a) => Math.abs(size(a) - ts) <= SIZE_TOL * ts);
  const tw = median(grid.map((a) => boxWidth(a.box)));
  const th = median(grid.map((a) => boxHeight(a.box)));
  if (grid.length < MIN_NAMED) return [...rows];
  const names = grid.map((a) => a.labelBox as Candidate["box"]);
  const nameH = median(names.map(boxHeight));
  // The gap from a tile's bottom to its name's top.
  const gap = median(grid.map((a, i) => (names[i]?.[1] ?? 0) - a.box[3]));
  const added = new Map<Candidate, Candidate>();
  for (const t of rows) {
    if (t.kind !== "text" || Array.from(t.label.trim()).length === 0) continue;
    if (Array.from(t.label).length > MAX_NAME_CHARS) continue;
    if (Math.abs(boxHeight(t.box) - nameH) > NAME_HEIGHT_TOL * nameH) continue;
    if (boxWidth(t.box) > 1.9 * tw) continue;
    // On a row of names: level with a named app's name, clear of that row's tiles.
    const row = grid.filter((a, i) => Math.abs(centreY(names[i] ?? a.box) - centreY(t.box)) < 0.5 * nameH);
    if (row.length === 0) continue;
    const cx = centreX(t.box);
    if (row.some((a) => Math.abs(centreX(a.box) - cx) < 0.8 * tw)) continue;
    const bottom = t.box[1] - gap;
    const tile: Candidate["box"] = [cx - tw / 2, bottom - th, cx + tw / 2, bottom];
    // The tile's place is empty of rows (a missed tile), not a widget's text or another control.
    const tcx = centreX(tile);
    const tcy = centreY(tile);
    if (
      rows.some(
        (r) => r !== t && (contains(tile, centreX(r.box), centreY(r.box)) || contains(r.box, tcx, tcy)),
      )
    )
      continue;
    added.set(t, { kind: "app", label: t.label, box: tile, labelBox: t.box, conf: 0.5 });
  }
  return rows.map((r) => added.get(r) ?? r);
}
