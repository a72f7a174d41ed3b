import { area, type FracBox, intersection, iou, overlap, readingOrder, union } from "../../shared/box.js";
import type { TextLine } from "../../vision/types.js";

/**
 * Text-reading evaluation: character error rate and a matcher that pairs ground-truth text elements
 * (e.g. the sim phone's `truth().elements` of kind `text`) with OCR lines by box overlap. Pure
 * functions; shared by the OCR tests, the OCR bench and the pipeline evaluation.
 */

/** Anything with a label and a box in 0–1 fractions (a sim `ScreenElement` fits). */
export interface TruthText {
  label: string;
  box: FracBox | readonly [number, number, number, number];
}

/** Levenshtein distance over Unicode code points (so a CJK character or an emoji counts as one). */
export function levenshtein(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (x.length === 0) return y.length;
  if (y.length === 0) return x.length;
  let prev = new Uint32Array(y.length + 1);
  let cur = new Uint32Array(y.length + 1);
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      const substitution = (prev[j - 1] ?? 0) + (xi === y[j - 1] ? 0 : 1);
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, substitution);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length] ?? 0;
}

/**
 * Character error rate: edit distance / number of code points in `expected`. 0 is a perfect read;
 * it can exceed 1 when `got` has many extra characters. An empty `expected` gives 0 for an empty
 * `got`, else 1. No normalisation here: pass both strings through `normalizeText` to compare loosely.
 */
export function cer(expected: string, got: string): number {
  const n = Array.from(expected).length;
  if (n === 0) return got.length === 0 ? 0 : 1;
  return levenshtein(expected, got) / n;
}

/**
 * Canonical form for comparing what a screen shows with what OCR read: NFKC (full-width `，？：` and
 * letters become their ASCII forms, as OCR dictionaries mix both) and, by default, no whitespace
 * (recognisers drop or add spaces between words; the agent does not care).
 */
export function normalizeText(text: string, opts: { keepSpaces?: boolean } = {}): string {
  const n = text.normalize("NFKC");
  return opts.keepSpaces ? n.replace(/\s+/g, " ").trim() : n.replace(/\s+/g, "");
}

export interface TextMatchOptions {
  /** Minimum `overlap` for an OCR line to belong to a truth element. Default 0.5. */
  minOverlap?: number;
  /** Compare with spaces kept (collapsed) instead of removed. Default false. */
  keepSpaces?: boolean;
}

/** One truth element and the OCR lines that fell on it (several when OCR split it into words). */
export interface TextMatch<T extends TruthText> {
  truth: T;
  /** Lines assigned to this element, in reading order (`readingOrder` of ../boxes.ts); empty = missed. */
  lines: TextLine[];
  /** The lines' text joined in reading order (raw, not normalised). */
  text: string;
  /** CER of the normalised joined text against the normalised label (1 when missed). */
  cer: number;
  /** IoU of the lines' union box with the truth box (0 when missed). */
  iou: number;
}

export interface TextMatchResult<T extends TruthText> {
  matches: TextMatch<T>[];
  /** Lines that overlap no truth element (e.g. text the truth lists under another kind, or noise). */
  unmatched: TextLine[];
  /** Lines that substantially cover two or more truth elements: a merged row of labels. */
  merged: TextLine[];
  summary: TextMatchSummary;
}

export interface TextMatchSummary {
  truths: number;
  /** Truth elements with at least one line on them. */
  found: number;
  /** Truth elements read exactly (normalised CER 0). */
  exact: number;
  /** Total edits / total truth characters, missed elements counting all their characters. */
  cer: number;
}

/**
 * Pair truth text elements with OCR lines. Each line goes to the truth element it overlaps most
 * (`overlap` ≥ `minOverlap`); a truth element's text is its lines joined in reading order, so a
 * label OCR split into words still reads whole. A line overlapping several truths is reported in
 * `merged` (and still assigned to its best one, which then carries the extra text as errors).
 */
export function matchTextLines<T extends TruthText>(
  truths: readonly T[],
  lines: readonly TextLine[],
  opts: TextMatchOptions = {},
): TextMatchResult<T> {
  const minOverlap = opts.minOverlap ?? 0.5;
  const norm = (s: string) => normalizeText(s, { keepSpaces: opts.keepSpaces ?? false });
  const assigned: TextLine[][] = truths.map(() => []);
  const unmatched: TextLine[] = [];
  const merged: TextLine[] = [];
  for (const line of lines) {
    let best = -1;
    let bestOverlap = 0;
    let hits = 0;
    truths.forEach((t, i) => {
      const o = overlap(line.box, t.box);
      if (o >= minOverlap) hits++;
      // Ties (a line inside two nested truths) go to the smaller truth box: the more specific one.
      const better =
        o > bestOverlap + 1e-9 ||
        (best >= 0 && Math.abs(o - bestOverlap) <= 1e-9 && area(t.box) < area(truths[best]?.box ?? []));
      if (o >= minOverlap && better) {
        best = i;
        bestOverlap = o;
      }
    });
    if (best < 0) unmatched.push(line);
    else assigned[best]?.push(line);
    if (hits >= 2 && coversSeveral(line, truths, minOverlap)) merged.push(line);
  }
  let edits = 0;
  let chars = 0;
  let found = 0;
  let exact = 0;
  const matches = truths.map((truth, i): TextMatch<T> => {
    const own = readingOrder(assigned[i] ?? []);
    const text = own.map((l) => l.text).join(" ");
    const expected = norm(truth.label);
    const d = levenshtein(expected, norm(text));
    const n = Array.from(expected).length;
    edits += own.length > 0 ? d : n;
    chars += n;
    if (own.length > 0) found++;
    if (own.length > 0 && d === 0) exact++;
    return {
      truth,
      lines: own,
      text,
      cer: own.length > 0 ? cer(expected, norm(text)) : 1,
      iou: own.length > 0 ? iou(union(own.map((l) => l.box)), truth.box) : 0,
    };
  });
  return {
    matches,
    unmatched,
    merged,
    summary: { truths: truths.length, found, exact, cer: chars > 0 ? edits / chars : 0 },
  };
}

/**
 * A line "covers" a truth element when the element lies mostly inside it; two covered elements that
 * do not contain each other mean two separate labels were read as one box.
 */
function coversSeveral<T extends TruthText>(
  line: TextLine,
  truths: readonly T[],
  minOverlap: number,
): boolean {
  const covered = truths.filter((t) => intersection(line.box, t.box) >= minOverlap * area(t.box));
  for (let i = 0; i < covered.length; i++)
    for (let j = i + 1; j < covered.length; j++) {
      const a = covered[i];
      const b = covered[j];
      if (a && b && overlap(a.box, b.box) < 0.5) return true;
    }
  return false;
}
