import { luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { endsWithRaisedMark } from "./ink.js";
import { smallByXHeight, xHeightTop } from "./x-height.js";

/**
 * Typographic clean-up of recognised lines, from the glyphs' shapes and from how iOS writes.
 *
 * Quotes. iOS draws apostrophes and quotation marks as curly glyphs (’ ‘ “ ”) in its own strings
 * (`Don’t Allow`, `Allow “Maps” to use your location?`) and in everything typed with Smart Punctuation,
 * which is on by default (Settings › General › Keyboard), while strings written in a code editor or on
 * the web often keep the straight ASCII ones (`Don't Lock After Respring`). The recogniser reads both as
 * ASCII `'` and `"`, so the context cannot decide, but the ink can: in SF Pro (and most UI faces) the
 * straight marks are upright wedges, the curly ones a comma shape whose tail runs down and to the left
 * from a round head (closing) or up and to the right into one (opening). Either way the top of a curly
 * mark lies right of its bottom; a straight one's does not. `quoteShape` measures that slant, and
 * `curlQuotes` curls only the marks measured curly, opening or closing by position (a mark after a
 * space or an opening bracket and before a letter opens).
 */

/** Where a straight quote mark was read: its index in the line's text and its x centre in image pixels. */
export interface QuoteMark {
  index: number;
  x: number;
}

export type QuoteShape = "curly" | "straight";

/**
 * Slant (top centre minus bottom centre, as a fraction of the mark's height) from which a mark is
 * curly. The centres are those of the mark's top and bottom quarters, each pixel weighted by how far its
 * contrast exceeds the component's threshold (`nearestMark`): the stroke's core, not the blur's halo.
 * A camera's blur spreads a mark's ink around it symmetrically; counted at full weight, that halo pulled
 * the two ends' centres together (curly marks on the filmed dev set measured 0.072–0.14 against
 * 0.078–0.18 on screenshots, so two 13 pt `“` fell under a 0.075 threshold). Measured so, on the real dev
 * set's 46 marks per mode: straight marks ≤ 0.040 on screenshots (the closing `"` of ntfy's `"Subscribe
 * to topic"`) and ≤ 0.038 on camera frames; curly ones ≥ 0.095 and ≥ 0.101. The threshold sits midway.
 */
export const CURLY_SLANT = 0.07;
/** The share of a mark's height at each end whose ink centres are compared. */
const END_SHARE = 0.25;
/** Marks shorter than this (px) are not measured: too few rows to tell a slant from anti-aliasing. */
export const MIN_MARK_HEIGHT = 4;

/**
 * How much wider than tall a double mark (`"`) may be measured as one piece. On a camera frame the
 * lens blur joins its two strokes into one blob (seen on the real dev set's filmed alerts and
 * quotations: every `“` there came out as one component up to ~1.6× as wide as tall), whose slant is
 * still the strokes' own; a single mark and each stroke of a sharp pair are taller than wide.
 */
export const DOUBLE_MARK_ASPECT = 2;

/**
 * The shape of the quote mark read near `x` on the line whose ink box is `line` (image pixels), or
 * undefined when no lone small mark sits there in the line's upper half (a mark merged with a letter,
 * too small to measure, or no clear ink). `double`: the mark read was `"` (its strokes may be joined).
 */
export function quoteShape(
  image: RgbImage,
  line: PixelBox,
  x: number,
  double = false,
): QuoteShape | undefined {
  const h = line.y1 - line.y0;
  if (!(h >= MIN_MARK_HEIGHT * 2)) return undefined;
  // The window: the upper ~55% of the line (quote marks hang from the cap height), ±half a line wide.
  const wx0 = Math.max(0, Math.floor(x - 0.5 * h));
  const wx1 = Math.min(image.width, Math.ceil(x + 0.5 * h));
  const wy0 = Math.max(0, Math.floor(line.y0 - 0.1 * h));
  const wy1 = Math.min(image.height, Math.ceil(line.y0 + 0.55 * h));
  const w = wx1 - wx0;
  const wh = wy1 - wy0;
  if (w < 3 || wh < MIN_MARK_HEIGHT) return undefined;
  const bg = lineBackground(image, line);
  const diff = new Float32Array(w * wh);
  let maxDiff = 0;
  for (let y = 0; y < wh; y++)
    for (let i = 0; i < w; i++) {
      const d = Math.abs(luma(image.data, ((wy0 + y) * image.width + wx0 + i) * 3) - bg);
      diff[y * w + i] = d;
      if (d > maxDiff) maxDiff = d;
    }
  if (maxDiff < 48) return undefined;
  const threshold = maxDiff / 3;
  const best = nearestMark(diff, w, wh, threshold, x - wx0, h, double ? DOUBLE_MARK_ASPECT : 1);
  if (!best) return undefined;
  return best.slant >= CURLY_SLANT ? "curly" : "straight";
}

/** Median grey of the line box's border: the background the ink stands on. */
function lineBackground(image: RgbImage, line: PixelBox): number {
  // A little outside the ink box, whose own edges run through the letters.
  const m = 0.15 * (line.y1 - line.y0);
  const x0 = Math.max(0, Math.floor(line.x0 - m));
  const x1 = Math.min(image.width - 1, Math.ceil(line.x1 + m));
  const y0 = Math.max(0, Math.floor(line.y0 - m));
  const y1 = Math.min(image.height - 1, Math.ceil(line.y1 + m));
  const v: number[] = [];
  for (let x = x0; x <= x1; x++)
    v.push(luma(image.data, (y0 * image.width + x) * 3), luma(image.data, (y1 * image.width + x) * 3));
  v.sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)] ?? 0;
}

interface Mark {
  cx: number;
  slant: number;
}

/**
 * The ink component nearest `cx` that is small and free-standing: it touches neither the window's
 * bottom (letters run down to the baseline) nor its sides, is at least `MIN_MARK_HEIGHT` tall, at most
 * 45% of the line's height and at most `maxAspect` times as wide as tall. Its slant compares the
 * centre of its top quarter with that of its bottom quarter, each pixel weighted by its contrast above
 * `threshold` (see `CURLY_SLANT`).
 */
function nearestMark(
  diff: Float32Array,
  w: number,
  h: number,
  threshold: number,
  cx: number,
  lineHeight: number,
  maxAspect: number,
): Mark | undefined {
  const label = new Int32Array(w * h).fill(-1);
  let best: Mark | undefined;
  let bestDist = Number.POSITIVE_INFINITY;
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== -1 || (diff[start] ?? 0) <= threshold) continue;
    const pixels: number[] = [];
    label[start] = start;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop() ?? 0;
      pixels.push(p);
      const px = p % w;
      const py = (p - px) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = px + dx;
          const ny = py + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (label[q] === -1 && (diff[q] ?? 0) > threshold) {
            label[q] = start;
            stack.push(q);
          }
        }
    }
    let x0 = w;
    let x1 = -1;
    let y0 = h;
    let y1 = -1;
    for (const p of pixels) {
      const px = p % w;
      const py = (p - px) / w;
      x0 = Math.min(x0, px);
      x1 = Math.max(x1, px);
      y0 = Math.min(y0, py);
      y1 = Math.max(y1, py);
    }
    const mh = y1 - y0 + 1;
    const mw = x1 - x0 + 1;
    if (y1 >= h - 1 || x0 === 0 || x1 >= w - 1) continue;
    if (mh < MIN_MARK_HEIGHT || mh > 0.45 * lineHeight || mw > maxAspect * mh) continue;
    const end = mh * END_SHARE;
    let topX = 0;
    let topW = 0;
    let botX = 0;
    let botW = 0;
    let allX = 0;
    let allW = 0;
    for (const p of pixels) {
      const px = p % w;
      const py = (p - px) / w;
      const d = diff[p] ?? 0;
      allX += px * d;
      allW += d;
      const v = d - threshold;
      if (py - y0 < end) {
        topX += px * v;
        topW += v;
      } else if (y1 - py < end) {
        botX += px * v;
        botW += v;
      }
    }
    if (topW === 0 || botW === 0 || allW === 0) continue;
    const mark = { cx: allX / allW, slant: (topX / topW - botX / botW) / mh };
    const dist = Math.abs(mark.cx - cx);
    if (dist < bestDist) {
      bestDist = dist;
      best = mark;
    }
  }
  return best;
}

const OPENS_AFTER = /^$|[\s([{<\-–—/]$/u;
/** A word follows, perhaps after one space: on blurred frames the reader often puts one after `“`. */
const WORDISH = /^\s?[\p{L}\p{N}]/u;

/** A Han character: the line is Chinese. */
const HAN = /\p{Script=Han}/u;
/** The straight mark of each curly one. */
const CURLY_OF = new Map([
  ["‘", "'"],
  ["’", "'"],
  ["“", '"'],
  ["”", '"'],
]);

/**
 * `text` with the straight marks whose shape was measured curly made curly: `'` → `’` or `‘`, `"` →
 * `”` or `“`. A mark opens when it starts the line or follows a space or an opening bracket and a
 * letter or digit follows it (right after it, or after one space: `wild. " Stories` opens, as a
 * closing mark is not set after a space); otherwise it closes (an apostrophe inside a word is a
 * closing `’`).
 */
export function curlQuotes(text: string, shapes: ReadonlyMap<number, QuoteShape>): string {
  // Chinese text sets only the curly marks (GB/T 15834), drawn upright in PingFang: never straightened.
  const han = HAN.test(text);
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    const straight = CURLY_OF.get(c);
    if (straight !== undefined && !han && shapes.get(i) === "straight") {
      // The recogniser's own curly mark, measured straight (`‘Hide` in a developer's 'Hide cancel').
      out += straight;
      continue;
    }
    if ((c !== "'" && c !== '"') || shapes.get(i) !== "curly") {
      out += c;
      continue;
    }
    const opens = OPENS_AFTER.test(text.slice(Math.max(0, i - 1), i)) && WORDISH.test(text.slice(i + 1));
    out += c === "'" ? (opens ? "‘" : "’") : opens ? "“" : "”";
  }
  return out;
}

/** Measure each read mark on `image` (the line's ink box `line`) and curl the curly ones. */
export function typographicQuotes(
  text: string,
  marks: readonly QuoteMark[],
  image: RgbImage,
  line: PixelBox,
): string {
  if (marks.length === 0) return text;
  const shapes = new Map<number, QuoteShape>();
  for (const m of marks) {
    const shape = quoteShape(image, line, m.x, /["“”]/u.test(text[m.index] ?? ""));
    if (shape) shapes.set(m.index, shape);
  }
  return curlQuotes(text, shapes);
}

/**
 * Letters whose capital is the small letter drawn larger (SF Pro: c o s v w x z): the recogniser reads
 * them by shape, so `Off` comes out `off` and `Scripts` `scripts`.
 */
const SIZE_ONLY = /^[cosvwxz]/u;
/** Letters that reach the ascender or cap line, so the line's ink top is a height to compare with. */
const REACHES_CAP = /[\p{Lu}\p{N}bdfhkl]/u;
/**
 * First-glyph height / (baseline − line's ink top) from which the glyph is a capital. SF Pro: x-height
 * 0.53 em, cap height 0.705 em, ascender ≈ 0.75 em. Measured on the real dev set's line-initial c o s v
 * w x z (153 lines, screenshots): small letters 0.60–0.70, capitals 0.78–0.95 (the ink box's top sits a
 * pixel above the glyphs' thresholded tops, so capitals measure below the nominal 0.94).
 */
export const CAPITAL_RATIO = 0.75;

/**
 * `text` with its first letter made a capital when that letter is one of SF Pro's size-only pairs, read
 * small, and as tall as a capital against a letter in the rest of the line that reaches the cap line.
 * `line` is the line's ink box (image pixels); its first glyph is the leftmost ink component. Only this
 * direction: the recogniser reads capitals small (`off` for `Off`), not the reverse, and a mis-found
 * first glyph (an icon's remnant) measures short.
 */
export function initialCase(text: string, image: RgbImage, line: PixelBox): string {
  const first = text[0] ?? "";
  if (!SIZE_ONLY.test(first) || !REACHES_CAP.test(text.slice(1)) || !/^.(\p{Ll}|\P{L}|$)/u.test(text))
    return text;
  const glyph = firstGlyph(image, line);
  if (!glyph) return text;
  const ratio = (glyph.bottom - glyph.top) / (glyph.bottom - line.y0);
  // Blur lifts the ratio of small letters; their top against the line's x-height line does not move.
  const small = smallByXHeight(glyph.top, glyph.bottom, line.y0, xHeightTop(image, line, glyph.right));
  return ratio >= CAPITAL_RATIO && small !== true ? first.toUpperCase() + text.slice(1) : text;
}

/** Top and bottom (image rows, bottom exclusive) of the leftmost ink component in `line`, if clear. */
function firstGlyph(
  image: RgbImage,
  line: PixelBox,
): { top: number; bottom: number; right: number } | undefined {
  const h = line.y1 - line.y0;
  const x0 = Math.max(0, Math.floor(line.x0));
  const x1 = Math.min(image.width, Math.ceil(Math.min(line.x1, line.x0 + 1.5 * h)));
  const y0 = Math.max(0, Math.floor(line.y0));
  const y1 = Math.min(image.height, Math.ceil(line.y1));
  const w = x1 - x0;
  const wh = y1 - y0;
  if (w < 3 || wh < 6) return undefined;
  const bg = lineBackground(image, line);
  const diff = new Float32Array(w * wh);
  let maxDiff = 0;
  // The ink's contrast from the upper three quarters: the box may take in the top of a darker shape right
  // under the line (a widget's glyph beside the next label), whose contrast would hide a tinted line's.
  for (let y = 0; y < wh; y++)
    for (let i = 0; i < w; i++) {
      const d = Math.abs(luma(image.data, ((y0 + y) * image.width + x0 + i) * 3) - bg);
      diff[y * w + i] = d;
      if (d > maxDiff && y < 0.75 * wh) maxDiff = d;
    }
  if (maxDiff < 48) return undefined;
  const threshold = maxDiff / 2;
  // Seed: the first column holding ink; flood its component (8-connected). A component that rises from
  // the box's bottom edge no higher than its middle is the top of a shape below the line, not a letter.
  const seen = new Uint8Array(w * wh);
  for (let i = 0; i < w; i++)
    for (let y = 0; y < wh; y++) {
      const p = y * w + i;
      if (seen[p] || (diff[p] ?? 0) <= threshold) continue;
      const c = flood(diff, seen, w, wh, p, threshold);
      if (c.bottom === wh - 1 && c.top >= wh / 2) continue;
      // A glyph touching the window's right edge ran into its neighbours: not one letter.
      if (c.right >= w - 1 || c.bottom - c.top < 3) return undefined;
      return { top: y0 + c.top, bottom: y0 + c.bottom + 1, right: x0 + c.right + 1 };
    }
  return undefined;
}

/** The 8-connected component of cells over `threshold` from `seed`, marked in `seen`: its extent. */
function flood(
  diff: Float32Array,
  seen: Uint8Array,
  w: number,
  wh: number,
  seed: number,
  threshold: number,
): { top: number; bottom: number; right: number } {
  const stack = [seed];
  seen[seed] = 1;
  let top = wh;
  let bottom = -1;
  let right = 0;
  while (stack.length > 0) {
    const p = stack.pop() ?? 0;
    const px = p % w;
    const py = (p - px) / w;
    top = Math.min(top, py);
    bottom = Math.max(bottom, py);
    right = Math.max(right, px);
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const nx = px + dx;
        const ny = py + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= wh) continue;
        const q = ny * w + nx;
        if (!seen[q] && (diff[q] ?? 0) > threshold) {
          seen[q] = 1;
          stack.push(q);
        }
      }
  }
  return { top, bottom, right };
}

/**
 * `text` with the closing quote mark of a quotation it opens put back: the recogniser drops a lone
 * trailing `’` or `”` now and then (`‘Sarah Stone’s Unseen World`), yet a quotation opened with `‘` or
 * `“` that the line ends inside is closed on it when the line's last glyph is a raised mark. (The
 * apostrophe `’` inside a word does not close a `‘`, so only the line's last character is looked at.)
 */
export function closingQuote(text: string, image: RgbImage, line: PixelBox): string {
  const count = (re: RegExp) => text.match(re)?.length ?? 0;
  // A `’` followed by a letter is an apostrophe (`Stone’s`), not a closing mark.
  const single = count(/‘/gu) > count(/’(?!\p{L})/gu) ? "’" : undefined;
  const mark = count(/“/gu) > count(/”/gu) ? "”" : single;
  if (!mark || !/[\p{L}\p{N}]$/u.test(text) || !endsWithRaisedMark(image, line)) return text;
  return text + mark;
}
