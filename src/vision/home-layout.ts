import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * SpringBoard's home-screen grid (iOS 14 and later) in fractions of the screen, and whether a listing is a
 * home screen's. The metrics come from Apple's published sizes, not from any screen:
 * - App icons are 60 pt squares on every iPhone (HIG "App icons", iPhone home screen: 180 px @3x, 120 px @2x).
 * - Widgets (HIG "Widgets", Specifications, "Widget dimensions") on a 390×844 pt iPhone are small 158×158,
 *   medium 338×158, large 338×354 pt; on a 375×667 pt one 148×148, 321×148, 321×324 pt. A small widget
 *   takes 2×2 icon cells, a medium 4×2, a large 4×4, in the same 4-column grid, so the grid's pitches follow
 *   from them: a medium is two smalls plus the gap between them and both are centred on their cells, so the
 *   column pitch is (medium − small) / 2 (390 pt wide: 90 pt; 414: 95.5, which the development set's
 *   iPhone 11 home screen shows to the point) and the row pitch (large height − small) / 2. Columns are
 *   centred on the screen: ±0.5 and ±1.5 pitches from its middle; small widgets sit on ±1 pitch.
 * - A name line (apps and widgets alike) is centred 14 pt below its tile's or widget's bottom (measured on
 *   the development set's iOS 14/15 home screens: 43.5–45 pt from a 60 pt tile's centre, 97.7–98.2 pt from
 *   a 169 pt widget's, name lines 10–13 pt tall).
 * - The dock holds up to 4 apps, unnamed, at the grid's column pitch, centred as a group.
 * Face ID iPhones (390–430 pt wide) give these fractions within ±0.006 of the 390 pt ones (a column's centre,
 * a pitch), so one class per aspect is enough: a camera frame's rectified screen keeps no pixel size.
 */
export interface HomeGrid {
  /** Screen size in points of the class (`w` across, `h` down). */
  w: number;
  h: number;
  small: number;
  medium: number;
  large: number;
}

const FACE_ID: HomeGrid = { w: 390, h: 844, small: 158, medium: 338, large: 354 };
/** The other Face ID sizes of the same HIG table: their row pitches differ by up to 8 pt a row. */
const FACE_ID_OTHERS: readonly HomeGrid[] = [
  { w: 375, h: 812, small: 155, medium: 329, large: 345 },
  { w: 414, h: 896, small: 169, medium: 360, large: 379 },
  { w: 428, h: 926, small: 170, medium: 364, large: 382 },
];
const HOME_BUTTON: HomeGrid = { w: 375, h: 667, small: 148, medium: 321, large: 324 };

export const ICON_PT = 60;
/** A name line's centre below its tile's (or widget's) bottom. */
export const NAME_BELOW_PT = 14;
/** How far (points) a name's centre may sit from its slot's. */
const SLOT_SLACK_PT = 12;
/** A home-screen name line's height in points (about 12 pt type; OCR's box 8–22 pt). */
const NAME_MIN_PT = 7;
const NAME_MAX_PT = 22;
/** Names are short: SpringBoard truncates a label to its column (about 12 characters). */
const MAX_NAME_CHARS = 24;
/** The grid's names end above this share of the height (page indicator and dock below). */
export const GRID_BOTTOM = 0.8;
/** The status bar's band: no name sits in it. */
const GRID_TOP = 0.06;

/**
 * The grid for a screen of this height / width: a home-button iPhone's, or of the Face ID sizes (one
 * aspect) the one whose rows of names hold the most name lines of `rows` (390×844 pt on a tie).
 */
export function homeGrid(aspect: number, rows: readonly Candidate[]): HomeGrid {
  if (aspect < 2) return HOME_BUTTON;
  let best = FACE_ID;
  let most = -1;
  for (const g of [FACE_ID, ...FACE_ID_OTHERS]) {
    const phase = namePhase(g, rows);
    const n = rows.filter((r) => nameSlot(g, r, rows, phase) !== undefined).length;
    if (n > most) {
      best = g;
      most = n;
    }
  }
  return best;
}

export const colPitch = (g: HomeGrid): number => (g.medium - g.small) / 2;
export const rowPitch = (g: HomeGrid): number => (g.large - g.small) / 2;

/** The four icon columns' centres, fractions of the width. */
export function columnCentres(g: HomeGrid): number[] {
  const p = colPitch(g) / g.w;
  return [-1.5, -0.5, 0.5, 1.5].map((k) => 0.5 + k * p);
}

/** Widget centres, fractions of the width: the two small widgets' and the medium/large one's. */
export function widgetCentres(g: HomeGrid): { small: number[]; wide: number } {
  const p = colPitch(g) / g.w;
  return { small: [0.5 - p, 0.5 + p], wide: 0.5 };
}

/** A grid slot; `row` is the grid row (0 = top) whose name level the line is on, when the phase is known. */
export type Slot = ({ kind: "app"; x: number } | { kind: "widget"; x: number; wide: boolean }) & {
  row?: number;
};

/** The grid slot whose name line is centred at `x` (fraction of the width), if any. */
export function slotAt(g: HomeGrid, x: number): Slot | undefined {
  const slack = SLOT_SLACK_PT / g.w;
  const col = columnCentres(g).find((c) => Math.abs(c - x) <= slack);
  if (col !== undefined) return { kind: "app", x: col };
  const w = widgetCentres(g);
  const small = w.small.find((c) => Math.abs(c - x) <= slack);
  if (small !== undefined) return { kind: "widget", x: small, wide: false };
  if (Math.abs(w.wide - x) <= slack) return { kind: "widget", x: w.wide, wide: true };
  return undefined;
}

/**
 * The first grid row's tile top on a Face ID iPhone's home page, as a share of the height: 0.090 on the
 * development set's iPhone 11 screenshot (414×896 pt, iOS 14) and 0.089–0.092 on its 428×926 pt ones (iOS
 * 15). Home-button iPhones have no default: there the rows' phase comes from named apps only.
 */
const FIRST_ROW_TOP = 0.09;
/** A name line's centre lies within this many points of its row's name level. */
const LEVEL_SLACK_PT = 12;
/** Nothing is written this close above an app's name line (the gap under its tile, 7 pt) … */
const CLEAR_ABOVE_PT = 9;
/** … nor this close under it (the gap to the next row's tile, about 18 pt). */
const CLEAR_BELOW_PT = 12;

/**
 * Where the grid's rows of names lie: the first row's name centre (fraction of the height), from named
 * apps on the columns when there are any (their names are on a row's level), else from `FIRST_ROW_TOP`;
 * undefined when neither is known (a home-button iPhone with no named app).
 */
export function namePhase(g: HomeGrid, rows: readonly Candidate[]): number | undefined {
  const pitch = rowPitch(g) / g.h;
  const level0 = FIRST_ROW_TOP + (ICON_PT + NAME_BELOW_PT) / g.h;
  const cols = columnCentres(g);
  const slack = SLOT_SLACK_PT / g.w;
  const offsets = rows
    .filter(
      (r) =>
        r.kind === "app" &&
        r.labelBox !== undefined &&
        centreY(r.box) < GRID_BOTTOM &&
        cols.some((c) => Math.abs(centreX(r.box) - c) <= slack),
    )
    .map((r) => {
      const d = (centreY(r.labelBox ?? r.box) - level0) / pitch;
      return (d - Math.round(d)) * pitch;
    })
    .sort((a, b) => a - b);
  const mid = offsets[Math.floor(offsets.length / 2)];
  if (mid !== undefined) return level0 + mid;
  return g === HOME_BUTTON ? undefined : level0;
}

/**
 * Whether a text row can be a home-screen name line (an app's or a widget's): short, of the label's size,
 * centred on a grid slot and on a row's name level (`phase`), between the status bar and the dock, with
 * the gaps around it clear of text; and every other text on its line sits on a slot too (a widget's
 * content line — "Locks  Tires (psi)  Ignition" — has words off the grid).
 */
export function nameSlot(
  g: HomeGrid,
  r: Candidate,
  rows: readonly Candidate[],
  phase: number | undefined,
): Slot | undefined {
  if (r.kind !== "text") return undefined;
  const label = Array.from(r.label.trim());
  if (label.length === 0 || label.length > MAX_NAME_CHARS) return undefined;
  const y = centreY(r.box);
  if (y < GRID_TOP || y > GRID_BOTTOM) return undefined;
  const h = boxHeight(r.box) * g.h;
  if (h < NAME_MIN_PT || h > NAME_MAX_PT) return undefined;
  let row: number | undefined;
  if (phase !== undefined) {
    const pitch = rowPitch(g) / g.h;
    const d = (y - phase) / pitch;
    row = Math.round(d);
    if (Math.abs(d - row) * pitch * g.h > LEVEL_SLACK_PT) return undefined;
  }
  const slot = slotAt(g, centreX(r.box));
  if (!slot) return undefined;
  // A widget takes two grid rows or four: its caption is never on the first row's level (the widget's
  // content there, over a caption-like line, is not a caption).
  if (slot.kind === "widget" && row !== undefined && row < 1) return undefined;
  const maxW = slot.kind === "app" ? colPitch(g) : slot.wide ? g.medium : g.small;
  if (boxWidth(r.box) * g.w > 1.05 * maxW) return undefined;
  const crowded = rows.some((o) => {
    if (o === r || o.kind !== "text") return false;
    if (Math.abs(centreY(o.box) - y) < 0.6 * boxHeight(r.box)) return slotAt(g, centreX(o.box)) === undefined;
    if (o.box[0] >= r.box[2] || o.box[2] <= r.box[0]) return false;
    const above = (r.box[1] - o.box[3]) * g.h;
    const below = (o.box[1] - r.box[3]) * g.h;
    // A widget's content may run down to its bottom edge, 7 pt over the caption: only apps' names are
    // checked above (their tile's artwork ends well inside the tile).
    return (
      (slot.kind === "app" && above >= -1 && above < CLEAR_ABOVE_PT) ||
      (below >= -1 && below < CLEAR_BELOW_PT)
    );
  });
  if (crowded) return undefined;
  return row === undefined ? slot : { ...slot, row };
}

/** Whether a row is the size of an app tile (45–80 pt on its longer side). */
export function tileSized(g: HomeGrid, r: Candidate): boolean {
  const side = Math.max(boxWidth(r.box) * g.w, boxHeight(r.box) * g.h);
  const short = Math.min(boxWidth(r.box) * g.w, boxHeight(r.box) * g.h);
  return side >= 45 && side <= 80 && short >= 0.7 * side;
}

/** The dock's apps: tile-sized app or icon rows on one line in the bottom 15% of the screen. */
export function dockRow(g: HomeGrid, rows: readonly Candidate[]): Candidate[] {
  const low = rows.filter(
    (r) => (r.kind === "app" || r.kind === "icon") && centreY(r.box) > 0.85 && tileSized(g, r),
  );
  let best: Candidate[] = [];
  for (const a of low) {
    const line = low.filter((b) => Math.abs(centreY(a.box) - centreY(b.box)) < 0.4 * boxHeight(a.box));
    if (line.length > best.length) best = line;
  }
  return best.sort((a, b) => centreX(a.box) - centreX(b.box));
}

/**
 * Whether the listing is a home screen's: two named apps on the grid's columns, or a page indicator above
 * a dock of two or more tiles (or three dock apps without names, as `home-wallpaper.ts` reads a dock), or a
 * page indicator with two name lines on the grid.
 */
export function isHomeScreen(g: HomeGrid, rows: readonly Candidate[]): boolean {
  const slack = SLOT_SLACK_PT / g.w;
  const cols = columnCentres(g);
  const named = rows.filter(
    (r) =>
      r.kind === "app" &&
      r.labelBox !== undefined &&
      centreY(r.box) < GRID_BOTTOM &&
      cols.some((c) => Math.abs(centreX(r.box) - c) <= slack),
  );
  if (named.length >= 2) return true;
  const dots = rows.some(
    (r) =>
      r.kind === "button" &&
      r.label === "page dots" &&
      centreY(r.box) > 0.74 &&
      centreY(r.box) < 0.88 &&
      Math.abs(centreX(r.box) - 0.5) < 0.05,
  );
  const dock = dockRow(g, rows);
  const unnamedDockApps = dock.filter((r) => r.kind === "app" && !r.labelBox).length;
  if (unnamedDockApps >= 3) return true;
  if (!dots) return false;
  if (dock.length >= 2) return true;
  const phase = namePhase(g, rows);
  return rows.filter((r) => nameSlot(g, r, rows, phase)?.kind === "app").length >= 2;
}
