import { luma, type RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";

/**
 * Two labels read as one line. DB detection joins words whose unclipped regions touch, and on iOS that
 * happens to labels set side by side: a navigation bar's back button and its title (`Settings
 * NoUpdateCircles`), a date and a time in two pills (`9 Mar 2021  06:09`), the counters of a profile
 * (`Posts Following Followers`). A word space in SF Pro is about a quarter of an em (its ink gap, with
 * the side bearings, a third to a half of the line's ink height); iOS lays separate labels out at
 * least 8 pt apart (HIG: Layout, standard spacing), which at text sizes is at least half an em more
 * than that and usually a full em or more. A blank gap of `SPLIT_GAP` ink heights, and twice the
 * line's widest word space, is taken for two labels and the line is cut at the space read in it.
 */

/**
 * A blank run this many times the line's ink height wide separates two labels. 1.1 until the rank
 * column of a real leaderboard (`12` then `0开心0`, 1.15 ink heights apart on the screenshot) measured
 * 1.05–1.10 in camera frames, where blur widens the ink box by a pixel; a word space stays under 0.5.
 */
export const SPLIT_GAP = 1.0;

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
  const edge: number[] = [];
  for (let x = x0; x < x1; x++)
    edge.push(
      luma(image.data, (above * image.width + x) * 3),
      luma(image.data, (below * image.width + x) * 3),
    );
  edge.sort((a, b) => a - b);
  const bg = edge[Math.floor(edge.length / 2)] ?? 0;
  const column = new Float32Array(w);
  let maxDiff = 0;
  // Every other row on lines 16 px and taller: any stroke there is at least 2 px tall, and a gap is
  // blank on every row alike. Halves the cost (this runs on every line with a space).
  const rowStep = h >= 16 ? 2 : 1;
  for (let y = y0; y < y1; y += rowStep)
    for (let x = x0; x < x1; x++) {
      const d = Math.abs(luma(image.data, (y * image.width + x) * 3) - bg);
      if (d > (column[x - x0] ?? 0)) column[x - x0] = d;
      if (d > maxDiff) maxDiff = d;
    }
  // Blank means no ink at all: a sixth of the line's contrast, so the faint letters of a fading line
  // (text dimmed under a translucent bar) do not leave gaps.
  if (maxDiff < 24) return [];
  const threshold = Math.max(12, maxDiff / 6);
  const runs: { x0: number; x1: number }[] = [];
  let start = -1;
  let seenInk = false;
  for (let i = 0; i < w; i++) {
    const blank = (column[i] ?? 0) <= threshold;
    if (blank && start < 0 && seenInk) start = i;
    if (!blank) {
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
 * `text` (read from the ink box `line`, whose spaces were read at `spaces`: index in `text` and x in
 * image pixels) cut at every blank gap of at least `SPLIT_GAP` ink heights that has a space read in it.
 * One piece, the whole line, when there is none.
 */
export function splitAtGaps(
  image: RgbImage,
  line: PixelBox,
  text: string,
  spaces: readonly { index: number; x: number }[],
): LinePiece[] {
  const whole = [{ text, x0: line.x0, x1: line.x1 }];
  if (spaces.length === 0) return whole;
  const h = line.y1 - line.y0;
  const near = (g: { x0: number; x1: number }, x: number) => x >= g.x0 - 0.25 * h && x <= g.x1 + 0.25 * h;
  // Word spaces of this line (blank runs with a space read in them, narrower than a split gap): a split
  // gap must also be twice the widest of them, so loosely set text (wide tracking, a blurred line
  // whose thin strokes vanish) is not cut at every word.
  const runs = blankRuns(image, line, Math.max(2, 0.2 * h));
  const wide = Math.max(3, SPLIT_GAP * h);
  let widestWord = 0;
  for (const g of runs)
    if (g.x1 - g.x0 < wide && spaces.some((s) => near(g, s.x)))
      widestWord = Math.max(widestWord, g.x1 - g.x0);
  const gaps = runs.filter((g) => g.x1 - g.x0 >= Math.max(wide, 2 * widestWord));
  if (gaps.length === 0) return whole;
  const pieces: LinePiece[] = [];
  let from = 0;
  let left = line.x0;
  for (const g of gaps) {
    // The space read nearest the gap's middle, if one was read inside it.
    const mid = (g.x0 + g.x1) / 2;
    let best: { index: number; x: number } | undefined;
    for (const s of spaces)
      if (s.index > from && near(g, s.x)) if (!best || Math.abs(s.x - mid) < Math.abs(best.x - mid)) best = s;
    if (!best) continue;
    const piece = text.slice(from, best.index).trim();
    if (piece !== "") pieces.push({ text: piece, x0: left, x1: g.x0 });
    from = best.index + 1;
    left = g.x1;
  }
  const last = text.slice(from).trim();
  if (last !== "") pieces.push({ text: last, x0: left, x1: line.x1 });
  return pieces.length > 0 ? pieces : whole;
}
