import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";
import { inkRuns } from "./symbols.js";

/**
 * A vertical bar (`|`) read as `1`, `I` or `l` when the recogniser also lost the spaces around it: a
 * widget's `31 | 31` read `31131`, `LR (✓) | RR (✓)` read `LR (✓)IRR(✓)` on camera frames, where blur
 * fills the word spaces (`verticalBars` in `symbols.ts` needs them read). The ink tells them apart: SF
 * Pro's bar runs from the ascender to below the baseline (Apple's SF Pro metrics: descender −0.2 em),
 * the digit `1`, the capital `I` and the letter `l` stand on the baseline. A candidate is judged at the
 * x where the recogniser read it (its CTC time step), between two capitals, digits or brackets.
 */

/** A character the recogniser read and where: its index in the text and its x centre in image pixels. */
export interface GlyphAt {
  index: number;
  x: number;
}

/** A bar's ink is at most this wide for its height (SF Pro's bar: ~0.08 em wide, ~1 em tall; blur adds a pixel a side). */
const MAX_BAR_ASPECT = 0.3;
/** How far (a fraction of the neighbour's ink height) the bar must reach below its neighbours' baseline. */
const MIN_DESCENT = 0.12;

/**
 * `text` with each glued `1`/`I`/`l` whose ink is a bar replaced by `|`. `glyphs` index into `text`;
 * `line` is the line's ink box in `image`.
 */
export function gluedBars(text: string, glyphs: readonly GlyphAt[], image: RgbImage, line: PixelBox): string {
  const chars = [...text];
  if (chars.length !== text.length) return text;
  const wanted = glyphs.filter(
    (g) =>
      /[I1l]/.test(chars[g.index] ?? "") &&
      /[\p{Lu}\p{N})✓]/u.test(neighbour(chars, g.index, -1)) &&
      /[\p{Lu}\p{N}(]/u.test(neighbour(chars, g.index, 1)),
  );
  if (wanted.length === 0) return text;
  const g = greyCrop(image, line, 12, 8);
  if (!g || g.maxDiff < 48) return text;
  const t = Math.max(24, g.maxDiff / 3);
  const runs = inkRuns(g, t).map((r) => ({ ...r, x0: r.x0 + g.x0, x1: r.x1 + g.x0 }));
  for (const w of wanted) {
    // The run nearest where it was read (a CTC step lands within a few pixels of its glyph).
    const gap = (r: { x0: number; x1: number }) => Math.max(0, r.x0 - w.x, w.x - r.x1);
    let k = -1;
    runs.forEach((r, i) => {
      if (gap(r) <= 0.3 * g.h && (k < 0 || gap(r) < gap(runs[k] ?? r))) k = i;
    });
    const bar = runs[k];
    const before = runs[k - 1];
    const after = runs[k + 1];
    if (!bar || !before || !after) continue;
    const h = bar.y1 - bar.y0;
    if (bar.x1 - bar.x0 > MAX_BAR_ASPECT * h) continue;
    // The neighbours that are capitals or digits stand on the baseline (a bracket descends like the
    // bar); the bar reaches below it and up to their tops.
    const refs = [
      ...(/[\p{Lu}\p{N}]/u.test(neighbour(chars, w.index, -1)) ? [before] : []),
      ...(/[\p{Lu}\p{N}]/u.test(neighbour(chars, w.index, 1)) ? [after] : []),
    ];
    if (refs.length === 0) continue;
    const base = Math.max(...refs.map((r) => r.y1));
    const capH = Math.min(...refs.map((r) => r.y1 - r.y0));
    if (Math.max(...refs.map((r) => r.y1)) - Math.min(...refs.map((r) => r.y1)) > 0.1 * capH) continue;
    if (bar.y1 - base < MIN_DESCENT * capH || bar.y0 > Math.min(...refs.map((r) => r.y0)) + 0.15 * capH)
      continue;
    chars[w.index] = "|";
  }
  return chars.join("");
}

/** The nearest non-space character before (`step` −1) or after (+1) `i`, or "". */
function neighbour(chars: readonly string[], i: number, step: number): string {
  for (let k = i + step; k >= 0 && k < chars.length; k += step) if (chars[k] !== " ") return chars[k] ?? "";
  return "";
}
