import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { median } from "../shared/median.js";
import { FILL_TOL, type Luma, scanCardTops, screenLuma } from "./card-top.js";
import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY } from "./row.js";

/**
 * A modal card inset from both sides of the screen over a page that stays visible beside and above it,
 * and the card's box.
 *
 * UIKit draws two kinds of these on an iPhone. iOS 26 floats a sheet at its partial detents a few
 * points in from the screen's sides (the display's corner radius on its top corners); and a custom
 * presentation (`.overCurrentContext` / `.custom` with a `UIPresentationController`, as colour-picker
 * and settings cards do) insets its card by the layout margin, 16–20 pt, often without a dimming view,
 * so the page behind keeps its full colour. Either way the page is inert while the card is up (HIG
 * "Modality"): a tap on it dismisses the card or does nothing, so its controls are not targets, and the
 * bits of its rows peeking out of the strips beside the card (a row's first letter, its icon, an edge)
 * are fragments of hidden rows.
 *
 * A grouped-inset table's section (`UITableView.Style.insetGrouped`, iOS 13+) looks the same locally: a
 * card with rounded corners 16–20 pt in from the sides. Two things tell a card over a page from it:
 * - **the page shows beside the card**: a grouped table's margins are plain `systemGroupedBackground`,
 *   while a page behind a card runs on under it, so its rows' edges, separators, letters and icons are
 *   cut by the card's sides;
 * - **the card has its own navigation bar**: a presented `UINavigationController` draws its bar at the
 *   card's top, a centred title with a bar button on the same line near the card's trailing edge; a
 *   grouped table's section never starts with a centred title and a button beside it.
 */

/** Screen width in points used to turn points into pixels: iPhones are 320–440 pt wide. */
const WIDTH_PT = 390;
/** The card's top lies between these fractions of the height: under the status bar, above the bottom third. */
const TOP_MIN = 0.06;
const TOP_MAX = 0.66;
/** The middle of the screen, clear of the card's rounded corners, sampled for its fill. */
const MID_L = 0.2;
const MID_R = 0.8;
/** The row above the top differs from the fill by this many levels (`card-top.ts`). */
const STEP = 10;
/** Depths (points) under the top where the card's sides are measured, past its corners (≤ 55 pt radius). */
const SIDE_DEPTHS_PT = [12, 24, 36, 48, 60];
/** Of those depths, at least this many agree on the side within `SIDE_AGREE_PT`. */
const SIDE_VOTES = 3;
const SIDE_AGREE_PT = 1.5;
/** The card's sides are this many points in from the screen's: iOS 26's floating sheet to 2 × the layout margin. */
const INSET_MIN_PT = 6;
const INSET_MAX_PT = 28;
/** Its two sides are this symmetric (points): a presented card is centred. */
const SYMMETRY_PT = 2;
/** The card's corner radius is at most this (points): the display's, ~55 pt on iOS 26's floating sheets. */
const CORNER_MAX_PT = 60;
/** The card's inner margin keeps one colour within this many levels on this fraction of its rows. */
const RUN_TOL = 12;
const RUN_COVER = 0.8;
/** At this depth under the top, a rounded corner (≥ 10 pt radius: 4.7 pt) keeps fill this far in from the side. */
const CORNER_DEPTH_PT = 1.5;
const CORNER_MIN_PT = 3;
/**
 * A strip beside the card shows page content when at least this fraction of its rows (under the card's
 * top) span this many levels across the strip: a letter, an icon or a cell's edge cut by the card. A
 * grouped table's margin is one flat colour (a camera frame's noise stays within ~10 levels), and a bar
 * running across the screen under the card (a tab bar, a mini player) is flat across the strip too.
 */
const STRIP_ROWS = 0.06;
const STRIP_OFF = 28;
/** A scroll indicator (3 pt wide, 3 pt from the edge) is left out of the right strip. */
const SCROLL_PT = 7;
/** A navigation bar's title: centred within this fraction of the width, its top within this many points of the card's. */
const TITLE_CENTRED = 0.04;
const TITLE_TOP_PT = 60;
/** … with no other row on its line within this many points of its sides. */
const TITLE_APART_PT = 16;
/**
 * … and its bar button ends within this many points of the card's trailing side: a bar button item's
 * title sits at the bar's layout margin (16 pt; 20 pt on the widest phones). A segmented control's
 * trailing label, centred in its segment, ends further in.
 */
const BAR_BUTTON_PT = 24;

/**
 * The card's box (screen fractions, from its top to the screen's bottom), or undefined when no inset
 * card over a visible page is up (see the module comment). `rows` are the listing's rows so far (the
 * card's navigation bar is found from them). Never on a home screen (an `[app]` or `[widget]` row): a
 * large widget is a 338 pt tile inset 26 pt from both sides with rounded corners over a wallpaper that
 * shows beside it — an inset card's look — and SpringBoard presents no app's card over its pages.
 */
export function findInsetCard(screen: RgbImage, rows: readonly Candidate[]): FracBox | undefined {
  if (rows.some((r) => r.kind === "app" || r.kind === "widget")) return undefined;
  const { width: W, height: H } = screen;
  const luma = screenLuma(screen);
  const pt = W / WIDTH_PT;
  const scan = { pt, midL: MID_L, midR: MID_R, topMin: TOP_MIN, topMax: TOP_MAX, step: STEP };
  let card: FracBox | undefined;
  scanCardTops(screen, luma, { ...scan, depthPt: Math.max(...SIDE_DEPTHS_PT) }, (y, fill) => {
    const sides = cardSides(luma, W, pt, y, fill);
    if (!sides) return true;
    // The first rounded inset top is the card's; a grouped table's first section ends the scan.
    if (!runsToBottom(luma, H, pt, y, sides)) return false;
    const box: FracBox = [sides[0] / W, y / H, (sides[1] + 1) / W, 1];
    if (pageBeside(luma, W, H, pt, y, sides) || ownNavigationBar(rows, box, pt / W, pt / H)) card = box;
    return false;
  });
  return card;
}

/**
 * The card's left and right columns when the fill starting at row `y` has a rounded top corner and
 * straight sides inset symmetrically by `INSET_MIN_PT`–`INSET_MAX_PT` from the screen's.
 */
function cardSides(luma: Luma, W: number, pt: number, y: number, fill: number): [number, number] | undefined {
  const isFill = (x: number, yy: number): boolean => Math.abs(luma(x, yy) - fill) <= FILL_TOL;
  const run = Math.max(2, Math.round(2 * pt)); // a side is where ≥ 2 pt of fill in a row begin
  const limit = Math.round(0.25 * W);
  const side = (yy: number, dir: 1 | -1): number => {
    let on = 0;
    for (let i = 0; i < limit; i++) {
      on = isFill(dir === 1 ? i : W - 1 - i, yy) ? on + 1 : 0;
      if (on >= run) return i - run + 1;
    }
    return limit;
  };
  const corners: boolean[] = [];
  const insets = ([1, -1] as const).map((dir) => {
    const at = SIDE_DEPTHS_PT.map((d) => side(y + Math.round(d * pt), dir));
    // The side most depths agree on: content inside the card may touch its edge on a row or two.
    const best = at.find((a) => at.filter((b) => Math.abs(a - b) <= SIDE_AGREE_PT * pt).length >= SIDE_VOTES);
    if (best === undefined || best < INSET_MIN_PT * pt || best > INSET_MAX_PT * pt) return undefined;
    corners.push(side(y + Math.max(1, Math.round(CORNER_DEPTH_PT * pt)), dir) - best >= CORNER_MIN_PT * pt);
    return best;
  });
  const [l, r] = insets;
  if (l === undefined || r === undefined || Math.abs(l - r) > SYMMETRY_PT * pt) return undefined;
  // One rounded corner is enough: a bar button or a page's glyph behind the other corner can fill it.
  return corners.some((c) => c) ? [l, W - 1 - r] : undefined;
}

/**
 * Whether the card runs on to the bottom of the screen, as a presented card does (it rises from the
 * bottom edge): an inner margin, just inside one of its sides, keeps one colour (its background; a
 * header band at its top may differ) on at least `RUN_COVER` of the rows down to the home indicator. A text field's card, a button or a grouped
 * section ends a little way down.
 */
function runsToBottom(luma: Luma, H: number, pt: number, y: number, sides: [number, number]): boolean {
  const dx = Math.max(1, Math.round(3 * pt));
  const y0 = y + Math.round(CORNER_MAX_PT * pt); // under the rounded corners
  const y1 = Math.round(0.95 * H);
  if (y1 <= y0) return false;
  const margins = [sides[0] + dx, sides[1] - dx];
  // One side is enough: the card's scroll indicator (3 pt wide, 3 pt in; UIKit) runs down the other.
  return margins.some((x) => {
    const values: number[] = [];
    for (let yy = y0; yy < y1; yy++) values.push(luma(x, yy));
    const body = median(values);
    return values.filter((v) => Math.abs(v - body) <= RUN_TOL).length >= RUN_COVER * values.length;
  });
}

/** Whether the strips beside the card (under its top) show page content rather than one flat margin. */
function pageBeside(
  luma: Luma,
  W: number,
  H: number,
  pt: number,
  y: number,
  sides: [number, number],
): boolean {
  const gap = Math.max(1, Math.round(3 * pt)); // clear of the card's edge and its shadow's darkest part
  const strips: [number, number][] = [
    [Math.round(pt), sides[0] - gap],
    [sides[1] + gap, W - Math.round(SCROLL_PT * pt)],
  ];
  const y0 = y + Math.round(4 * pt);
  const y1 = Math.round(0.96 * H); // above the home indicator
  return strips.some(([x0, x1]) => {
    if (x1 <= x0 || y1 <= y0) return false;
    let rowsOff = 0;
    let rowsAll = 0;
    for (let yy = y0; yy < y1; yy++) {
      rowsAll++;
      let lo = 255;
      let hi = 0;
      for (let x = x0; x < x1; x++) {
        const v = luma(x, yy);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      if (hi - lo > STRIP_OFF) rowsOff++;
    }
    return rowsOff >= STRIP_ROWS * rowsAll;
  });
}

/**
 * Whether the card starts with a navigation bar of its own: a centred text row near its top standing
 * alone on its line (a bar's title is set apart from its bar buttons: they sit at the bar's margins)
 * and a text row on the same line ending near the card's trailing side (its Done / Save bar button).
 */
function ownNavigationBar(rows: readonly Candidate[], card: FracBox, ptX: number, ptY: number): boolean {
  const mid = (card[0] + card[2]) / 2;
  return rows.some((t) => {
    if (t.kind !== "text" || Math.abs(centreX(t.box) - mid) > TITLE_CENTRED) return false;
    if (t.box[1] < card[1] || t.box[1] > card[1] + TITLE_TOP_PT * ptY) return false;
    const line = rows.filter((b) => b !== t && Math.abs(centreY(b.box) - centreY(t.box)) < boxHeight(t.box));
    if (
      line.some(
        // Only text counts: at this stage the detector often boxes the title's own ink as an icon.
        (b) =>
          b.kind === "text" &&
          b.box[0] < t.box[2] + TITLE_APART_PT * ptX &&
          b.box[2] > t.box[0] - TITLE_APART_PT * ptX,
      )
    )
      return false;
    return line.some(
      (b) =>
        b.kind === "text" &&
        b.box[0] > t.box[2] &&
        b.box[2] <= card[2] &&
        b.box[2] >= card[2] - BAR_BUTTON_PT * ptX,
    );
  });
}
