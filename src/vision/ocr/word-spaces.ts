import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";

/**
 * Spaces put back inside a word, taken out where the ink has no word gap. The recogniser often prefers
 * the blank to the space class between two words, so `restoreSpaces` (`ctc.ts`) puts a space back where
 * the space class scored at least 0.02 between two characters — on the simulator's screens no gap
 * inside a word scored above 0.005. Under a camera's blur gaps inside words score 0.02–0.07 too
 * (`textF ield`, `UiF ont`, `IQ Toolbar`), and only the ink can tell them from word spaces that score as
 * little (`Someone left the conversation`: 0.045–0.056). SF Pro's word space is 0.25–0.28 em of advance
 * (SF Pro Text, unitsPerEm 2048: the space is 530–570 units over the optical sizes), so two words stand
 * at least a quarter em of blank apart, while two letters of a word stand their side bearings apart
 * (0.03–0.15 em; less where kerned, `Fo`, or none where they touch). Blur narrows a gap by about a pixel
 * on each side. A space put back on a weak score (below `WEAK_SPACE`) between two Latin letters stays
 * only over a blank of `WORD_GAP` ems. Measured on the real set's camera frames (blank: under a quarter
 * of the weaker neighbouring letter's ink): such word spaces 0.20–0.34 em, such in-word spaces
 * 0–0.17 em; a space the recogniser read as one, or put back on a clear score, is never judged.
 */

/** A space put back on a space-class score below this is judged by its ink. */
const WEAK_SPACE = 0.1;
/** Narrowest blank (ems) a word space leaves between two letters, blurred (see the module comment). */
const WORD_GAP = 0.18;
/** A column is blank below this share of the weaker neighbouring letter's strongest column. */
const BLANK_SHARE = 0.25;
/** How far (ems) either side of the space the neighbouring letters' ink is looked for. */
const NEIGHBOUR = 0.6;
/** How far (ems) from where the space was read its gap may lie (the recogniser's step is ~0.2 em). */
const NEAR = 0.4;
/** Least ink (grey levels, after the three-row average) a neighbour must show to be judged at all. */
const MIN_INK = 16;
const LATIN_LETTER = /^[A-Za-z]$/;

/** A space read in a line: its index in the text, its x (image px), and `restored` as `FinishedText` has it. */
export interface ReadSpace {
  index: number;
  x: number;
  restored?: number | undefined;
}

/** Per column of a box (image pixels): the strongest ink over its rows. */
interface ColumnInk {
  x0: number;
  column: Float32Array;
}

/**
 * `text` (read from the ink box `line`, in a font of `em` px, with its `spaces`) without the weak spaces
 * put back between two Latin letters whose ink shows no word gap; the remaining spaces re-indexed. A
 * space with no clear ink on either side within `NEIGHBOUR` ems (two labels, an icon's gap) is kept:
 * there is nothing to judge it by.
 */
export function dropInWordSpaces(
  image: RgbImage,
  line: PixelBox,
  text: string,
  spaces: readonly ReadSpace[],
  em: number,
): { text: string; spaces: ReadSpace[] } {
  const judged = spaces.filter(
    (s) =>
      (s.restored ?? 0) > 0 &&
      (s.restored ?? 0) < WEAK_SPACE &&
      LATIN_LETTER.test(text[s.index - 1] ?? "") &&
      LATIN_LETTER.test(text[s.index + 1] ?? ""),
  );
  if (judged.length === 0 || !(em > 0)) return { text, spaces: [...spaces] };
  const ink = columnInk(image, line);
  if (!ink) return { text, spaces: [...spaces] };
  const dropped = new Set<number>();
  for (const s of judged) {
    const left = peak(ink, s.x - NEIGHBOUR * em, s.x);
    const right = peak(ink, s.x, s.x + NEIGHBOUR * em);
    const weaker = Math.min(left, right);
    if (weaker < MIN_INK) continue;
    const gap = widestBlank(ink, BLANK_SHARE * weaker, s.x - NEAR * em, s.x + NEAR * em);
    if (gap < WORD_GAP * em) dropped.add(s.index);
  }
  if (dropped.size === 0) return { text, spaces: [...spaces] };
  let out = "";
  for (let i = 0; i < text.length; i++) if (!dropped.has(i)) out += text[i];
  const kept = spaces
    .filter((s) => !dropped.has(s.index))
    .map((s) => ({ ...s, index: s.index - [...dropped].filter((d) => d < s.index).length }));
  return { text: out, spaces: kept };
}

/**
 * The box's columns' ink. Each row's background is read from the row itself, on the background's side
 * of its grey levels (ink covers well under a third of a text row): a line set just above or below
 * another surface (a bar's or a bubble's edge, a gradient) keeps its gaps blank, which one background
 * for the whole box would fill. Three rows are averaged: sensor noise on one row is no stroke (a stroke
 * is at least 2 px tall). `null` when the box is degenerate (under 3 px either way).
 */
function columnInk(image: RgbImage, box: PixelBox): ColumnInk | null {
  const crop = greyCrop(image, box, 3, 3);
  if (!crop) return null;
  const { x0, w, h, grey } = crop;
  // Ink polarity from the whole box: the side of the median its extremes reach further on.
  const sorted = Float32Array.from(grey).sort();
  const median = sorted[sorted.length >> 1] ?? 0;
  const darkInk = median - (sorted[0] ?? 0) >= (sorted[sorted.length - 1] ?? 0) - median;
  const diff = new Float32Array(w * h);
  const row = new Float32Array(w);
  for (let y = 0; y < h; y++) {
    row.set(grey.subarray(y * w, (y + 1) * w));
    row.sort();
    const bg = row[Math.floor((darkInk ? 0.65 : 0.35) * (w - 1))] ?? 0;
    for (let x = 0; x < w; x++) {
      const v = grey[y * w + x] ?? 0;
      diff[y * w + x] = darkInk ? bg - v : v - bg;
    }
  }
  const column = new Float32Array(w);
  for (let y = 1; y < h - 1; y++)
    for (let x = 0; x < w; x++) {
      const d = ((diff[(y - 1) * w + x] ?? 0) + (diff[y * w + x] ?? 0) + (diff[(y + 1) * w + x] ?? 0)) / 3;
      if (d > (column[x] ?? 0)) column[x] = d;
    }
  return { x0, column };
}

/** The strongest column in `[from, to)` (image x). */
function peak(ink: ColumnInk, from: number, to: number): number {
  let best = 0;
  const end = Math.min(ink.x0 + ink.column.length, Math.ceil(to));
  for (let x = Math.max(ink.x0, Math.floor(from)); x < end; x++)
    best = Math.max(best, ink.column[x - ink.x0] ?? 0);
  return best;
}

/**
 * The widest run of columns no stronger than `threshold` that lies between inked columns and overlaps
 * `[from, to)` (image x), in px; 0 when there is none.
 */
function widestBlank(ink: ColumnInk, threshold: number, from: number, to: number): number {
  const { column, x0 } = ink;
  let widest = 0;
  let start = -1;
  let seenInk = false;
  for (let i = 0; i < column.length; i++) {
    const blank = (column[i] ?? 0) <= threshold;
    if (blank && start < 0 && seenInk) start = i;
    if (!blank) {
      if (start >= 0 && x0 + i > from && x0 + start < to) widest = Math.max(widest, i - start);
      start = -1;
      seenInk = true;
    }
  }
  return widest;
}
