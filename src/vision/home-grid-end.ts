import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * Wallpaper below the last thing on a home screen's page. Up to iOS 17, SpringBoard fills a page's grid
 * in reading order: app icons and widgets, each with its name printed under it (app names and widget
 * names alike), leaving no holes (Apple, "Organize the Home Screen and App Library on your iPhone":
 * apps and widgets "move to make room", the grid reflows). So below the lowest name on the page, down to
 * the dock, the page shows only wallpaper — a teardown wallpaper's "A15 BIONIC", an Apple logo, the
 * battery's printed warning — and the page indicator (`home-wallpaper.ts` handles the indicator's strip).
 *
 * A name is a text row set at the Home Screen's label size (about 12 pt; OCR boxes it 8–22 pt tall) centred
 * under a grid slot: one of the grid's four columns (60 pt icons, 4 per row on a 390 pt wide screen:
 * centres at ~57, 149, 241, 333 pt), a small widget (158 pt wide: centres at ~105 and ~285 pt) or a
 * medium/large widget (full grid width: the screen's centre), with no other text closer than 10 pt on
 * its line (a name is one short line; a wallpaper's sentence is cut by OCR into abutting pieces) and
 * something right above it (its tile, or its widget's content, within 70 pt) — or an
 * app row's `labelBox`. A row that
 * could be a name counts as one, so a doubtful row only moves the end down and drops less. Icons the
 * size of an app tile are never dropped (a tile whose name OCR missed).
 *
 * The grid keeps its side margins too: the first column's icons start ~27 pt in and a widget's content
 * sits inside its 16 pt padding, so a text or icon row centred within 20 pt of the screen's side, above
 * the dock, is the wallpaper showing there (a teardown wallpaper's screw heads) wherever it is.
 */

/** Points across a portrait iPhone screen the slot centres are given for (iPhone 12–16). */
const SCREEN_PT = 390;
/** Slot centres in points: the four icon columns, the two small widgets, the medium/large widget. */
const SLOT_CENTRES_PT = [57, 149, 241, 333, 105, 285, 195];
/** How far (in points) a name's centre may sit from its slot's. */
const SLOT_SLACK_PT = 12;
/** Names in a grid row are a slot apart; text closer than this beside a line makes it a sentence's piece. */
const NAME_GAP_PT = 10;
/** A Home Screen label's row height in points (12 pt type, OCR's box around it). */
const NAME_MIN_PT = 8;
const NAME_MAX_PT = 22;
/** A name's tile or widget content ends at most this many points above it (tile 60 pt + gap). */
const ABOVE_PT = 70;
/** An app tile is 60 pt; an icon row this large on either side may be a tile, never wallpaper. */
const TILE_PT = 45;
/**
 * The page indicator's place: centred, its centre 48–72 pt above the dock apps' top (60 pt on the Face ID
 * home screens of the development set, iOS 14–16). A row there may be the indicator misread (dots as
 * letters), so it stays.
 */
function indicatorPlace(box: Candidate["box"], dockTop: number, aspect: number): boolean {
  const above = (dockTop - centreY(box)) * aspect * SCREEN_PT;
  return Math.abs(centreX(box) - 0.5) * SCREEN_PT <= INDICATOR_HALF_PT && above >= 48 && above <= 72;
}
/** Half the widest page indicator's width, in points (a dozen dots at 8 pt pitch with padding). */
const INDICATOR_HALF_PT = 40;

/** The page's side margin, in points, that holds no grid content. */
const MARGIN_PT = 20;

/**
 * The text and icon rows between the lowest name on a home screen's page and its dock (module comment).
 * `dockTop` is the dock apps' top (fraction of the height); `aspect` the screen's height / width.
 */
export function wallpaperBelowGrid(
  rows: readonly Candidate[],
  dockTop: number,
  aspect: number,
): Set<Candidate> {
  const out = new Set<Candidate>();
  const pt = (h: number): number => h * aspect * SCREEN_PT; // a height fraction in points
  const isName = (r: Candidate): boolean => {
    if (r.kind !== "text" || centreY(r.box) >= dockTop) return false;
    const h = pt(boxHeight(r.box));
    if (h < NAME_MIN_PT || h > NAME_MAX_PT) return false;
    const x = centreX(r.box) * SCREEN_PT;
    if (!SLOT_CENTRES_PT.some((c) => Math.abs(x - c) <= SLOT_SLACK_PT)) return false;
    const gap = NAME_GAP_PT / SCREEN_PT;
    const reach = ABOVE_PT / SCREEN_PT / aspect;
    const under = rows.some(
      (o) =>
        o !== r &&
        o.kind !== "status" &&
        o.box[3] <= centreY(r.box) &&
        o.box[3] > r.box[1] - reach &&
        o.box[0] < r.box[2] &&
        o.box[2] > r.box[0],
    );
    return (
      under &&
      !rows.some(
        (o) =>
          o !== r &&
          o.kind === "text" &&
          Math.abs(centreY(o.box) - centreY(r.box)) < boxHeight(r.box) &&
          o.box[0] < r.box[2] + gap &&
          o.box[2] > r.box[0] - gap,
      )
    );
  };
  const ends: number[] = [];
  for (const r of rows) {
    if ((r.kind === "app" || r.kind === "widget") && r.box[1] < dockTop)
      ends.push(Math.max(r.box[3], r.labelBox?.[3] ?? 0));
    else if (isName(r)) ends.push(r.box[3]);
  }
  if (ends.length === 0) return out;
  const end = Math.max(...ends);
  const margin = MARGIN_PT / SCREEN_PT;
  for (const r of rows) {
    if (r.kind !== "text" && r.kind !== "icon") continue;
    if (r.box[3] > dockTop) continue;
    const x = centreX(r.box);
    if (centreY(r.box) <= end && x > margin && x < 1 - margin) continue;
    if (indicatorPlace(r.box, dockTop, aspect)) continue;
    if (r.kind === "icon" && Math.max(boxWidth(r.box) * SCREEN_PT, pt(boxHeight(r.box))) >= TILE_PT) continue;
    out.add(r);
  }
  return out;
}
