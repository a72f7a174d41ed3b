import type { FracBox } from "../shared/box.js";
import type { Candidate } from "./row.js";

/**
 * Text rows that are a second read of another text row's ink.
 *
 * One line of ink is one line of text: a label is drawn once, on its own baseline (UIKit's `UILabel`
 * draws its text in one box). When the OCR reads the same ink twice — a camera's blur lets one detector
 * pass find a line and another pass a piece of it (a widget's caption over wallpaper lettering read both
 * as `BlNiptable` and `H Scri`) — the smaller box lies wholly inside the larger one. Two different lines
 * never nest: lines stack, and words on one line sit side by side, their boxes at most touching. So the
 * row whose box lies inside another text row's box is dropped; the larger row, which holds the whole
 * line, stays.
 */

/** Share of the smaller row's area inside the larger row: all of it but the boxes' jitter (~1 px). */
const INSIDE = 0.9;

/** The text rows of `rows` that lie inside a larger text row (see the module comment). */
export function nestedTextRows(rows: readonly Candidate[]): Set<Candidate> {
  const texts = rows.filter((r) => r.kind === "text");
  const out = new Set<Candidate>();
  for (const r of texts) {
    const a = area(r.box);
    if (a <= 0) continue;
    const host = texts.find((o) => o !== r && area(o.box) > a && overlap(o.box, r.box) >= INSIDE * a);
    if (host) out.add(r);
  }
  return out;
}

const area = (b: FracBox): number => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);

function overlap(a: FracBox, b: FracBox): number {
  return area([Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]);
}
