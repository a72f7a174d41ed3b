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
export function inkRuns(g: GreyCrop, t: number): Run[] {
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
  // The sign and the glyph after it lie within three line heights of the line's start.
  const head = { ...line, x1: Math.min(line.x1, line.x0 + 3 * (line.y1 - line.y0)) };
  const g = greyCrop(image, head, 12, 8);
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

/**
 * Whether a run's ink is a check mark (`✓`, SF Symbols' `checkmark`, or the ✔ emoji): its lowest point
 * left of centre (the short stroke meets the long one at 0.25–0.55 of the width) and its long arm
 * reaching the top at the right while the short arm's top, at the left, stays at least a quarter of the
 * height lower. A `v` is symmetric: both arms end at the same height.
 */
export function isCheckGlyph(g: GreyCrop, r: Run, t: number): boolean {
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  if (w < 4 || h < 4 || w > 1.6 * h || h > 1.6 * w) return false;
  const ink = (x: number, y: number) => Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t;
  // Per column, the topmost and lowest ink row.
  const top: number[] = [];
  const bottom: number[] = [];
  for (let x = r.x0; x < r.x1; x++) {
    let y0 = -1;
    let y1 = -1;
    for (let y = r.y0; y < r.y1; y++)
      if (ink(x, y)) {
        if (y0 < 0) y0 = y;
        y1 = y;
      }
    top.push(y0 < 0 ? r.y1 : y0);
    bottom.push(y1);
  }
  const lowest = Math.max(...bottom);
  const vertex = (bottom.indexOf(lowest) + bottom.lastIndexOf(lowest)) / 2 / w;
  const third = Math.max(1, Math.round(w / 3));
  const leftTop = Math.min(...top.slice(0, third));
  const rightTop = Math.min(...top.slice(w - third));
  return vertex >= 0.25 && vertex <= 0.55 && leftTop - rightTop >= 0.25 * h;
}

/**
 * A check mark's bracketed readings: `()`, `(v)`, `(V)` or `(√)`, with either parenthesis read in its
 * full-width form (`（V）`, `LR （V)`: the Chinese dictionary holds both, and a camera's blur makes the
 * recogniser pick the wider one); the evaluator's and an agent's reading fold full-width to ASCII anyway.
 */
const CHECK_READING = /[(（](?:|[vV√])[)）]/gu;

/**
 * Check marks in parentheses (`LF (✓)`), which the recogniser reads as `()`, `(v)` or `(√)` (or with
 * full-width brackets, `CHECK_READING`): in the
 * line's ink, a check (`isCheckGlyph`) between two runs taller than it by 15% or more (parentheses
 * reach from above the capitals to below the baseline). The text's bracketed readings are replaced in
 * order when there are as many as checks found; otherwise the text is left alone.
 */
export function parenthesisedChecks<S extends { index: number }>(
  text: string,
  image: RgbImage,
  line: PixelBox,
  spaces: readonly S[],
): { text: string; spaces: S[] } {
  const same = { text, spaces: [...spaces] };
  const readings = text.match(CHECK_READING);
  if (!readings) return same;
  const g = greyCrop(image, line, 12, 8);
  if (!g || g.maxDiff < 48) return same;
  const t = Math.max(24, g.maxDiff / 3);
  const runs = inkRuns(g, t);
  let checks = 0;
  runs.forEach((r, i) => {
    const before = runs[i - 1];
    const after = runs[i + 1];
    const h = r.y1 - r.y0;
    if (
      before &&
      after &&
      Math.min(before.y1 - before.y0, after.y1 - after.y0) >= 1.15 * h &&
      isCheckGlyph(g, r, t)
    )
      checks++;
  });
  if (checks !== readings.length) return same;
  // `()` gains a character: the spaces after it move along.
  const grown: number[] = [];
  const out = text.replace(CHECK_READING, (m, at: number) => {
    if (Array.from(m).length === 2) grown.push(at);
    return "(✓)";
  });
  return {
    text: out,
    spaces: spaces.map((sp) => ({ ...sp, index: sp.index + grown.filter((a) => a < sp.index).length })),
  };
}

/**
 * A vertical bar read as `I`, `1` or `l` between two spaces (`31.2 1 31.9`): `|` when its ink is a thin
 * stroke (width ≤ 0.25 of its height) reaching below the bottom of the capital or digit after it by a
 * tenth of that glyph's height or more (SF Pro's `|` descends below the baseline; `I`, `l`, `1` stand
 * on it). `spaces`: the line's spaces as image x positions, in text order.
 */
export function verticalBars(
  text: string,
  image: RgbImage,
  line: PixelBox,
  spaces: readonly { index: number; x: number }[],
): string {
  if (!/ [I1l] [\p{Lu}\p{N}]/u.test(text)) return text;
  const g = greyCrop(image, line, 12, 8);
  if (!g || g.maxDiff < 48) return text;
  const t = Math.max(24, g.maxDiff / 3);
  const runs = inkRuns(g, t);
  const chars = [...text];
  spaces.forEach((s, k) => {
    const next = spaces[k + 1];
    if (!next || next.index !== s.index + 2 || !/[I1l]/.test(chars[s.index + 1] ?? "")) return;
    if (!/[\p{Lu}\p{N}]/u.test(chars[s.index + 3] ?? "")) return;
    const inside = runs.filter((r) => r.x0 + g.x0 > s.x && r.x1 + g.x0 < next.x);
    const bar = inside[0];
    const after = runs.find((r) => r.x0 + g.x0 > next.x);
    if (inside.length !== 1 || !bar || !after) return;
    const h = bar.y1 - bar.y0;
    const capH = after.y1 - after.y0;
    if (bar.x1 - bar.x0 <= 0.25 * h && bar.y1 - after.y1 >= 0.1 * capH && bar.y0 <= after.y0 + 0.1 * capH)
      chars[s.index + 1] = "|";
  });
  return chars.join("");
}
