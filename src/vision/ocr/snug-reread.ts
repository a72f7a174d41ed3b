import type { PixelBox } from "./detect.js";
import { type InkImage, tightenToInk } from "./ink.js";
import type { FinishedText } from "./recognize.js";

/**
 * A weakly read line read again from a crop snug to its ink's height. DB's region is the detection
 * map's kernel grown by the unclip offset; on a camera frame the lens blur widens the 320 px map's
 * kernel, so the region stands taller over the ink than on a screenshot (d-cam measured `Banners,
 * Sounds, Badges` boxed 2.4× its ink height, read at 0.69; 3 px tighter, 0.81). PP-OCR's recogniser
 * was trained on crops whose text fills most of the 48 px height, so a loose crop shrinks the glyphs
 * and blur takes the rest. Only the vertical extent changes: the crop keeps its columns, so the
 * reading's glyph, space and mark positions (fractions of the crop's width) stay valid for the box.
 * The snug reading replaces the first only when it is more confident and holds more glyphs (white space
 * aside): cutting blank rows off a crop can bring back glyphs the loose crop lost (`Backups, P` →
 * `Backups, IPv6`, a dropped comma or bracket) but adds no ink, so a snug reading of the same length or
 * shorter is a substitution or a loss, and on the dev set those went wrong as often as right (a crop at
 * the ink's bottom edge reads an ellipsis `…` as `.` and drops a middle dot `·`). Both are the
 * recogniser's own readings of the same ink, so a line is never read as something it was not seen as.
 */

/** Lines read below this confidence are read again; correct camera reads mostly score above it. */
export const SNUG_BELOW = 0.93;
/**
 * Margin kept above and below the ink, in ink heights (`tightenToInk` already keeps 1 px above and 2
 * below). Measured on the dev set's camera frames, raw readings of lines at 0.7–0.93 against their labels:
 * margins of 0.05 / 0.15 / 0.3 turned 15 / 4 / 3 wrong readings right against 3 / 2 / 1 the other way
 * (the crop at the ink reads small blurred glyphs biggest); PaddleOCR's own training crops keep more
 * margin, but they were not blurred.
 */
export const SNUG_MARGIN = 0.05;
/** Ink this short (px) is a mark or noise, not a line worth a second crop. */
const MIN_INK_HEIGHT = 3;

/**
 * Re-read (`read(boxes, which)`) each reading with `minConfidence ≤ conf < SNUG_BELOW` from its box cut
 * to its ink's rows (found on `flat`) ± `SNUG_MARGIN`; a more confident reading with more glyphs
 * replaces the first.
 * Readings below `minConfidence` are not lifted (a stray glyph read off an icon must stay dropped).
 * `readings` are updated in place.
 */
export async function rereadSnug<T extends FinishedText>(
  readings: T[],
  boxes: readonly PixelBox[],
  flat: InkImage,
  minConfidence: number,
  read: (boxes: readonly PixelBox[], which: readonly number[]) => Promise<T[]>,
): Promise<void> {
  const snug = boxes.map((b) => {
    const ink = tightenToInk(flat, b);
    const h = ink.y1 - ink.y0;
    if (!(h >= MIN_INK_HEIGHT)) return null;
    const y0 = Math.max(b.y0, ink.y0 - SNUG_MARGIN * h);
    const y1 = Math.min(b.y1, ink.y1 + SNUG_MARGIN * h);
    // Already snug: the same crop would read the same.
    return y0 - b.y0 + (b.y1 - y1) >= 1 ? { ...b, y0, y1 } : null;
  });
  const which = readings.flatMap((r, i) =>
    snug[i] && r.conf >= minConfidence && r.conf < SNUG_BELOW ? [i] : [],
  );
  if (which.length === 0) return;
  const again = await read(
    snug.map((s, i) => s ?? (boxes[i] as PixelBox)),
    which,
  );
  for (const i of which) {
    const first = readings[i];
    const second = again[i];
    if (first && second && second.conf > first.conf && glyphCount(second.text) > glyphCount(first.text))
      readings[i] = second;
  }
}

/** Characters other than white space: what a reading holds. */
function glyphCount(text: string): number {
  return text.replace(/\s/gu, "").length;
}
