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
