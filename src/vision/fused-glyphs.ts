import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { type GreyCrop, greyCrop } from "./ocr/ink.js";
import { inkRuns, isCheckGlyph } from "./ocr/symbols.js";
import type { Candidate } from "./row.js";

/**
 * A row's state glyph read into its text. Grouped lists set small glyphs a word space from a row's title,
 * and the OCR detector boxes glyph and title as one line; the recogniser then names the glyph with the
 * nearest characters it has:
 *
 * - **A check mark after the chosen row's title** (`nRF-7 Wi-Fi (2) √`): a picker marks the selected
 *   row with SF Symbols' `checkmark` (UITableViewCell's `.checkmark` accessory, or an image set right
 *   after the title in a custom cell). PP-OCR's dictionary has no `✓`; it reads `√`, `v` or `V`. The
 *   glyph becomes a `[checkbox] "<title>" on` row on the mark (a tap there selects the row, and the
 *   agent learns which row is chosen) and leaves the title.
 * - **Signal-strength bars before a network's or device's name** (`-ll nRF-7 Wi-Fi (1)`, camera `ill`,
 *   `l`): SF Symbols' `cellularbars` / `chart.bar.fill`-style glyphs, three or four filled bars of
 *   equal width standing on one baseline and rising left to right, read as dashes and bars. They are cut
 *   from the title; a line that is only such a glyph becomes an unnamed `[icon]` row.
 *
 * Both are judged in the pixels, never from the reading alone: a check mark's short arm ends lower than
 * its long one with the vertex left of centre (`isCheckGlyph`; a `v` is symmetric), and bars rise in
 * steps with solid columns (letters have counters and do not rise step by step).
 */

/** Readings of a trailing check mark, after a space. */
const CHECK_READ = /\s+[√✓✔vV]$/u;
/** Readings of leading bars: a short token of dashes, dots and bar-like letters, then a space. */
const BARS_READ = /^[-–—.·,'`|!iIlj1:;]{1,4}\s+(?=\S)/u;
/** A whole line read as bars only. */
const BARS_ONLY = /^[-–—.·,'`|!iIlj1:;]{1,4}$/u;
/**
 * A glyph and the text beside it are at least this share of the glyph's height apart: UIKit lays a
 * cell's image and its accessory 8 pt or more from the title (~0.5 of a 17 pt line's ink), letters of
 * a word sit ~0.1 em apart.
 */
const GLYPH_GAP = 0.2;
/**
 * Between the bars of one signal glyph the gap is under this share of the glyph's height (the bars of
 * `cellularbars` are ~0.07 of its height apart); past the glyph, a gap this wide begins the title.
 */
const BAR_GAP = 0.3;
/** How far left of a row's box, in its heights, its leading glyph is looked for (the glyph is ~1.1 of its height wide). */
const LEAD_REACH = 1.2;

/** `rows` with each fused check mark split off and each fused bar glyph cut (see the module comment). */
export function splitFusedGlyphs(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const r of rows) {
    if (r.kind !== "text") {
      out.push(r);
      continue;
    }
    if (BARS_ONLY.test(r.label.trim())) {
      const crop = cropOf(screen, r.box);
      const runs = crop ? runsOf(crop) : [];
      if (crop && runs.length > 0 && isBarGlyph(crop, runs, runs.length)) {
        out.push({ kind: "icon", label: "", box: r.box, conf: r.conf });
        continue;
      }
    }
    let row = r;
    const lead = BARS_READ.exec(row.label);
    if (lead) {
      const cut = leadingBars(screen, row.box);
      if (cut !== null) row = { ...row, label: row.label.slice(lead[0].length), box: cut };
    }
    if (CHECK_READ.test(row.label)) {
      const split = trailingCheck(screen, row.box);
      if (split) {
        const title = row.label.replace(CHECK_READ, "");
        out.push({ ...row, label: title, box: split.text });
        out.push({
          kind: "checkbox",
          label: title,
          state: "on",
          box: split.glyph,
          labelBox: split.text,
          conf: row.conf,
        });
        continue;
      }
    }
    out.push(row);
  }
  return out;
}

/** The screen crop of a row box, a few pixels wider each way so its border is background. */
function cropOf(screen: RgbImage, box: FracBox): GreyCrop | null {
  const { width: W, height: H } = screen;
  const pad = Math.max(2, Math.round(0.15 * (box[3] - box[1]) * H));
  const g = greyCrop(
    screen,
    { x0: box[0] * W - pad, y0: box[1] * H - pad, x1: box[2] * W + pad, y1: box[3] * H + pad, score: 1 },
    8,
    8,
  );
  return g && g.maxDiff >= 48 ? g : null;
}

type Run = ReturnType<typeof inkRuns>[number];
const runsOf = (g: GreyCrop): Run[] => inkRuns(g, Math.max(24, g.maxDiff / 3));

/** Fractional box of crop pixels x0–x1 over the rows y0–y1. */
function fracBox(screen: RgbImage, g: GreyCrop, x0: number, y0: number, x1: number, y1: number): FracBox {
  return [
    (g.x0 + x0) / screen.width,
    (g.y0 + y0) / screen.height,
    (g.x0 + x1) / screen.width,
    (g.y0 + y1) / screen.height,
  ];
}

/** The check mark ending the row's ink and the text's box before it; null when the last glyph is none. */
function trailingCheck(screen: RgbImage, box: FracBox): { glyph: FracBox; text: FracBox } | null {
  const g = cropOf(screen, box);
  if (!g) return null;
  const runs = runsOf(g);
  const mark = runs[runs.length - 1];
  const before = runs[runs.length - 2];
  if (!mark || !before || !isCheckGlyph(g, mark, Math.max(24, g.maxDiff / 3))) return null;
  if (mark.x0 - before.x1 < GLYPH_GAP * (mark.y1 - mark.y0)) return null;
  return {
    glyph: fracBox(screen, g, mark.x0, mark.y0, mark.x1, mark.y1),
    text: [box[0], box[1], Math.min(box[2], (g.x0 + before.x1) / screen.width), box[3]],
  };
}

/** The row's box past a leading bar glyph, or null when its ink does not start with one. */
function leadingBars(screen: RgbImage, box: FracBox): FracBox | null {
  // Then a glyph's width left of the box: under a camera's blur the detector's box may start at the
  // glyph's taller bars, its short first bar too faint to be boxed (read `l Office 5G`).
  const reach = (LEAD_REACH * (box[3] - box[1]) * screen.height) / screen.width;
  for (const x0 of [box[0], Math.max(0, box[0] - reach)]) {
    const g = cropOf(screen, [x0, box[1], box[2], box[3]]);
    const runs = g ? runsOf(g) : [];
    const height = Math.max(0, ...runs.map((r) => r.y1 - r.y0));
    // The glyph: runs up to the first gap wide enough to start the title.
    let n = 1;
    while (n < runs.length && (runs[n]?.x0 ?? 0) - (runs[n - 1]?.x1 ?? 0) < BAR_GAP * height) n++;
    const title = runs[n];
    if (g && title && isBarGlyph(g, runs, n))
      return [(g.x0 + title.x0) / screen.width, box[1], box[2], box[3]];
  }
  return null;
}

/**
 * Whether the first `n` runs of the crop's ink are rising bars: the glyph about as wide as tall (three
 * or four bars: 0.6–2 heights), every inked column solid from its top to the shared baseline, the
 * columns' bottoms level, and the tops rising in steps: the glyph's left third reaches at most 0.6 of
 * its height, its middle third higher, its right third the top.
 */
function isBarGlyph(g: GreyCrop, runs: readonly Run[], n: number): boolean {
  const glyph = runs.slice(0, n);
  const first = glyph[0];
  const last = glyph[glyph.length - 1];
  if (!first || !last) return false;
  const x0 = first.x0;
  const x1 = last.x1;
  const y0 = Math.min(...glyph.map((r) => r.y0));
  const y1 = Math.max(...glyph.map((r) => r.y1));
  const h = y1 - y0;
  const w = x1 - x0;
  if (h < 6 || w < 0.6 * h || w > 2 * h) return false;
  const t = Math.max(24, g.maxDiff / 3);
  const ink = (x: number, y: number) => Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t;
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (let x = x0; x < x1; x++) {
    let top = -1;
    let bottom = -1;
    let count = 0;
    for (let y = y0; y < y1; y++)
      if (ink(x, y)) {
        if (top < 0) top = y;
        bottom = y;
        count++;
      }
    if (top < 0) {
      tops.push(Number.POSITIVE_INFINITY);
      continue;
    }
    tops.push(top - y0);
    // A run's first and last columns are the bars' anti-aliased sides: faint, JPEG-speckled on a frame.
    if (glyph.some((r) => x === r.x0 || x === r.x1 - 1)) continue;
    // A bar is filled: its column is ink all the way down (anti-aliasing may thin one pixel at each end).
    if (count < 0.85 * (bottom - top + 1) - 1) return false;
    bottoms.push(bottom);
  }
  if (bottoms.length < 2 || Math.max(...bottoms) - Math.min(...bottoms) > Math.max(2, 0.12 * h)) return false;
  const third = Math.max(1, Math.floor(w / 3));
  const left = Math.min(...tops.slice(0, third));
  const middle = Math.min(...tops.slice(third, w - third));
  const right = Math.min(...tops.slice(w - third));
  return left >= 0.4 * h && left - middle >= 0.12 * h && middle - right >= 0.12 * h && right <= 0.1 * h;
}
