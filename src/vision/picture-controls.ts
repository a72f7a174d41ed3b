import type { FracBox } from "../shared/box.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * Media transport controls drawn straight over a picture — ⏮ ⏯ ⏭ over album art on a player card,
 * ↺15 ▶ ↻15 over a video (AVPlayerViewController) — are the picture's controls, not its content.
 * Apple draws them as plain white SF Symbols with a shadow or over a darkened scrim (HIG "Playing
 * video", "Playing audio"), so they have no plate or disc of their own (`picture-plates.ts`). What
 * tells them from shapes in the picture is their layout: one row of at least three symbols of about
 * one size (the middle play/pause may be larger: SF Symbols' `play.fill` is set a size up), on one
 * line, evenly spaced — a stack view's equal spacing. A photo's or artwork's shapes do not line up
 * so.
 */

/** At least this many symbols in the row. */
const MIN_CONTROLS = 3;
/** A symbol is at most this big, in points of a 390 pt wide screen (a 44 pt hit target, a 60 pt play). */
const MAX_PT = 64;
/** Centres on one line: within this share of the tallest symbol's height of their mean. */
const LINE_TOL = 0.25;
/** Sizes: the largest symbol's height at most this many times the smallest's. */
const MAX_SIZE_RATIO = 1.8;
/** Gaps between neighbours' centres within this share of their mean (equal spacing). */
const GAP_TOL = 0.2;
/** Neighbours' centres at least this many of the widest symbol's widths apart (separate buttons). */
const MIN_GAP = 1.2;

/**
 * The rows of `rows` (those centred on `picture`) that form a transport row (see the module comment).
 * `aspect` is the screen's height / width; boxes are screen fractions.
 */
export function transportControls(
  rows: readonly Candidate[],
  picture: FracBox,
  aspect: number,
): Set<Candidate> {
  const maxW = MAX_PT / 390;
  const icons = rows
    .filter((r) => r.kind === "icon" && boxWidth(r.box) <= maxW && boxHeight(r.box) * aspect <= maxW)
    .filter((r) => centreX(r.box) >= picture[0] && centreX(r.box) <= picture[2])
    .sort((a, b) => centreX(a.box) - centreX(b.box));
  const out = new Set<Candidate>();
  for (const seed of icons) {
    if (out.has(seed)) continue;
    const line = icons.filter(
      (r) => Math.abs(centreY(r.box) - centreY(seed.box)) <= LINE_TOL * tallest([seed, r]),
    );
    if (line.length >= MIN_CONTROLS && evenRow(line)) for (const r of line) out.add(r);
  }
  return out;
}

const tallest = (rs: readonly Candidate[]): number => Math.max(...rs.map((r) => boxHeight(r.box)));

/** Whether `line` (sorted by x) has symbols of about one size, evenly and clearly spaced. */
function evenRow(line: readonly Candidate[]): boolean {
  const hs = line.map((r) => boxHeight(r.box));
  if (Math.max(...hs) > MAX_SIZE_RATIO * Math.min(...hs)) return false;
  const gaps = line.slice(1).map((r, k) => centreX(r.box) - centreX((line[k] as Candidate).box));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const widest = Math.max(...line.map((r) => boxWidth(r.box)));
  return gaps.every((g) => Math.abs(g - mean) <= GAP_TOL * mean && g >= MIN_GAP * widest);
}
