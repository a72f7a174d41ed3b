import type { FracBox } from "../shared/box.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * Text an app sets over its own picture — a widget's title and caption over its background photo, a
 * card's headline over its artwork — told from lettering that is part of the picture (a video
 * thumbnail's title, a sign in a photo, a map's place names), so that it is listed while the picture's
 * own lettering is not (`pictures.ts`).
 *
 * How it is laid out: the app draws it with a text view in the picture's container — a paragraph in
 * the system's text styles (HIG "Typography": Caption 12 pt to Title 2 22 pt at default sizes), its
 * lines flush to one leading edge at the container's margin (16 pt in widgets, HIG "Widgets"; 16–20 pt
 * layout margins, HIG "Layout") and wrapped at the container's width, so one of them runs across most
 * of it. Lettering in a picture is placed by its artist: a few large words, centred or scattered, not
 * a wrapped paragraph at the margin; a map's names are short and strewn. So: at least two lines of
 * text-style size, left edges within a few points of each other, stacked at a line's spacing, starting
 * at the picture's leading margin (or before it, when the picture found is a part of the photo), one
 * of them at least half the picture's width.
 */

/** Points across the commonest iPhones (390 pt); the scale is width / this. */
const SCREEN_PT = 390;
/** A line of a text style is at most this tall (pt, its box): Title 2's 22 pt with its descenders. */
const MAX_LINE_PT = 26;
/** … and at least this (Caption 2's 11 pt; smaller is a picture's fine print). */
const MIN_LINE_PT = 8;
/** Lines of one paragraph start within this many points of each other. */
const ALIGN_PT = 4;
/** The paragraph starts at most this far (pt) inside the picture's left side (the layout margin, 16–20 pt). */
const LEADING_PT = 24;
/** Consecutive lines are at most this many line heights apart (line spacing, a title's space after). */
const MAX_GAP = 1;
/** A title may be this many times the height of the body under it. */
const MAX_SIZE_RATIO = 1.6;
/** One line runs across at least this share of the picture's width (wrapped at its measure). */
const MIN_MEASURE = 0.5;

/**
 * The text rows of `rows` (those centred on picture `pic`) that are a caption the app laid over it
 * (see the module comment). `aspect` is the screen's height / width.
 */
export function pictureCaptions(rows: readonly Candidate[], pic: FracBox, aspect: number): Set<Candidate> {
  const pt = (h: number): number => h * aspect * SCREEN_PT; // a height fraction in points
  const lines = rows
    .filter(
      (r) => r.kind === "text" && pt(boxHeight(r.box)) >= MIN_LINE_PT && pt(boxHeight(r.box)) <= MAX_LINE_PT,
    )
    .filter((r) => (r.box[0] - pic[0]) * SCREEN_PT <= LEADING_PT)
    .sort((a, b) => a.box[1] - b.box[1]);
  const out = new Set<Candidate>();
  let block: Candidate[] = [];
  const close = (): void => {
    if (block.length >= 2 && block.some((r) => boxWidth(r.box) >= MIN_MEASURE * (pic[2] - pic[0])))
      for (const r of block) out.add(r);
    block = [];
  };
  for (const r of lines) {
    const prev = block[block.length - 1];
    if (prev && !nextLine(prev.box, r.box)) close();
    block.push(r);
  }
  close();
  return out;
}

/** Whether `b` is the line after `a` in one paragraph: same leading edge, right below, similar size. */
function nextLine(a: FracBox, b: FracBox): boolean {
  const ha = boxHeight(a);
  const hb = boxHeight(b);
  const gap = b[1] - a[3];
  return (
    Math.abs(b[0] - a[0]) * SCREEN_PT <= ALIGN_PT &&
    gap >= -0.25 * Math.min(ha, hb) &&
    gap <= MAX_GAP * Math.max(ha, hb) &&
    Math.max(ha, hb) <= MAX_SIZE_RATIO * Math.min(ha, hb)
  );
}
