import { luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { tightenToInk } from "./ink.js";
import { edgeLumas, inkColoursDiffer, middle } from "./ink-colour.js";
import { inkWeightsDiffer } from "./ink-weight.js";
import { dropInWordSpaces, type ReadSpace } from "./word-spaces.js";

/**
 * Two labels read as one line. DB detection joins words whose unclipped regions touch, and on iOS that
 * happens to labels set side by side: a navigation bar's back button and its title (`Settings
 * NoUpdateCircles`), a date and a time in two pills (`9 Mar 2021  06:09`), the counters of a profile
 * (`Posts Following Followers`). A word space in SF Pro is about a quarter of an em, its ink gap (with
 * the side bearings) 0.3–0.45 em (measured 0.33–0.35 em on the real set); iOS lays separate labels out
 * at least 8 pt apart (HIG: Layout, standard spacing), which at text sizes is 0.6 em or more (measured
 * 0.69–0.81 em: `Atlantis  Enabled App List`, `Singapore  Singapore`, `Posts  Following`). A blank gap
 * of `SPLIT_GAP` ems, and twice the line's widest word space, is taken for two labels and the line is
 * cut at the space read in it. The em is estimated from the line's ink height and which parts of the
 * em its characters reach (`emHeight`): an ink height alone is 0.53 em for `www` and 0.94 em for
 * `Following`, so a threshold in ink heights either split lowercase words or kept labels joined.
 */

/**
 * A blank run this many ems wide separates two labels. 1.0 ink heights until session 4 (0.73–0.94 em
 * on most lines), which kept side-by-side labels 0.7–0.8 em apart joined; the camera's blur narrows a
 * gap by a pixel or two (a rank column's 1.15 ink heights measured 1.05–1.10 in camera frames).
 */
export const SPLIT_GAP = 0.6;
/**
 * In a monospaced line (`monospace.ts`) a word space is a whole cell of blank, as wide as a split gap;
 * only a gap of this many cells (more than two spaces' worth) separates two labels there.
 */
export const MONO_SPLIT_CELLS = 3;
/**
 * Pixels a gap loses to blur: "blank" is under a sixth of the line's contrast, and a step edge blurred
 * by a Gaussian of σ px reaches a sixth of its height ~1 σ outside the edge (Φ(−0.97) ≈ 1/6), so a gap
 * between glyphs narrows by ~2 σ. σ ≈ 1 px on the rectified camera screen (`Singapore  Singapore`'s
 * 0.69 em measured 0.56 em filmed: 13 px of a 14 px threshold); on a 3× screenshot (em ≈ 50 px) the 2 px
 * are 0.04 em, within what anti-aliasing already takes.
 */
const BLUR_PX = 2;
/**
 * A gap this many ems wide between words printed in two colours or two weights separates two labels: wider than SF
 * Pro's word space with its side bearings (0.3–0.45 em), which a link inside a sentence keeps.
 */
const COLOUR_SPLIT_GAP = 0.45;
/**
 * ...and this many times the line's widest other word space. 1.5 until session 11; a grey field title
 * beside its black value (`Service Name  apple`, 19 px against a 13 px word space: 1.46) stayed joined.
 */
const COLOUR_SPACE_RATIO = 1.4;

/**
 * SF Pro's vertical metrics as fractions of the em (SF Pro Text, unitsPerEm 2048: cap height 1443 ≈
 * 0.70, x-height 1078 ≈ 0.53, ascenders ≈ 0.74, descenders ≈ 0.20), and a CJK ideograph's face in
 * PingFang (≈ 0.9 em).
 */
const X_HEIGHT = 0.53;
const ASCENDER = 0.74;
const DESCENDER = 0.2;
const IDEOGRAPH = 0.9;
const TALL = /[\p{Lu}\p{Nd}bdfhiklt!?#$%&@'"‘’“”()[\]{}|/\\]/u;
const DEEP = /[gjpqy()[\]{}|,;]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The em (px) of a line of `text` whose ink is `inkHeight` px tall: the ink spans from the highest part
 * its characters reach (an ascender or capital, else the x-height) to the lowest (a descender, else the
 * baseline). Accented letters reach above the x-height.
 */
export function emHeight(text: string, inkHeight: number): number {
  return inkHeight / reach(text);
}

/** How many ems the ink of `text` spans from top to bottom. */
export function reach(text: string): number {
  if (CJK.test(text)) return IDEOGRAPH;
  const plain = text.normalize("NFD");
  const top = TALL.test(plain) || /\p{M}/u.test(plain) ? ASCENDER : X_HEIGHT;
  return top + (DEEP.test(plain) ? DESCENDER : 0);
}

/**
 * Most contrast (luma, 0–255) a blank column may hold. UIKit's lightest text greys on white are
 * `tertiaryLabel` / `placeholderText` (#3C3C43 at 30%: luma ≈ 196, contrast ≈ 59) and iOS 6's
 * placeholder (#C7C7CD ≈ 200; 216, contrast 39, measured on rb-ios-passcode-keyboard's `Service Name`):
 * a sixth of black text's contrast (42) took such a label beside black text for background.
 */
const FAINT_INK = 32;
/**
 * On a line with no blank column at all (text over a photo), a column is ink only where it stands this
 * share of the line's contrast out from the background on the text's side.
 */
const PHOTO_INK_SHARE = 0.5;
/**
 * A photo behind the line: the greys just above and below it spread (10th to 90th percentile) over at
 * least this share of the line's contrast. A drawn surface (a bar, a card, a field) is one flat colour.
 */
const PHOTO_SPREAD = 0.25;
/**
 * ...and the line stands out from it by at least half the luma range: text set on a photo is white or
 * black for legibility (HIG, "Materials" / "Color": vibrant or contrasting text over imagery). Dim text
 * under a sheet's scrim, over other lines (rd-zkytech-share-sheet-zh: contrast 105), is not split so.
 */
const PHOTO_CONTRAST = 128;

/** Blank column runs at least `minGap` px wide inside `box` (image pixels), between inked columns. */
export function blankRuns(image: RgbImage, box: PixelBox, minGap: number): { x0: number; x1: number }[] {
  const x0 = Math.max(0, Math.floor(box.x0));
  const x1 = Math.min(image.width, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0));
  const y1 = Math.min(image.height, Math.ceil(box.y1));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 3 || h < 3) return [];
  // Background: the median grey of the rows just above and below the box (the ink box's own edges
  // graze letters).
  const m = Math.max(1, Math.round(0.1 * h));
  const above = Math.max(0, y0 - m);
  const below = Math.min(image.height - 1, y1 - 1 + m);
  const edge = edgeLumas(image, x0, x1, above, below);
  const bg = middle(edge);
  // Per column, the strongest ink lighter and darker than the background.
  const lighter = new Float32Array(w);
  const darker = new Float32Array(w);
  // Every other row on lines 16 px and taller: any stroke there is at least 2 px tall, and a gap is
  // blank on every row alike. Halves the cost (this runs on every line with a space).
  const rowStep = h >= 16 ? 2 : 1;
  for (let y = y0; y < y1; y += rowStep)
    for (let x = x0; x < x1; x++) {
      const d = luma(image.data, (y * image.width + x) * 3) - bg;
      if (d > (lighter[x - x0] ?? 0)) lighter[x - x0] = d;
      if (-d > (darker[x - x0] ?? 0)) darker[x - x0] = -d;
    }
  let maxLighter = 0;
  let maxDarker = 0;
  for (let i = 0; i < w; i++) {
    maxLighter = Math.max(maxLighter, lighter[i] ?? 0);
    maxDarker = Math.max(maxDarker, darker[i] ?? 0);
  }
  const maxDiff = Math.max(maxLighter, maxDarker);
  // Blank means no ink at all: a sixth of the line's contrast, so the faint letters of a fading line
  // (text dimmed under a translucent bar) do not leave gaps; at most `FAINT_INK`, so a label in a light
  // grey beside one in black (`Service Name` + `apple`) is ink, not a blank run.
  if (maxDiff < 24) return [];
  const threshold = Math.max(12, Math.min(FAINT_INK, maxDiff / 6));
  const runs = runsOf(w, (i) => Math.max(lighter[i] ?? 0, darker[i] ?? 0) <= threshold, minGap, x0);
  // Rows above and below the line as flat as a drawn surface: whatever fills the gaps is drawn too
  // (a field's border, a bar), not a photo's texture.
  const spread =
    (edge[Math.floor(0.9 * (edge.length - 1))] ?? 0) - (edge[Math.floor(0.1 * (edge.length - 1))] ?? 0);
  if (runs.length > 0 || spread < PHOTO_SPREAD * maxDiff || maxDiff < PHOTO_CONTRAST) return runs;
  // No column is blank: text over a photo (iOS sets white or black text straight on artwork, with at
  // most a scrim), whose texture fills every gap. The text's own ink is what stands out on the side
  // its polarity lies (white text: lighter than the photo's median by half the line's contrast).
  const ink = maxLighter >= maxDarker ? lighter : darker;
  return runsOf(w, (i) => (ink[i] ?? 0) <= PHOTO_INK_SHARE * maxDiff, minGap, x0);
}

/** Runs of `blank` columns at least `minGap` wide between inked columns, in image x (`x0` + index). */
function runsOf(w: number, blank: (i: number) => boolean, minGap: number, x0: number) {
  const runs: { x0: number; x1: number }[] = [];
  let start = -1;
  let seenInk = false;
  for (let i = 0; i < w; i++) {
    const isBlank = blank(i);
    if (isBlank && start < 0 && seenInk) start = i;
    if (!isBlank) {
      if (start >= 0 && i - start >= minGap) runs.push({ x0: x0 + start, x1: x0 + i });
      start = -1;
      seenInk = true;
    }
  }
  return runs;
}

/** One piece of a split line: its text and its horizontal extent in image pixels. */
export interface LinePiece {
  text: string;
  x0: number;
  x1: number;
}

/**
 * `read` (read from the ink box `line`, whose spaces were read at `readSpaces`: index in `read` and x in
 * image pixels), spaces read inside a word taken out (`dropInWordSpaces`), cut at every blank gap of at least `SPLIT_GAP` ems that has a space read in it (with
 * `pitch`, the character pitch in px of a monospaced line, also `MONO_SPLIT_CELLS` cells wide). One
 * piece, the whole line, when there is none.
 */
export function splitAtGaps(
  image: RgbImage,
  line: PixelBox,
  read: string,
  readSpaces: readonly ReadSpace[],
  pitch?: number,
): LinePiece[] {
  const h = line.y1 - line.y0;
  const em = emHeight(read, h);
  // Spaces read inside a word under blur go first (`word-spaces.ts`): they are no gap to cut at either.
  const { text, spaces } = dropInWordSpaces(image, line, read, readSpaces, em);
  const whole = [{ text, x0: line.x0, x1: line.x1 }];
  if (spaces.length === 0) return whole;
  const near = (g: { x0: number; x1: number }, x: number) => x >= g.x0 - 0.25 * h && x <= g.x1 + 0.25 * h;
  // Word spaces of this line (blank runs with a space read in them, narrower than a split gap): a split
  // gap must also be twice the widest of them, so loosely set text (wide tracking, a blurred line
  // whose thin strokes vanish) is not cut at every word.
  const runs = blankRuns(image, line, Math.max(2, 0.15 * em));
  const wide = Math.max(3, SPLIT_GAP * em, MONO_SPLIT_CELLS * (pitch ?? 0));
  const spaced = runs.filter((g) => spaces.some((s) => near(g, s.x)));
  const words = spaced.filter((g) => g.x1 - g.x0 < wide);
  // A gap a blurred frame narrowed may fall short of `wide` by `BLUR_PX`; it is then no word space of
  // its own, but it must be twice every other one and wider than every gap left uncut (a gap inside a
  // label is never wider than one between labels).
  // Words in two colours (`ink-colour.ts`) or two weights (`ink-weight.ts`: a bold caption, a regular
  // value) are two labels from a gap wider than any word space.
  const cut = (g: { x0: number; x1: number }) =>
    g.x1 - g.x0 >=
      Math.max(wide - BLUR_PX, 2 * Math.max(0, ...words.filter((w) => w !== g).map((w) => w.x1 - w.x0))) ||
    (g.x1 - g.x0 >= COLOUR_SPLIT_GAP * em - BLUR_PX &&
      spaced.includes(g) &&
      g.x1 - g.x0 >=
        COLOUR_SPACE_RATIO * Math.max(0, ...words.filter((w) => w !== g).map((w) => w.x1 - w.x0)) &&
      (inkColoursDiffer(image, line, g, em) || inkWeightsDiffer(image, line, g, 2 * em)));
  let gaps = runs.filter(cut);
  const widestKept = Math.max(0, ...spaced.filter((g) => !gaps.includes(g)).map((g) => g.x1 - g.x0));
  gaps = gaps.filter((g) => g.x1 - g.x0 > widestKept);
  if (gaps.length === 0) return whole;
  const cuts: { index: number; x0: number; x1: number }[] = [];
  let from = 0;
  for (const g of gaps) {
    // The space read nearest the gap's middle, if one was read inside it.
    const mid = (g.x0 + g.x1) / 2;
    let best: { index: number; x: number } | undefined;
    for (const s of spaces)
      if (s.index > from && near(g, s.x)) if (!best || Math.abs(s.x - mid) < Math.abs(best.x - mid)) best = s;
    if (!best) continue;
    cuts.push({ index: best.index, x0: g.x0, x1: g.x1 });
    from = best.index + 1;
  }
  // A piece that cannot be a label of this line undoes the cuts on both its sides: one with no letter
  // or digit (the `|` of `32.5 | 32.2`), or one without clear ink about as tall as its characters reach
  // in the line's em (words of text scrolled under a translucent bar, faint or half hidden).
  for (;;) {
    const pieces = piecesAt(text, line, cuts);
    const bad = pieces.findIndex((p) => !LETTER_OR_DIGIT.test(p.text) || !fullHeight(image, line, p, em));
    if (bad < 0 || cuts.length === 0) return pieces.length > 0 ? pieces : whole;
    cuts.splice(Math.max(0, bad - 1), bad > 0 && bad < cuts.length ? 2 : 1);
  }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The pieces of `text` between `cuts` (the space's index in `text` and the gap's extent), one per cut + 1. */
function piecesAt(text: string, line: PixelBox, cuts: readonly { index: number; x0: number; x1: number }[]) {
  const pieces: LinePiece[] = [];
  let from = 0;
  let left = line.x0;
  for (const c of cuts) {
    pieces.push({ text: text.slice(from, c.index).trim(), x0: left, x1: c.x0 });
    from = c.index + 1;
    left = c.x1;
  }
  pieces.push({ text: text.slice(from).trim(), x0: left, x1: line.x1 });
  return pieces;
}

/**
 * Whether the piece has clear ink 0.55–1.45 times as tall as its characters reach in a font of `em`: a
 * label's own ink (a secondary label beside a title is set smaller: `Singapore  Singapore`, 0.67), not
 * faint text or a sliver of it cut off by a bar drawn over it.
 */
function fullHeight(image: RgbImage, line: PixelBox, piece: LinePiece, em: number): boolean {
  const pad = 0.15 * em;
  const box = { x0: piece.x0, x1: piece.x1, y0: line.y0 - pad, y1: line.y1 + pad, score: line.score };
  const ink = tightenToInk(image, box);
  if (ink === box) return false;
  const ratio = (ink.y1 - ink.y0 - 2) / (em * reach(piece.text));
  return ratio >= 0.55 && ratio <= 1.45;
}
