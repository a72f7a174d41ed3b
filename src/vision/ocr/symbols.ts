import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { type GreyCrop, greyCrop } from "./ink.js";

/**
 * Symbols the recogniser cannot emit, put back from their ink. PP-OCRv4's 6,623-character dictionary
 * (ppocr_keys_v1.txt) has no `©` and no `✓` (it has `√`, `|`, `×`, `#`, `$`, `®`, `™`), so a copyright
 * sign before a photo credit (`© J R Eyerman/Shutterstock`) is dropped: the recogniser emits nothing for
 * it, or a `c`/`@` that the leading-icon rule then cuts.
 */

/** A line's ink columns split into glyph-like runs (blank columns between), in crop pixels. */
interface Run {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Ink runs of a crop: columns holding ink, grouped where no blank column separates them. */
function inkRuns(g: GreyCrop, t: number): Run[] {
  const runs: Run[] = [];
  let cur: Run | undefined;
  for (let x = 0; x < g.w; x++) {
    let y0 = g.h;
    let y1 = -1;
    for (let y = 0; y < g.h; y++)
      if (Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t) {
        if (y < y0) y0 = y;
        y1 = y;
      }
    if (y1 < 0) {
      if (cur) runs.push(cur);
      cur = undefined;
    } else if (cur) {
      cur.x1 = x + 1;
      cur.y0 = Math.min(cur.y0, y0);
      cur.y1 = Math.max(cur.y1, y1 + 1);
    } else cur = { x0: x, x1: x + 1, y0, y1: y1 + 1 };
  }
  if (cur) runs.push(cur);
  return runs;
}

/** Ink runs (start, end) along a line of `n` samples. */
function runsAlong(n: number, inkAt: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const on = i < n && inkAt(i);
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/**
 * Whether the run is drawn as `©`: a ring round a `c`. Across its middle row the ink is the ring's left
 * side, the `c`'s back (left of centre), then the ring's right side with background between (the `c` is
 * open to the right); down its middle column, the ring's top, the `c`'s top and bottom arcs and the ring's
 * bottom (four strokes; three where the blur merges a `c` arc with the ring). A ringed `i` (info), digit
 * or letter icon differs: its middle stroke is central, or its right side is closed.
 */
function isCopyrightGlyph(g: GreyCrop, r: Run, t: number): boolean {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  if (h < 8 || w < 0.8 * h || w > 1.25 * h) return false;
  const ink = (x: number, y: number) => Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t;
  // Any of the three middle rows and columns (a row may cross the `c`'s terminals).
  const rowOk = (y: number) => {
    const row = runsAlong(w, (i) => ink(r.x0 + i, y));
    const back = row[1];
    // The ring is closed: its sides reach the run's left and right edges.
    if (row.length !== 3 || !back || (row[0]?.[0] ?? w) > 0.15 * w || (row[2]?.[1] ?? 0) < 0.85 * w)
      return false;
    const centre = (back[0] + back[1]) / 2 / w;
    return centre >= 0.2 && centre <= 0.47;
  };
  const colOk = (x: number) => {
    const col = runsAlong(h, (i) => ink(x, r.y0 + i));
    const closed = (col[0]?.[0] ?? h) <= 0.15 * h && (col[col.length - 1]?.[1] ?? 0) >= 0.85 * h;
    return closed && (col.length === 3 || col.length === 4);
  };
  const midY = Math.floor(r.y0 + h / 2);
  const midX = Math.floor(r.x0 + w / 2);
  return [-1, 0, 1].some((d) => rowOk(midY + d)) && [-1, 0, 1].some((d) => colOk(midX + d));
}

/**
 * The line's text with a `©` put back before it, when the line's first glyph (in `line`, image pixels:
 * the line's ink box) is a `©` (`isCopyrightGlyph`) set inline as iOS sets it: about as tall as the
 * capital or digit that follows (0.9–1.2 of its height), a word space away (0.2–0.8 of its own height),
 * with at least two more letters on the line. A `c`, `C` or `@` read for it is replaced.
 */
export function copyrightSign(text: string, image: RgbImage, line: PixelBox): string {
  const rest = text.replace(/^(?:[cC@©]\s+|[@©])/u, "");
  if (!/^[\p{Lu}\p{N}]/u.test(rest) || (rest.match(/\p{L}/gu) ?? []).length < 2) return text;
  const g = greyCrop(image, line, 12, 8);
  if (!g || g.maxDiff < 48) return text;
  const t = Math.max(24, g.maxDiff / 3);
  const [sign, next] = inkRuns(g, t);
  if (!sign || !next) return text;
  const h = sign.y1 - sign.y0;
  const gap = next.x0 - sign.x1;
  const ratio = h / (next.y1 - next.y0);
  if (gap < 0.2 * h || gap > 0.8 * h || ratio < 0.9 || ratio > 1.2) return text;
  return isCopyrightGlyph(g, sign, t) ? `© ${rest}` : text;
}
