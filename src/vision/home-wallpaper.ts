import { wallpaperBelowGrid } from "./home-grid-end.js";
import type { Candidate } from "./row.js";
import { boxHeight, centreY } from "./row.js";

/**
 * Wallpaper seen above a home screen's dock. SpringBoard lays the home screen out as a grid of 60 pt
 * app icons (Apple HIG "App icons": 180 px @3x) and widgets, ending one row of icons above the dock;
 * the strip between the grid and the dock holds only the page indicator (page dots, or from iOS 16 the
 * "Search" pill, centred). Whatever OCR or the detector finds elsewhere in that strip — a wallpaper's
 * lettering, logos, shapes — is the wallpaper, which takes no taps.
 *
 * The dock is three or more `app` rows with no name under them on one line in the bottom fifth of the
 * screen; the page indicator (`page-dots.ts`, or the Search pill's title) is looked for in the 80 pt
 * above its top (the dots sit ~60–75 pt above it on Face ID iPhones); without it nothing goes. The
 * strip is from the indicator's level down to the dock. Rows between the page's last name and the dock
 * go too (`home-grid-end.ts`), page indicator or not; the Search pill's title stays.
 */

/** A dock's apps lie below this fraction of the height. */
const DOCK_TOP = 0.8;
/** The strip above the dock, in points; the width is `SCREEN_PT` points. */
const STRIP_PT = 80;
const SCREEN_PT = 390;
/** The Spotlight pill's title (iOS 16+), as SpringBoard localises it. */
const SEARCH = /^(search|搜索|搜尋)$/i;

/** The text and icon rows of `rows` that are wallpaper above a home screen's dock (module comment). */
export function wallpaperAboveDock(rows: readonly Candidate[], aspect: number): Set<Candidate> {
  const out = new Set<Candidate>();
  // Dock apps have no names printed under them; apps with one along the bottom are a tab bar's tabs.
  const apps = rows.filter((r) => r.kind === "app" && r.box[1] > DOCK_TOP && !r.labelBox);
  const dock = apps.filter(
    (a) => apps.filter((b) => Math.abs(centreY(a.box) - centreY(b.box)) < 0.5 * boxHeight(a.box)).length >= 3,
  );
  if (dock.length < 3) return out;
  const top = Math.min(...dock.map((a) => a.box[1]));
  for (const r of wallpaperBelowGrid(rows, top, aspect)) if (!SEARCH.test(r.label.trim())) out.add(r);
  const strip = STRIP_PT / SCREEN_PT / aspect;
  const inStrip = (r: Candidate): boolean => centreY(r.box) < top && centreY(r.box) > top - strip;
  // The page indicator must have been found in the strip: it is what says this is a home screen's.
  // The grid ends above it (an app's name never reaches the indicator's level), so the wallpaper strip
  // runs from half the indicator's height above it down to the dock.
  const indicator = rows.find(
    (r) =>
      inStrip(r) &&
      ((r.kind === "button" && r.label === "page dots") ||
        (r.kind === "text" && SEARCH.test(r.label.trim()))),
  );
  if (!indicator) return out;
  const from = indicator.box[1] - 0.5 * boxHeight(indicator.box);
  for (const r of rows) {
    if (r === indicator || (r.kind !== "text" && r.kind !== "icon")) continue;
    if (r.kind === "text" && SEARCH.test(r.label.trim())) continue;
    // A badge on a dock app's corner reaches above the dock: it is the app's, not the wallpaper's.
    const onDock = dock.some((a) => r.box[3] > a.box[1] && r.box[0] < a.box[2] && r.box[2] > a.box[0]);
    if (!onDock && centreY(r.box) > from && centreY(r.box) < top) out.add(r);
  }
  return out;
}
