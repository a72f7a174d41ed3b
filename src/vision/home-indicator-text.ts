import type { Candidate } from "./row.js";
import { centreY } from "./row.js";

/**
 * Text in the home indicator's strip, under a bottom bar.
 *
 * On Face ID iPhones (screens taller than 2:1) the bottom 34 pt is the home indicator's safe-area inset
 * (HIG "Layout": keep controls out of it; UIKit `safeAreaInsets.bottom` = 34 pt). A bottom bar — a tab
 * bar or a toolbar, classic or iOS 26's floating glass — sits above that inset and its material extends
 * into it: a classic bar's background covers the page there (`UIBarAppearance` extends to the screen's
 * edge), and iOS 26's scroll edge effect fades and blurs the page under a floating bar, whose capsule
 * dips into the inset's top (`UIScrollEdgeEffect`). So when a bar's controls lie at the screen's foot,
 * text read wholly inside the strip and below their feet is page content seen faded under the bar's
 * edge, never a label or a control. A bar's own title sits right under its symbol (a tab item's
 * 2–4 pt gap), so text that close under a control stays; without a bar above, the strip shows the
 * scrolled page itself (a settings list's last row) and its text stays.
 */

/** Face ID screens are taller than this (19.5:9 ≈ 2.17; Touch ID phones are 16:9 ≈ 1.78). */
const FACE_ID_ASPECT = 2;
/** The strip's top: the inset (34 pt) over the tallest screen's height (932 pt), the smallest share. */
const STRIP_TOP = 1 - 34 / 932;
/**
 * A bar's controls are centred in its band: a tab bar or toolbar with the inset is 83 pt, the largest
 * share of the shortest Face ID screen (812 pt); a list's content further up is no bar.
 */
const BAR_ZONE = 1 - 83 / 812;
/** A bar item is a symbol or a symbol's round button: about square (a list's photo strip is not). */
const SQUARE = 2;
/** A tab item's title lies within this (fraction of the height, ~8 pt) under its symbol's box. */
const TITLE_GAP = 0.01;
/**
 * A list cell's leading image (an avatar, a symbol) has its title starting this close to its right
 * (fraction of the width, ~24 pt: UIKit's 16 pt image-to-text padding plus a narrow symbol centred in
 * its reserved width) on its own line; a bar's items have no text beside them, only titles under them.
 */
const LEADING_GAP = 0.06;

/** The text rows of `rows` inside the home indicator's strip under a bottom bar (see the module comment). */
export function textUnderBottomBar(rows: readonly Candidate[], aspect: number): Set<Candidate> {
  const out = new Set<Candidate>();
  if (aspect < FACE_ID_ASPECT) return out;
  const squarish = (r: Candidate): boolean => {
    const ratio = (r.box[2] - r.box[0]) / ((r.box[3] - r.box[1]) * aspect); // width over height, in pixels
    return ratio <= SQUARE && ratio >= 1 / SQUARE;
  };
  const bar = rows.filter(
    (r) =>
      (r.kind === "icon" || r.kind === "button") &&
      centreY(r.box) >= BAR_ZONE &&
      centreY(r.box) < STRIP_TOP &&
      squarish(r) &&
      !leadsText(r, rows),
  );
  if (bar.length === 0) return out;
  const barFoot = Math.max(...bar.map((r) => r.box[3]));
  const titleOf = (t: Candidate): boolean =>
    bar.some((c) => t.box[0] < c.box[2] && t.box[2] > c.box[0] && t.box[1] - c.box[3] < TITLE_GAP);
  for (const r of rows)
    if (r.kind === "text" && r.box[1] >= Math.max(STRIP_TOP, barFoot) && !titleOf(r)) out.add(r);
  return out;
}

/** Whether a text row starts just right of `item` on its line: `item` is a list cell's leading image. */
function leadsText(item: Candidate, rows: readonly Candidate[]): boolean {
  return rows.some(
    (t) =>
      t.kind === "text" &&
      t.box[0] >= item.box[2] - 0.01 &&
      t.box[0] - item.box[2] < LEADING_GAP &&
      centreY(t.box) > item.box[1] &&
      centreY(t.box) < item.box[3],
  );
}
