import type { PixelBox } from "./detect.js";

/** Reads groups of glyph boxes, each as one line on a clean canvas (`lone-glyphs.ts`'s `glyphCanvas`). */
export type GroupReader = (
  groups: readonly (readonly PixelBox[])[],
) => Promise<{ text: string; conf: number }[]>;

/**
 * A lone letter or hanzi on a filled badge that the badge's own reading did not keep. Transit apps mark
 * a line with one capital on a disc or rounded square of the line's colour (`C`, `Z`, `L`, `W`: the
 * NYC subway's lettered lines, a bus route's letter), contact and category tiles carry one initial or
 * one hanzi (`购`, `餐`), and a red disc may hold a letter, not a count. `lone-glyphs.ts` reads such a
 * plate once from a canvas and keeps a word starting with a capital or a digit at 0.8; a lone glyph has
 * no context there and its reading is weak or in the wrong case: `Z` at 0.73, `L` as `┌` at 0.72,
 * `W` as `w` at 0.78, `C` as `c` at 0.98 (SF Pro draws c s v w z as the capital's shape). Here the
 * glyph is read again twice side by side (as `lone-digits.ts` reads a lone digit: a pair is a short
 * line, and a symbol is rarely read as the same letter twice at a high score) and kept when both
 * readings are the same letter or hanzi at `PAIR_CONF` (`HAN_CONF` for a hanzi, which symbols imitate:
 * a bookmark read `日`).
 *
 * Not kept (they are what SF Symbols draw on a filled disc): `X` (`xmark`, the close button), `O` (a
 * ring, a record button), `I`/`l` (a bar; `pause` is two), and anything read as a sign or digit here.
 */

/**
 * A pair read as one Latin letter twice is kept at this confidence: two readings agreeing is the
 * evidence (as `lone-digits.ts`'s `AGREED_DIGIT_CONF`); a lone `L` pair reads `LL` at 0.56, `Ll` 0.63.
 */
const PAIR_CONF = 0.5;
/**
 * A pair read as one hanzi twice: higher, since symbols are read as ideographs. Measured: a category
 * tile's `交` read `交交` at 0.9998; a medicine-bottle symbol on a selected tab's capsule `西西` at 0.904.
 */
const HAN_CONF = 0.97;
/** One glyph's ink: width over height in this range (`I` is excluded anyway; `W`, `M`, a hanzi ~1). */
const MIN_ASPECT = 0.3;
const MAX_ASPECT = 1.3;
/** Ink shorter than this (px in `detail`) is too small to read alone. */
const MIN_INK_HEIGHT = 8;
/** At most this many badges are read again per screen. */
const MAX_REREADS = 12;

/** Letters a symbol on a disc is drawn like (`xmark`, a ring, a bar): never taken as a badge's letter. */
const SYMBOL_LIKE = /^[IilOoXx]$/u;
/** SF Pro draws these lower-case letters as the capital's shape; a badge's lone letter is a capital. */
const CASE_LESS = /^[csvwz]$/u;

/** The badge text a pair reading stands for, or undefined: the same letter or hanzi twice. */
export function pairLetter(text: string, conf: number): string | undefined {
  const pair = [...text.replace(/\s/gu, "")];
  if (pair.length !== 2) return undefined;
  const [a, b] = pair as [string, string];
  if (/^\p{Script=Han}$/u.test(a)) return a === b && conf >= HAN_CONF ? a : undefined;
  if (!/^[A-Za-z]$/u.test(a) || SYMBOL_LIKE.test(a) || conf < PAIR_CONF) return undefined;
  // The second of a pair is often read in the other case (`Ww`, `Ll`): the same letter either way.
  const up = a.toUpperCase();
  if (up !== b.toUpperCase()) return undefined;
  return CASE_LESS.test(a) || /^[A-Z]$/u.test(b) ? up : a;
}

/**
 * For each ink box (one glyph on a badge, in `detail` pixels), the letter or hanzi it reads as twice
 * over and the pair's confidence, or undefined. Ink not shaped like one glyph is not read.
 */
export async function plateLetters(
  inks: readonly PixelBox[],
  read: GroupReader,
): Promise<({ text: string; conf: number } | undefined)[]> {
  const out: ({ text: string; conf: number } | undefined)[] = inks.map(() => undefined);
  const picks = inks
    .map((ink, i) => ({ ink, i }))
    .filter(({ ink }) => {
      const w = ink.x1 - ink.x0;
      const h = ink.y1 - ink.y0;
      return h >= MIN_INK_HEIGHT && w >= MIN_ASPECT * h && w <= MAX_ASPECT * h;
    })
    .slice(0, MAX_REREADS);
  if (picks.length === 0) return out;
  const again = await read(picks.map((p) => [p.ink, p.ink]));
  picks.forEach(({ i }, k) => {
    const r = again[k];
    const text = r ? pairLetter(r.text, r.conf) : undefined;
    if (r && text) out[i] = { text, conf: r.conf };
  });
  return out;
}
