import { luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { edgeLumas, inkColoursDiffer, isTinted, middle } from "./ink-colour.js";

/**
 * A text field's insertion point read as a last letter (`apple|` read `applel`). UIKit draws the caret
 * of a `UITextField` / `UITextView` being edited as a 2 pt bar in the view's `tintColor` (systemBlue by
 * default, the app's tint otherwise), from above the ascenders to below the descenders, right after the
 * last character — Apple, UIKit `UITextInput.caretRect(for:)`, `UIView.tintColor`. Screenshots of forms
 * with the keyboard up show it. A trailing `l`/`I`/`|`/`1` whose ink is such a bar — thin, at least as
 * tall as the rest of the line's ink, tinted while the text before it is another colour — is no
 * character: one label draws in one colour, and SF Pro's `l` stands inside the line's ascender band.
 */

/** The last read character that a caret is read as. */
const BAR_READ = /[lI|1]$/;
/** Widest (share of its height) a caret's ink run may be: 2 pt wide, about 1.2 em tall. */
const BAR_ASPECT = 0.2;
/** Least height (share of the rest of the line's ink) of the caret: it spans ascender to descender. */
const BAR_HEIGHT = 0.95;
/** Share of a caret column's rows, top to bottom of its ink, that hold ink: a filled bar. */
const SOLID = 0.9;

/** `text` without a trailing caret read as a letter, when the ink at the line's right end is one. */
export function withoutCaret(text: string, image: RgbImage, box: PixelBox): string {
  if (text.length < 2 || !BAR_READ.test(text)) return text;
  const x0 = Math.max(0, Math.floor(box.x0));
  const x1 = Math.min(image.width, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0));
  const y1 = Math.min(image.height, Math.ceil(box.y1));
  if (x1 - x0 < 4 || y1 - y0 < 6 || y0 < 1 || y1 >= image.height) return text;
  // Background: the rows right above and below the box.
  const bg = middle(edgeLumas(image, x0, x1, y0 - 1, y1));
  const inkAt = (x: number, y: number) => Math.abs(luma(image.data, (y * image.width + x) * 3) - bg) > 40;
  /** Column `x`'s ink: rows from its first to its last ink pixel, and how many of them hold ink. */
  const column = (x: number) => {
    let top = -1;
    let bottom = -1;
    let count = 0;
    for (let y = y0; y < y1; y++)
      if (inkAt(x, y)) {
        if (top < 0) top = y;
        bottom = y;
        count++;
      }
    return { top, bottom, solid: top >= 0 && count >= SOLID * (bottom - top + 1) };
  };
  // The caret: the solid columns at the right end (it may touch the last glyph: no blank before it).
  let right = x1 - 1;
  while (right > x0 && column(right).top < 0) right--;
  let barLeft = right + 1;
  let top = Number.POSITIVE_INFINITY;
  let bottom = -1;
  for (let c = column(barLeft - 1); c.solid && barLeft - 1 > x0; c = column(--barLeft - 1)) {
    top = Math.min(top, c.top);
    bottom = Math.max(bottom, c.bottom);
  }
  const height = bottom - top + 1;
  if (bottom < 0 || barLeft > right || right - barLeft + 1 > BAR_ASPECT * height) return text;
  let restTop = Number.POSITIVE_INFINITY;
  let restBottom = -1;
  for (let x = x0; x < barLeft; x++) {
    const c = column(x);
    if (c.top >= 0) {
      restTop = Math.min(restTop, c.top);
      restBottom = Math.max(restBottom, c.bottom);
    }
  }
  if (restBottom < 0 || height < BAR_HEIGHT * (restBottom - restTop + 1)) return text;
  if (!isTinted(image, box, barLeft, right + 1)) return text;
  const gap = { x0: barLeft, x1: barLeft };
  return inkColoursDiffer(image, box, gap, x1 - x0) ? text.slice(0, -1).trimEnd() : text;
}
