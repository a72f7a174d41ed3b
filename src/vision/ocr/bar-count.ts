import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import type { GlyphAt } from "./glued-bars.js";
import { greyCrop } from "./ink.js";
import type { FinishedText } from "./recognize.js";
import { inkRuns } from "./symbols.js";

/**
 * A run of bar letters (`l`, `I`) read with more bars than its ink holds. In SF Pro `l` and `I` are one
 * upright stem each (Apple, SF Pro glyphs; no serif or tail), so `All` has exactly two stems after the
 * `A`. On camera frames the recogniser reads a blurred pair of stems as three (`AllI Closed` for `All
 * Closed`, twice on one filmed widget) — each stem smeared over more CTC time steps than a sharp one.
 * The ink settles it: the stems stand apart (SF Pro's side bearings leave ~0.1 em between them, a blank
 * column or two even through the camera's blur), so the narrow ink runs under the read bars are
 * counted, and bars read past that count are dropped from the run's end. Nothing is added, and a run
 * whose ink cannot be parted into stems (touching glyphs, an icon) is left as read.
 */

/** Widest a stem's ink run may be for its height (SF Pro's stem ~0.09 em wide, ~0.72 em tall; blur adds a pixel a side). */
const MAX_STEM_ASPECT = 0.35;
/** Widest one glyph's ink run may be, in line ink heights (SF Pro's `W`, `M`: ~0.9 em; the ink height is ~0.95 em). */
const MAX_GLYPH_WIDTH = 1.1;
/** Shortest a stem's ink run may be, as a share of the line's ink height (a stem reaches the cap height). */
const MIN_STEM_HEIGHT = 0.55;

/**
 * `text` with a run of two or more of `l`/`I` inside a word cut to the number of stems its ink shows,
 * when that is fewer. `glyphs` (CTC positions, x in `image` pixels) index into `text`; `line` is the
 * line's ink box in `image`.
 */
export function countedBars(
  text: string,
  glyphs: readonly GlyphAt[],
  image: RgbImage,
  line: PixelBox,
): string {
  const chars = [...text];
  if (chars.length !== text.length) return text;
  const runs = barRuns(chars);
  if (runs.length === 0) return text;
  const at = new Map(glyphs.map((g) => [g.index, g.x]));
  const g = greyCrop(image, line, 12, 8);
  if (!g || g.maxDiff < 48) return text;
  const ink = inkRuns(g, Math.max(24, g.maxDiff / 3)).map((r) => ({
    ...r,
    x0: r.x0 + g.x0,
    x1: r.x1 + g.x0,
  }));
  const inkHeight = Math.max(...ink.map((r) => r.y1 - r.y0));
  const drop = new Set<number>();
  for (const [first, last] of runs) {
    const xs: number[] = [];
    for (let i = first; i <= last; i++) {
      const x = at.get(i);
      if (x !== undefined) xs.push(x);
    }
    if (xs.length !== last - first + 1) continue;
    const before = at.get(first - 1);
    const after = at.get(last + 1);
    // The window the bars were read in: from halfway to the glyph before to halfway to the one after.
    const pitch = (Math.max(...xs) - Math.min(...xs)) / Math.max(1, xs.length - 1);
    const lo = before !== undefined ? (before + Math.min(...xs)) / 2 : Math.min(...xs) - pitch;
    const hi = after !== undefined ? (after + Math.max(...xs)) / 2 : Math.max(...xs) + pitch;
    // The runs centred in the window are the bars' ink; each must be a stem. The neighbours' runs may
    // reach into it (an `A`'s leg) but must be one glyph wide: a stem glued to its neighbour would
    // hide in their run, and the count would come out short.
    const centre = (r: { x0: number; x1: number }) => (r.x0 + r.x1) / 2;
    const first0 = ink.findIndex((r) => centre(r) > lo);
    const inWindow = ink.filter((r) => centre(r) > lo && centre(r) < hi);
    const stems = inWindow.filter(
      (r) => r.x1 - r.x0 <= MAX_STEM_ASPECT * (r.y1 - r.y0) && r.y1 - r.y0 >= MIN_STEM_HEIGHT * inkHeight,
    );
    if (first0 < 0 || stems.length === 0 || stems.length !== inWindow.length) continue;
    // Every bar read must stand on a stem or beside one, never inside a wider run: a stem glued to the
    // next letter (`Gallery`'s second `l` touching the `e` in blur) is a bar the count cannot see.
    const inside = (x: number) => ink.some((r) => !stems.includes(r) && x > r.x0 + 1 && x < r.x1 - 1);
    if (xs.some(inside)) continue;
    const neighbours = [ink[first0 - 1], ink[first0 + inWindow.length]];
    if (neighbours.some((r) => r && r.x1 - r.x0 > MAX_GLYPH_WIDTH * inkHeight)) continue;
    for (let i = first + stems.length; i <= last; i++) drop.add(i);
  }
  return drop.size === 0 ? text : chars.filter((_, i) => !drop.has(i)).join("");
}

/**
 * `countedBars` on a read line before its other passes: the characters dropped leave `r.text`, and every
 * position list (quote marks, spaces, dashes, slashes, glyphs) is re-indexed past them. `crop` is the
 * region the line was read from, `line` its ink, both in `image` pixels.
 */
export function countedBarsIn<T extends FinishedText>(
  r: T,
  image: RgbImage,
  crop: PixelBox,
  line: PixelBox,
): T {
  if (!r.glyphs || !/\p{L}[lI]{2}/u.test(r.text)) return r;
  const glyphs = r.glyphs.map((m) => ({ index: m.index, x: crop.x0 + (crop.x1 - crop.x0) * m.at }));
  const text = countedBars(r.text, glyphs, image, line);
  if (text === r.text) return r;
  const kept = [...r.text];
  const dropped = new Set<number>();
  // `countedBars` only drops characters from the ends of bar runs: find them by walking both strings.
  for (let i = 0, j = 0; i < kept.length; i++) {
    if (kept[i] === text[j]) j++;
    else dropped.add(i);
  }
  const shift = (index: number) => index - [...dropped].filter((d) => d < index).length;
  const remap = <M extends { index: number }>(list: readonly M[] | undefined): M[] | undefined =>
    list?.filter((m) => !dropped.has(m.index)).map((m) => ({ ...m, index: shift(m.index) }));
  const out: T = { ...r, text };
  for (const key of ["marks", "spaces", "dashes", "slashes", "glyphs"] as const) {
    const list = remap(r[key]);
    if (list) out[key] = list;
  }
  return out;
}

/** Runs `[first, last]` of two or more `l`/`I` after a letter of the same word. */
function barRuns(chars: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 1; i < chars.length; i++) {
    if (!/[lI]/.test(chars[i] ?? "") || !/\p{L}/u.test(chars[i - 1] ?? "") || /[lI]/.test(chars[i - 1] ?? ""))
      continue;
    let j = i;
    while (/[lI]/.test(chars[j + 1] ?? "")) j++;
    if (j > i) out.push([i, j]);
    i = j;
  }
  return out;
}
