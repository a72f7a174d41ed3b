import type { Candidate } from "./row.js";
import { boxHeight } from "./row.js";

/**
 * The info button read as a character at a line's end. UIKit's detail-disclosure and info buttons
 * (`UIButton.ButtonType.detailDisclosure` / `.infoLight`: a circled "i", SF Symbol `info.circle`) sit at
 * the trailing end of a table cell — Phone's Recents, Wi-Fi networks, Contacts — right after the cell's
 * right-aligned detail text (`Yesterday ⓘ`). The recogniser has no `ⓘ`; it reads the circle as the
 * nearest character it has, a circled digit `①` (PP-OCR's dictionary holds ①–⑩), and the text detector
 * boxes the glyph with the detail text as one line, so the button is lost inside a text row.
 *
 * A text row whose last character is a circled i or 1, after a space, is split: the text before it stays
 * a `text` row, and the glyph becomes a `[button] "info"`. The glyph is a circle, as wide as the line's
 * ink is tall, at the box's trailing end: its box is the line's height square at the right edge. A row
 * that is the glyph alone becomes the button.
 */

const INFO = /^(.*\S)?\s*[①ⓘⒾ]$/u;
/** Space left between the text and the glyph, in glyph widths (the cell's 8 pt spacing before a 22 pt button). */
const GAP = 0.35;

/** The rows with each info glyph read at a line's end split into its text and an `info` button. */
export function splitInfoGlyphs(rows: readonly Candidate[], aspect: number): Candidate[] {
  const out: Candidate[] = [];
  for (const r of rows) {
    const m = r.kind === "text" ? INFO.exec(r.label.trim()) : null;
    // A lone glyph or one after a space: `Yesterday ①`; a `①` glued to a word is a list's numbering.
    if (!m || (m[1] !== undefined && !/\s[①ⓘⒾ]$/u.test(r.label.trim()))) {
      out.push(r);
      continue;
    }
    const [l, t, right, b] = r.box;
    const w = Math.min(right - l, boxHeight(r.box) * aspect);
    out.push({ kind: "button", label: "info", box: [right - w, t, right, b], conf: r.conf });
    if (m[1] !== undefined)
      out.push({ ...r, label: m[1], box: [l, t, Math.max(l, right - w * (1 + GAP)), b] });
  }
  return out;
}
