import type { PixelBox } from "./detect.js";
import { greyCrop, type InkImage } from "./ink.js";

/**
 * The pronoun `I` in a contraction (`I’m`, `I’ll`, `I’ve`, `I’d`): the one place English puts a lone
 * capital stem before an apostrophe. SF Pro's capital I is a bare stem of cap height (0.70 em tall,
 * ~0.08 em wide at regular weight; Apple, SF Pro font metrics), the same bar as `l` and nearly `1`, so on
 * a 9–12 px cap height the recogniser splits its belief between them (`l` 0.34, `1` 0.32 on the
 * QuickType bar's `I’m`, iOS's third suggestion for an empty field) and the line's mean falls under the
 * confidence floor although the recogniser is sure of a bar. Two repairs:
 *
 * - **The bar chosen by its context** (`pronounI`): a bar (`l 1 I |`) starting a word, then an
 *   apostrophe-like mark, then `m`, `ll`, `ve` or `d` ending the word is `I` — no English word is
 *   `l’m` or `1’ll`, and only `I` takes `’m`. The bar's score becomes its kind's: its own plus its
 *   runner-up's when that is a bar too; likewise the apostrophe's when the runner-up is another
 *   apostrophe-like mark (`'` / `` ` ``). The context settles which glyph of the kind it is, so the
 *   recogniser's doubt between them is no doubt about the line.
 * - **A stem lost at the crop's edge** (`lostPronoun`): the detector's 320 px map barely fires on a
 *   2 px stem, so the region may start at the apostrophe with the stem a pixel or two inside its edge,
 *   and the recogniser drops a glyph at a crop's very edge (`'m` read on filmed QuickType bars). A
 *   reading that starts with a contraction's suffix (an apostrophe, then `m ll ve d` ending the word)
 *   lost its first letter: the region is read again with a margin left of it, as the detector's own
 *   unclip margin would have given (`PAD` of its height), and kept when it reads the whole contraction.
 */

/** Where a character of a reading was read (as `FinishedText` in `recognize.ts` holds them). */
interface Placed {
  index: number;
  at: number;
}

/** The parts of a reading this file reads and moves (`FinishedText` fits; no import: it imports this). */
interface Reading {
  text: string;
  conf: number;
  marks?: Placed[];
  dashes?: Placed[];
  slashes?: Placed[];
  glyphs?: Placed[];
  spaces?: (Placed & { restored?: number })[];
}

/** Bars the recogniser names for SF Pro's capital I. */
const BARS = new Set(["l", "1", "I", "|"]);
/** Apostrophe-like marks it names for the apostrophe (`typography.ts` then tells `'` from `’` by shape). */
const APOSTROPHES = new Set(["'", "’", "‘", "`", "′", "´"]);
/** The contraction suffixes only `I` takes alone (`’m`) or that follow a pronoun (`’ll`, `’ve`, `’d`). */
const SUFFIXES = ["m", "ll", "ve", "d"];
/**
 * Margin (region heights) put left of a region that lost its first glyph: DB's unclip grows a kernel by
 * `area × 1.2 / perimeter`, about 0.25 of the region's height on each side for a short word.
 */
const PAD = 0.25;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Length of the suffix starting at `i` of `chars` when it ends the word there, else 0. */
function suffixAt(chars: readonly string[], i: number): number {
  for (const s of SUFFIXES) {
    const got = chars
      .slice(i, i + s.length)
      .join("")
      .toLowerCase();
    if (got === s && !LETTER_OR_DIGIT.test(chars[i + s.length] ?? "")) return s.length;
  }
  return 0;
}

/**
 * `chars` with each contraction's bar made `I`, and `scores` with the bar's and the apostrophe's score
 * raised to their kind's (see the module comment). `alts`/`altScores` parallel `chars` (absent: the
 * scores stay). Returns new arrays of the same length.
 */
export function pronounI(
  chars: readonly string[],
  scores: readonly number[],
  alts?: readonly string[],
  altScores?: readonly number[],
): { chars: string[]; scores: number[] } {
  const out = [...chars];
  const sc = [...scores];
  const kind = (k: number, set: ReadonlySet<string>): void => {
    if (set.has(alts?.[k] ?? "")) sc[k] = Math.min(1, (sc[k] ?? 0) + (altScores?.[k] ?? 0));
  };
  for (let i = 0; i + 2 < out.length; i++) {
    if (!BARS.has(out[i] ?? "") || LETTER_OR_DIGIT.test(out[i - 1] ?? "")) continue;
    if (!APOSTROPHES.has(out[i + 1] ?? "") || suffixAt(out, i + 2) === 0) continue;
    out[i] = "I";
    kind(i, BARS);
    kind(i + 1, APOSTROPHES);
  }
  return { chars: out, scores: sc };
}

/** A reading that starts with a contraction's suffix: its first letter was lost. */
function startsWithSuffix(text: string): boolean {
  const chars = Array.from(text);
  return APOSTROPHES.has(chars[0] ?? "") && suffixAt(chars, 1) > 0;
}

/**
 * Each reading that starts with a contraction's suffix read again from its region widened left by `PAD`
 * of its height (`read(boxes, which)` reads the listed boxes of a list). The new reading replaces it, with
 * the widened box, when it starts with `I` and the suffix and is at least `minConfidence` sure; or, when
 * it still starts with the suffix, as `I` and that reading when the widened region's ink starts with a
 * lone stem of cap height and then the apostrophe (`leadingStem`: a camera's blur leaves the recogniser
 * unsure of a thick stem beside a crop's edge, the ink is plain). `readings` and `boxes` (pixels of
 * `image`) are updated in place.
 */
export async function readLostPronouns<T extends Reading>(
  readings: T[],
  boxes: PixelBox[],
  image: InkImage,
  minConfidence: number,
  read: (boxes: PixelBox[], which: number[]) => Promise<T[]>,
): Promise<void> {
  const which = readings.flatMap((r, i) => (startsWithSuffix(r.text) ? [i] : []));
  if (which.length === 0) return;
  const wider = boxes.map((b) => ({ ...b, x0: Math.max(0, b.x0 - PAD * (b.y1 - b.y0)) }));
  const again = await read(wider, which);
  for (const i of which) {
    const r = again[i];
    const box = wider[i];
    if (!r || !box || r.conf < minConfidence) continue;
    if (/^I/u.test(r.text) && startsWithSuffix(r.text.slice(1))) {
      readings[i] = r;
      boxes[i] = box;
    } else if (startsWithSuffix(r.text) && leadingStem(image, box)) {
      readings[i] = withLeadingI(r);
      boxes[i] = box;
    }
  }
}

/** `r` with `I` put before its text, the indices of its measured characters moved past it. */
function withLeadingI<T extends Reading>(r: T): T {
  const move = (list?: Placed[]) => list?.map((m) => ({ ...m, index: m.index + 1 }));
  const marks = move(r.marks);
  const dashes = move(r.dashes);
  const slashes = move(r.slashes);
  const glyphs = move(r.glyphs);
  const spaces = r.spaces?.map((m) => ({ ...m, index: m.index + 1 }));
  return {
    ...r,
    text: `I${r.text}`,
    ...(marks ? { marks } : {}),
    ...(dashes ? { dashes } : {}),
    ...(slashes ? { slashes } : {}),
    ...(glyphs ? { glyphs } : {}),
    ...(spaces ? { spaces } : {}),
  };
}

/** A stem: at most this share of its height wide (SF Pro's I: ~0.08 em by 0.70 em; blur widens it). */
const STEM_ASPECT = 0.35;
/**
 * The stem's top on the cap line and its foot on the baseline, and the apostrophe's top on the cap line,
 * within this share of the suffix's ink height (cap line or ascender, 0.70–0.74 em, to the baseline):
 * the pronoun's stem and apostrophe stand on the cap line, the suffix on the baseline. A caret or a `|`
 * reaches past both (UIKit's caret spans the font's line height, ~1.2 em).
 */
const LINE_SLACK = 0.15;
/** An apostrophe is at most this share of the line's ink height (~0.25 em of 0.70). */
const MARK_HEIGHT = 0.45;
/** Widest gap (ink heights) between the stem and the apostrophe: a letter gap, not a word space. */
const STEM_GAP = 0.5;

/**
 * Whether the ink in `box` starts with a lone stem, then an apostrophe: the first run of inked columns
 * is a bar (`STEM_ASPECT`) from the baseline to the cap line (`LINE_SLACK`), and the next, a letter gap
 * on, a short mark hanging from the cap line, then more ink (the suffix). A text caret or a `|` separator
 * reaches past the cap line and the baseline; an icon is wider.
 */
export function leadingStem(image: InkImage, box: PixelBox): boolean {
  const g = greyCrop(image, box, 3, 3);
  if (!g || g.maxDiff < 40) return false;
  const t = Math.max(24, g.maxDiff / 3);
  const tops = new Int32Array(g.w).fill(-1);
  const bottoms = new Int32Array(g.w).fill(-1);
  for (let x = 0; x < g.w; x++)
    for (let y = 0; y < g.h; y++)
      if (Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t) {
        if ((tops[x] ?? -1) < 0) tops[x] = y;
        bottoms[x] = y;
      }
  const runs: { x0: number; x1: number; top: number; bottom: number }[] = [];
  for (let x = 0; x < g.w; x++) {
    if ((tops[x] ?? -1) < 0) continue;
    const last = runs[runs.length - 1];
    const top = tops[x] ?? 0;
    const bottom = bottoms[x] ?? 0;
    if (last && last.x1 === x) {
      last.x1 = x + 1;
      last.top = Math.min(last.top, top);
      last.bottom = Math.max(last.bottom, bottom);
    } else runs.push({ x0: x, x1: x + 1, top, bottom });
  }
  const [stem, mark, ...rest] = runs;
  if (!stem || !mark || rest.length === 0 || stem.x0 === 0) return false;
  // The cap line and the baseline from the glyphs after the stem (the suffix has no descender).
  const top = Math.min(mark.top, ...rest.map((r) => r.top));
  const bottom = Math.max(mark.bottom, ...rest.map((r) => r.bottom));
  const lineH = bottom - top + 1;
  const stemH = stem.bottom - stem.top + 1;
  return (
    stem.x1 - stem.x0 <= STEM_ASPECT * stemH &&
    Math.abs(stem.top - top) <= LINE_SLACK * lineH &&
    Math.abs(stem.bottom - bottom) <= LINE_SLACK * lineH &&
    mark.bottom - mark.top + 1 <= MARK_HEIGHT * lineH &&
    mark.top - top <= LINE_SLACK * lineH &&
    mark.x0 - stem.x1 <= STEM_GAP * lineH
  );
}
