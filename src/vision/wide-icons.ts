import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * An icon is a compact glyph (SF Symbols and app icons are drawn in square frames; HIG "Icons"), so an
 * icon row wider than half the screen and at least three times wider than tall is the detector boxing
 * a whole table row, banner, card or bar. `spurious.ts` drops such a box when something named sits in
 * it or it is a table row tall; the glyph and disc proposers (`glyphs.ts`, `disc-buttons.ts`) do not
 * let it claim the symbols in it (a ⊗ at a card's end, the symbols of a segmented control or a tab bar
 * boxed as one band), which are the targets.
 */

/** An icon row wider than this fraction of the screen … */
export const WIDE_ICON = 0.5;
/** … and this many times wider than tall (in pixels) is not a glyph. */
export const WIDE_ASPECT = 3;

/** Whether `r` is such a wide "icon"; `aspect` is the screen's height / width. */
export function isWideIcon(r: Candidate, aspect: number): boolean {
  const w = boxWidth(r.box);
  return r.kind === "icon" && w > WIDE_ICON && w >= WIDE_ASPECT * boxHeight(r.box) * aspect;
}

/**
 * An icon box around a small target is a container (a card, a table cell, a picture), not the target's
 * button, when it is ≥ 3× the target's width and ≥ 100 pt wide: an icon-only button's box is its hit
 * target, ≥ 44 pt (HIG) and rarely over ~60 pt even for a toolbar item, while the detector's card and
 * cell boxes run most of the screen's width (10–40× a 22 pt ⊗). A ⓘ's 44 pt box around its 16 pt inner
 * disc stays the ⓘ's. Boxes are fractions of the screen; `screenPt` is the screen's width in points.
 */
const CONTAINER_WIDTH = 3;
const CONTAINER_PT = 100;

export const containerAround = (row: Candidate["box"], target: Candidate["box"], screenPt: number): boolean =>
  row[2] - row[0] >= Math.max(CONTAINER_WIDTH * (target[2] - target[0]), CONTAINER_PT / screenPt) &&
  row[0] <= target[0] &&
  row[2] >= target[2] &&
  row[1] <= target[1] &&
  row[3] >= target[3];
