import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { inkContrast } from "./ink-spread.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * Icon rows that only box a line of text, and app tiles cut by the screen's edge.
 *
 * - **A box around text.** An icon is a glyph or an image (HIG "Icons", SF Symbols); when the only ink in
 *   an icon row's box is a line of words that OCR already read — a home-screen app's name under its tile, a call
 *   button's caption, a line of stats — the detector boxed the words, not a control, and the words keep
 *   their own row. The text is a text row's box or a named row's `labelBox` (an app's name); around it
 *   the box must be blank: no glyph, no border (a bordered or filled button's edge is ink, so such a
 *   button keeps its row).
 * - **A tile cut by the screen's edge.** iOS lays content inside layout margins (16–20 pt, HIG "Layout";
 *   UIKit `readableContentGuide`/`layoutMargins`) and centres an app's name under its tile, truncated to
 *   the tile's column. A name running into the screen's side is therefore clipped, so its tile is the
 *   next one of a horizontal scroller (a share sheet's app row), shown only in part: a person scrolls
 *   before tapping it, and its name is not what the app is called.
 */

/** Around the text, the box is blank when its luma spreads less than this (levels): JPEG noise on a flat
 * fill or a soft gradient; iOS's faintest ink (`quaternaryLabel`, 18% opacity) spreads ~35 levels. */
const BLANK_AROUND = 16;
/** Ink of the text reaches this fraction of its line height past its OCR box (descenders, anti-aliasing). */
const TEXT_PAD = 0.3;
/** A line belongs to the box when at least this fraction of its area lies inside it. */
const LINE_INSIDE = 0.5;
/** A name this close (fraction of the width, ~2 pt) to the screen's side runs into it. */
const EDGE = 0.005;

/** The rows of `rows` to drop (see the module comment); `screen` is read for the blank test. */
export function iconsOnText(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const lines: FracBox[] = [];
  for (const r of rows) {
    // A one-letter "line" is often a glyph the OCR read as a letter (a ✕ as `x`, a compass as `D`):
    // the glyph is the icon's own ink, so it is not a hole.
    if (!isWords(r.label)) continue;
    if (r.kind === "text") lines.push(r.box);
    else if (r.labelBox) lines.push(r.labelBox);
  }
  for (const r of rows) {
    if (r.kind === "app" && r.labelBox && cutByEdge(r.box, r.labelBox)) {
      out.add(r);
      continue;
    }
    if (r.kind !== "icon") continue;
    const inside = lines.filter((l) => overlapArea(l, r.box) >= LINE_INSIDE * area(l));
    if (inside.length === 0) continue;
    // A text line whose centre lies outside the icon is a neighbour, not the icon's content.
    if (!inside.some((l) => contains(r.box, centreX(l), centreY(l)))) continue;
    const holes = inside.map((l): FracBox => {
      const pad = TEXT_PAD * boxHeight(l);
      return [l[0] - pad, l[1] - pad, l[2] + pad, l[3] + pad];
    });
    if (inkContrast(screen, r.box, holes) < BLANK_AROUND) out.add(r);
  }
  return out;
}

/** Whether an app's tile and name run into the screen's side (see the module comment). */
function cutByEdge(box: FracBox, name: FracBox): boolean {
  return (name[2] >= 1 - EDGE && box[2] >= 1 - EDGE) || (name[0] <= EDGE && box[0] <= EDGE);
}

/** Two or more characters, or one ideograph (a Chinese word can be one character). */
function isWords(label: string): boolean {
  const chars = [...label.replace(/\s/gu, "")];
  return chars.length >= 2 || (chars.length === 1 && /\p{Script=Han}/u.test(chars[0] ?? ""));
}

const area = (b: FracBox): number => Math.max(0, boxWidth(b)) * Math.max(0, boxHeight(b));

function overlapArea(a: FracBox, b: FracBox): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}
