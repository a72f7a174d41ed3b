import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * Rows that point at no target, cut by general rules about what iOS draws (the real-screen evaluation's
 * "spurious rows", `src/lab/real/evaluate.ts`):
 *
 * - **Wide "icons".** An icon is a compact glyph (SF Symbols and app icons are drawn in square frames;
 *   HIG "Icons"), so an icon row wider than half the screen and at least three times wider than tall is
 *   the detector boxing a whole table row, banner or card. When a named row (text, switch, app…) sits
 *   inside it, that row is the target and the wide box only lists the space around it: it goes.
 */

/** An icon row wider than this fraction of the screen … */
const WIDE_ICON = 0.5;
/** … and this many times wider than tall (in pixels) is not a glyph. */
const WIDE_ASPECT = 3;

/** `rows` without the spurious ones; `aspect` is the screen's height / width. */
export function dropSpuriousRows(rows: readonly Candidate[], aspect: number): Candidate[] {
  return rows.filter((r) => {
    if (r.kind !== "icon") return true;
    const w = boxWidth(r.box);
    if (w <= WIDE_ICON || w < WIDE_ASPECT * boxHeight(r.box) * aspect) return true;
    return !rows.some((o) => o !== r && o.kind !== "icon" && contains(r.box, centreX(o.box), centreY(o.box)));
  });
}
