import type { RgbImage } from "../../shared/image.js";
import type { TextLine } from "../types.js";
import { type InkComponent, inkComponents } from "./dashes.js";
import type { PixelBox } from "./detect.js";

/**
 * Letter case from the ink's height. The recogniser reads a letter by its shape, and several of SF Pro's
 * capitals are their small letter drawn larger (c o s v w x z; `Off` → `off`, `Scripts` → `scripts`,
 * `Allow While` → `Allow while`), while on letter-spaced capitals (a keypad's `MNO`) or a small blurred
 * widget it reads other capitals small too (`Mn O`, `Lr` for `LR`). The two are told apart by height:
 * SF Pro's x-height is 0.53 em, its cap height 0.705 em and its ascender ≈ 0.75 em (Apple, SF Pro font
 * metrics; https://developer.apple.com/fonts/), so a letter read small but standing as tall as the line's
 * capitals, digits or ascenders is a capital. The same height tells a digit `0` (cap height) from the
 * letter `o` read as one inside a word (`Yaho0`, `bo0sted`).
 *
 * Only glyphs whose ink is one component holding exactly one read character are measured, so touching
 * letters, a merged underline or a position the recogniser placed between glyphs measure nothing.
 */

/** Small letters with neither ascender nor descender: their ink is the x-height. */
const X_HEIGHT = /^[acemnorsuvwxz]$/u;
/**
 * Glyphs whose ink is the cap height or the ascender (≈ 6% taller in SF Pro): capitals without a
 * descender (`J` and `Q` may dip below the baseline), digits, and the ascender letters, but not the bars
 * `I` and `l`, which the recogniser also reads for a `|` or a bracket that runs past both lines.
 */
const CAP_HEIGHT = /^[A-HK-PR-Z0-9bdfhk]$/u;
/**
 * Capital or small against a cap reference `cap` (px): SF Pro's small letters stand 0.53/0.705 ≈ 0.75 of
 * a capital (0.71 of an ascender), and the ink threshold adds a pixel or two of anti-aliasing to any
 * glyph, which weighs most on the short one; the split is halfway between 0.75 cap + 1.5 px and cap.
 * (On the real dev set's 1× alert text, capitals measured 11–12 px, straight x-height letters 9 and
 * round ones, which overshoot, 10: too close to split, hence `MIN_REFERENCE`.)
 */
export function capitalFrom(h: number, cap: number): boolean {
  return h >= 0.875 * cap + 0.75;
}
/** Candidate height / x-height reference from which a glyph is a capital: 1.33 for a capital, 1.0 small. */
export const CAPITAL_OF_X = 1.2;
/** Cap references shorter than this (px) are not trusted: a pixel there is most of the difference. */
export const MIN_REFERENCE = 12;

/** Where one character of the line's text was read: its index and its x (image pixels). */
export interface GlyphAt {
  index: number;
  x: number;
}

/** The median of `values` (non-empty). */
function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

/**
 * Height of each measured character: index → ink height (px). Each character goes to the component whose
 * centre is nearest its read position (the recogniser's positions drift by a fraction of a glyph), among
 * glyph-like components: at least a third of the tallest (not dots, commas or quote marks), at most
 * 1.2 line heights wide (SF Pro's widest letters are ≈ 1 em) and holding no other component's centre in
 * their span (an underline or a frame). A character is measured when its component went to no other
 * character and its position lies within the component's width of its centre.
 */
export function measured(
  comps: readonly InkComponent[],
  glyphs: readonly GlyphAt[],
  lineH: number,
): Map<number, InkComponent> {
  const tallest = Math.max(0, ...comps.map((c) => c.y1 - c.y0 + 1));
  const centre = (c: InkComponent) => (c.x0 + c.x1) / 2;
  const bodies = comps.filter(
    (c) =>
      c.y1 - c.y0 + 1 >= tallest / 3 &&
      c.x1 - c.x0 + 1 <= 1.2 * lineH &&
      !comps.some((o) => o !== c && centre(o) > c.x0 && centre(o) < c.x1 && o.y1 - o.y0 + 1 >= tallest / 3),
  );
  const owner = glyphs.map((g) => {
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    bodies.forEach((c, k) => {
      const d = Math.abs(centre(c) - g.x);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    });
    const c = bodies[best];
    return c && bestD <= c.x1 - c.x0 + 1 ? best : -1;
  });
  const count = new Map<number, number>();
  for (const o of owner) if (o >= 0) count.set(o, (count.get(o) ?? 0) + 1);
  const out = new Map<number, InkComponent>();
  glyphs.forEach((g, k) => {
    const o = owner[k] ?? -1;
    const c = bodies[o];
    if (c && count.get(o) === 1 && c.x1 - c.x0 + 1 <= MERGED_WIDTH * advance(glyphs, k)) out.set(g.index, c);
  });
  return out;
}

/**
 * How much wider than the glyph's advance (from its neighbours' read positions) its component may be:
 * wider, it is two glyphs run together (`rt`, `ed` on a blurred camera frame) that the recogniser placed
 * one position on. SF Pro's widest letters (M, W, m) are ≈ 1.1 of the mean advance beside them.
 */
const MERGED_WIDTH = 1.3;

/** The mean distance from glyph `k`'s read position to its neighbours' (infinite for a lone glyph). */
function advance(glyphs: readonly GlyphAt[], k: number): number {
  const x = glyphs[k]?.x ?? 0;
  const prev = glyphs[k - 1]?.x;
  const next = glyphs[k + 1]?.x;
  if (prev !== undefined && next !== undefined) return (next - prev) / 2;
  if (prev !== undefined) return x - prev;
  return next !== undefined ? next - x : Number.POSITIVE_INFINITY;
}

/**
 * Shapes a word's case takes: all small, a capital then small letters (`Office`), all capitals (`MNO`,
 * `LR`), or one small letter before capitals (Apple's `iOS14`). A capital made from ink that leaves
 * another shape (`propeRties`, `fOr`) measured two glyphs run together or a blurred one, not a capital.
 */
const WORD_SHAPE = /^(?:[A-Z]?[a-z0-9]*|[A-Z0-9]+|[a-z][A-Z0-9]+)$/u;

/** After a capital read as one (`MnO`, `Vios14` with a slash read `V`), letters all capitals or `iOS`. */
const AFTER_CAPITAL = /^(?:[A-Z0-9]+|[a-z][A-Z0-9]+)$/u;

/**
 * Whether the re-cased `after` of the word `before` takes a word's shape (`WORD_SHAPE`), or, cut at
 * the capitals read as such (code and names run words together: `comVzkytechVios14`), leaves the
 * part before the first one as it was and each part after one as it was or in a shape that follows a
 * capital. Changes of `O`/`0` at such a capital count as its own.
 */
function keepsShape(before: string, after: string): boolean {
  if (before === after || WORD_SHAPE.test(after)) return true;
  const cuts = [...before].flatMap((c, i) => (/[A-Z]/u.test(c) ? [i] : []));
  const first = cuts[0];
  if (first === undefined || before.slice(0, first) !== after.slice(0, first)) return false;
  return cuts.every((cut, k) => {
    const end = cuts[k + 1] ?? before.length;
    const was = before.slice(cut + 1, end);
    const now = after.slice(cut + 1, end);
    return was === now || AFTER_CAPITAL.test(now);
  });
}

/** Index range [start, end) of the run of Latin letters and digits around `index`. */
function wordAt(text: string, index: number): [number, number] {
  let start = index;
  let end = index + 1;
  while (start > 0 && /[A-Za-z0-9]/u.test(text[start - 1] ?? "")) start--;
  while (end < text.length && /[A-Za-z0-9]/u.test(text[end] ?? "")) end++;
  return [start, end];
}

/**
 * Largest spread (max / min) of cap references that are taken as one type size. A line may mix sizes
 * (`$5/mo`: a large price, a small unit), so a word is measured against its own capitals first, and
 * against the rest of the line only when the line's capitals agree.
 */
const ONE_SIZE = 1.15;
/**
 * Other x-height letters a line needs for its own x-height to be a reference. Fewer may all be capitals
 * read small (`Lr (✓) | rr`, `MnO`), so then only the cap reference counts.
 */
const LINE_X_LETTERS = 4;
/**
 * Least cap / x-height ratio of a line whose capitals can be told from its small letters: SF Pro's is
 * 0.705/0.53 ≈ 1.33; blur or a broken threshold that shrinks it to below 1.2 leaves too little to split.
 */
const X_TO_CAP = 1.2;

/**
 * `text` with small x-height letters that stand as tall as a capital made capitals, and a `0` or `O`
 * beside a small letter that stands only as tall as the x-height made `o`. `glyphs`: where the
 * recogniser read the line's Latin letters and digits; `line`: the line's ink box (both image pixels).
 */
export function caseFromInk(
  text: string,
  glyphs: readonly GlyphAt[],
  image: RgbImage,
  line: PixelBox,
): string {
  const chars = [...text];
  // Indices are UTF-16 offsets: only lines whose characters are all one unit are measured.
  if (chars.length !== text.length || glyphs.length < 2) return text;
  if (!glyphs.some((g) => X_HEIGHT.test(text[g.index] ?? "") || /^[0O]$/u.test(text[g.index] ?? "")))
    return text;
  const comps = measured(inkComponents(image, line), glyphs, line.y1 - line.y0);
  const heights = new Map([...comps].map(([index, c]) => [index, c.y1 - c.y0 + 1]));
  const kind = (index: number) => {
    const c = text[index] ?? "";
    return CAP_HEIGHT.test(c) ? "cap" : X_HEIGHT.test(c) ? "x" : undefined;
  };
  const all = [...heights].map(([index, h]) => ({ index, h, kind: kind(index) }));
  /** The cap reference for the glyph at `index`: its word's capitals, else the line's if of one size. */
  const capRef = (index: number): number | undefined => {
    const [start, end] = wordAt(text, index);
    const own = all.filter((m) => m.kind === "cap" && m.index !== index);
    const word = own.filter((m) => m.index >= start && m.index < end).map((m) => m.h);
    if (word.length > 0) return median(word);
    const hs = own.map((m) => m.h);
    return hs.length > 0 && Math.max(...hs) <= ONE_SIZE * Math.min(...hs) ? median(hs) : undefined;
  };
  /**
   * Whether `h` is a capital's height against the cap reference `cap`. With enough other x-height
   * letters in the line to know its x-height, the two heights must stand clearly apart (a blurred or
   * fragmented line measures them alike) and the split is halfway between them.
   */
  const tall = (index: number, h: number, cap: number): boolean | undefined => {
    if (cap < MIN_REFERENCE) return undefined;
    const xs = all.filter((m) => m.kind === "x" && m.index !== index).map((m) => m.h);
    if (xs.length < LINE_X_LETTERS) return capitalFrom(h, cap);
    const x = median(xs);
    return cap >= X_TO_CAP * x ? h >= (x + cap) / 2 : undefined;
  };
  const capital = (index: number, h: number): boolean | undefined => {
    const cap = capRef(index);
    if (cap !== undefined) return tall(index, h, cap);
    // No capital to compare with (`scripts`): the word's other x-height letters.
    const [start, end] = wordAt(text, index);
    const others = all.filter(
      (m) => m.kind === "x" && m.index !== index && m.index >= start && m.index < end,
    );
    if (others.length < 2) return undefined;
    const xRef = median(others.map((m) => m.h));
    return xRef >= MIN_REFERENCE * 0.75 ? h >= CAPITAL_OF_X * xRef : undefined;
  };
  const beside = (index: number) => `${chars[index - 1] ?? ""}${chars[index + 1] ?? ""}`;
  for (const [index, h] of heights) {
    const c = chars[index] ?? "";
    if (X_HEIGHT.test(c)) {
      if (capital(index, h)) chars[index] = c.toUpperCase();
    } else if (/^[0O]$/u.test(c) && /\p{Ll}/u.test(beside(index)) && !/\p{N}/u.test(beside(index))) {
      // A round glyph beside a small letter (and no digit), as short as the x-height: the letter o.
      const cap = capRef(index);
      if (cap !== undefined && tall(index, h, cap) === false) chars[index] = "o";
    } else if (/^[0O]$/u.test(c)) chars[index] = roundByWidth(c, comps.get(index), beside(index));
  }
  // Keep a word's new capitals only where the word takes a shape English gives words.
  const out = chars.join("").replace(/[A-Za-z0-9]+/gu, (word, at: number) => {
    const before = text.slice(at, at + word.length);
    return keepsShape(before, word) ? word : before;
  });
  return keypadLetters(out);
}

/**
 * Ink width / height splitting SF Pro's letter `O` (≈ 0.66 em wide, 0.72 em tall with its overshoot:
 * ≈ 0.92; bold wider) from its digit `0` (≈ 0.5 em wide: ≈ 0.7; bold ≈ 0.78). The recogniser reads the
 * two by context and confuses them between a capital and a digit (`SLO3` for `SL03`).
 */
export const LETTER_O_ASPECT = 0.84;

/**
 * A round capital-height glyph read `O` beside a digit but as narrow as a digit made `0`, or read `0`
 * beside a capital (and no digit) but as wide as a letter made `O`; `around`: the characters beside it.
 */
function roundByWidth(c: string, comp: InkComponent | undefined, around: string): string {
  if (!comp) return c;
  const aspect = (comp.x1 - comp.x0 + 1) / (comp.y1 - comp.y0 + 1);
  if (c === "O" && /\p{N}/u.test(around) && aspect < LETTER_O_ASPECT - 0.06) return "0";
  if (c === "0" && /\p{Lu}/u.test(around) && !/\p{N}/u.test(around) && aspect > LETTER_O_ASPECT + 0.06)
    return "O";
  return c;
}

/**
 * The letter groups a phone keypad prints under its digits (ITU-T E.161, as iOS's Phone keypad shows
 * them). Their letters are widely tracked, so the recogniser puts spaces between them (`MN O`).
 */
const KEYPAD_GROUPS = new Set(["ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ"]);

/** An all-capitals keypad letter group read with spaces inside (`M NO`) without them. */
export function keypadLetters(text: string): string {
  const joined = text.replace(/\s+/gu, "");
  return joined !== text && KEYPAD_GROUPS.has(joined) ? joined : text;
}

/** A `+` read on its own (`box` in pixels of a `width`×`height` image) as a line to test with `underZero`. */
export function keypadPlus(box: PixelBox, width: number, height: number): TextLine {
  return { text: "+", conf: 1, box: [box.x0 / width, box.y0 / height, box.x1 / width, box.y1 / height] };
}

/**
 * The `+` a phone keypad prints under its `0` key (ITU-T E.161 keypads; iOS's Phone keypad: touch and
 * hold 0 for +). A line without letters or digits is dropped as an icon read as a symbol, but a lone `+`
 * centred under a lone `0`, within two of its heights, is this label. Returns the `plusses` to keep.
 */
export function underZero(lines: readonly TextLine[], plusses: readonly TextLine[]): TextLine[] {
  return plusses.filter((p) => {
    const [px0, py0, px1] = p.box;
    const cx = (px0 + px1) / 2;
    return lines.some(({ text, box: [x0, y0, x1, y1] }) => {
      const h = y1 - y0;
      return (
        text === "0" &&
        Math.abs(cx - (x0 + x1) / 2) <= (x1 - x0) / 2 &&
        py0 >= y1 - 0.1 * h &&
        py0 <= y1 + 2 * h
      );
    });
  });
}
