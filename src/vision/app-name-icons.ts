import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";

/**
 * Icon rows on an app's printed name.
 *
 * SpringBoard and share sheets print an app's name centred under its tile (HIG "App icons"; the home
 * screen's and the activity view's icon grids); the name is part of the app's target, listed on the
 * app's row as its `labelBox`. An unnamed icon box centred below the tile that holds the name's centre
 * is the detector boxing the caption. `icon-on-text.ts` drops such boxes when nothing but the words lies
 * in them; on a camera frame the blur carries the tiles' edges (above and below the name) into the box,
 * so that blank test fails there. Here the geometry alone decides: the box's centre lies under the tile's
 * foot, on the name's line, and the name's centre lies inside the box.
 */

/** The icon's centre lies at most this many name heights from the name's centre line. */
const ON_LINE = 1.5;

/** The icon rows of `rows` that box an app's printed name (see the module comment). */
export function iconsOnAppNames(rows: readonly Candidate[]): Set<Candidate> {
  const apps = rows.filter((r) => r.kind === "app" && r.labelBox !== undefined);
  const out = new Set<Candidate>();
  for (const r of rows) {
    if (r.kind !== "icon" || r.label !== "") continue;
    const cx = centreX(r.box);
    const cy = centreY(r.box);
    for (const a of apps) {
      const name = a.labelBox;
      if (!name) continue;
      const nameHeight = name[3] - name[1];
      const underTile = cy > a.box[3] && cx >= a.box[0] && cx <= a.box[2];
      const onName = Math.abs(cy - centreY(name)) <= ON_LINE * nameHeight;
      if (underTile && onName && contains(r.box, centreX(name), centreY(name))) {
        out.add(r);
        break;
      }
    }
  }
  return out;
}
