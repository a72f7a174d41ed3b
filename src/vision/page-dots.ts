import type { Candidate } from "./row.js";

/**
 * A page control — the row of small dots that says which page is shown (the home screen above the
 * dock, onboarding pages, carousels) — as one `[button] "page dots"` row: tapping it (left or right of
 * the current dot) turns the page, and on the home screen it opens the page editor. Apple HIG "Page
 * controls": dots of equal size, evenly spaced on one horizontal line, centred horizontally, the
 * current page's dot drawn in a stronger colour; UIPageControl draws 7 pt dots about 16 pt apart.
 *
 * Dots are taken from the glyph proposer's ink blobs (`glyphs.ts`): round blobs of 4–10 pt, at least
 * two on one line with one size and one pitch of 1.6–4 dot sizes (farther apart than the dots of an
 * ellipsis `⋯`, which the proposer joins into one symbol), the row centred on the screen within 4% of
 * its width.
 */

export interface DotBlob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  n: number;
}

const MIN_DOT_PT = 4;
const MAX_DOT_PT = 10;
const MIN_DOTS = 2;

/** The page control among `blobs` (pixels of a `w`×`h` working image, `pt` pixels per point), if any. */
export function findPageDots(
  blobs: readonly DotBlob[],
  w: number,
  h: number,
  pt: number,
): Candidate | undefined {
  const dots = blobs
    .filter((b) => {
      const bw = b.x1 - b.x0;
      const bh = b.y1 - b.y0;
      return (
        bw >= MIN_DOT_PT * pt &&
        bw <= MAX_DOT_PT * pt &&
        Math.abs(bw - bh) <= Math.max(1, 0.25 * bw) &&
        b.n >= 0.6 * bw * bh
      );
    })
    .sort((a, b) => a.x0 - b.x0);
  const cy = (b: DotBlob): number => (b.y0 + b.y1) / 2;
  const cx = (b: DotBlob): number => (b.x0 + b.x1) / 2;
  for (const seed of dots) {
    const size = seed.x1 - seed.x0;
    const line = dots.filter(
      (d) => Math.abs(cy(d) - cy(seed)) <= 1.5 * pt && Math.abs(d.x1 - d.x0 - size) <= 2 * pt,
    );
    if (line.length < MIN_DOTS || line[0] !== seed) continue;
    const pitches = line.slice(1).map((d, i) => cx(d) - cx(line[i] as DotBlob));
    const pitch = pitches[0] as number;
    if (pitch < 1.6 * size || pitch > 4 * size) continue;
    if (pitches.some((p) => Math.abs(p - pitch) > 2 * pt)) continue;
    const x0 = seed.x0;
    const x1 = (line[line.length - 1] as DotBlob).x1;
    if (Math.abs((x0 + x1) / 2 - w / 2) > 0.04 * w) continue;
    const y0 = Math.min(...line.map((d) => d.y0));
    const y1 = Math.max(...line.map((d) => d.y1));
    const pad = 4 * pt;
    return {
      kind: "button",
      label: "page dots",
      box: [(x0 - pad) / w, (y0 - pad) / h, (x1 + pad) / w, (y1 + pad) / h],
      conf: 0.5,
    };
  }
  return undefined;
}
