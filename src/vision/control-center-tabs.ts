import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * Control Center's page tabs (iOS 18): a column of small symbols at the screen's right edge, one per
 * page (Favorites ♥, Music ♪, Connectivity …), the current page's drawn white and the others dimmed
 * (Apple Support, "Use and customize Control Center on iPhone": swipe or tap the icons on the right to
 * move between groups of controls). The detector finds the bright one; the dim ones are too faint for
 * the glyph pass's fixed ink contrast. So, once the connectivity module marks the screen as Control
 * Center, an icon row at the right edge seeds the column: the column's band is scanned line by line
 * for ink (a line's strongest luma difference from the median of a wider strip around it, against a
 * threshold that scales with the column's own measured noise), and the ink runs of the seed's height,
 * chained above and below it at gaps of no more than `MAX_GAP` of its height, three or more at an even
 * pitch, are the tabs.
 */

/** The seed: centred in the right 12% of the screen, at most this wide (fractions of the width). */
const EDGE = 0.88;
const MAX_TAB = 0.08;
/** A run of the seed's height within this ratio. */
const HEIGHT = { min: 0.6, max: 1.6 };
/** Tabs chain at gaps of at most this many tab heights (iOS 18: ≈ 2.5). */
const MAX_GAP = 3.5;
/** The column's pitches agree within this fraction of their median. */
const PITCH_TOLERANCE = 0.25;
/** Ink: a line's contrast above this many times the column's median line contrast, and at least `MIN_INK`. */
const NOISE_TIMES = 4;
const MIN_INK = 16;

/** The connectivity module's switches as `switches-control-center.ts` names them (any iOS 11–18 layout). */
const MODULE = new Set(["Airplane Mode", "Wi-Fi", "Cellular Data", "AirDrop", "Bluetooth"]);

/**
 * New `[icon] ""` rows for the page tabs not yet on a row; empty unless `rows` hold the connectivity
 * module's switches (at least three).
 */
export function findCcPageTabs(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  if (rows.filter((r) => r.kind === "switch" && MODULE.has(r.label)).length < 3) return [];
  const seeds = rows.filter(
    (r) => r.kind === "icon" && centreX(r.box) > EDGE && boxWidth(r.box) < MAX_TAB && r.box[2] < 1,
  );
  for (const seed of seeds) {
    const tabs = chain(screen, rows, seed);
    if (tabs.length > 0) return tabs;
  }
  return [];
}

/** The tabs chained above and below `seed` (see the module comment). */
function chain(screen: RgbImage, rows: readonly Candidate[], seed: Candidate): Candidate[] {
  const { width: W, height: H, data } = screen;
  const bx0 = Math.max(0, Math.floor(seed.box[0] * W));
  const bx1 = Math.min(W, Math.ceil(seed.box[2] * W));
  const sw = bx1 - bx0;
  // The background strip: the band and half its width either side (the modules' grid ends left of it).
  const wx0 = Math.max(0, bx0 - (sw >> 1));
  const wx1 = Math.min(W, bx1 + (sw >> 1));
  // Lines within a few tabs of the seed: a page column is short.
  const sh = Math.max(1, Math.round((seed.box[3] - seed.box[1]) * H));
  const y0 = Math.max(0, Math.round(seed.box[1] * H) - 8 * sh);
  const y1 = Math.min(H, Math.round(seed.box[3] * H) + 8 * sh);
  const contrast = new Float32Array(y1 - y0);
  const strip: number[] = [];
  for (let y = y0; y < y1; y++) {
    strip.length = 0;
    for (let x = wx0; x < wx1; x++) strip.push(luma(data, (y * W + x) * 3));
    strip.sort((a, b) => a - b);
    const bg = strip[strip.length >> 1] ?? 0;
    let c = 0;
    for (let x = bx0; x < bx1; x++) c = Math.max(c, Math.abs(luma(data, (y * W + x) * 3) - bg));
    contrast[y - y0] = c;
  }
  const sorted = Array.from(contrast).sort((a, b) => a - b);
  const t = Math.max(MIN_INK, NOISE_TIMES * (sorted[sorted.length >> 1] ?? 0));
  const runs: { y0: number; y1: number }[] = [];
  for (let y = y0; y < y1; y++) {
    if ((contrast[y - y0] ?? 0) <= t) continue;
    const last = runs[runs.length - 1];
    if (last && y - last.y1 <= 1) last.y1 = y + 1;
    else runs.push({ y0: y, y1: y + 1 });
  }
  const cy = centreY(seed.box) * H;
  const at = runs.findIndex((r) => r.y0 <= cy && cy < r.y1);
  const own = runs[at];
  if (!own) return [];
  const h = own.y1 - own.y0;
  const column = [own];
  for (const dir of [-1, 1]) {
    let prev = own;
    for (let i = at + dir; i >= 0 && i < runs.length; i += dir) {
      const r = runs[i];
      if (!r) break;
      const rh = r.y1 - r.y0;
      const gap = dir > 0 ? r.y0 - prev.y1 : prev.y0 - r.y1;
      if (gap > MAX_GAP * h) break;
      if (rh < HEIGHT.min * h || rh > HEIGHT.max * h) continue;
      prev = r;
      column.push(r);
    }
  }
  // A page column: three or more tabs (iOS 18 starts with several pages), evenly spaced.
  column.sort((p, q) => p.y0 - q.y0);
  if (column.length < 3) return [];
  const pitches = column.slice(1).map((r, i) => r.y0 - (column[i]?.y0 ?? 0));
  const mid = [...pitches].sort((p, q) => p - q)[pitches.length >> 1] ?? 0;
  if (pitches.some((p) => Math.abs(p - mid) > PITCH_TOLERANCE * mid)) return [];
  const out: Candidate[] = [];
  for (const r of column) {
    const box: FracBox = [bx0 / W, r.y0 / H, bx1 / W, r.y1 / H];
    if (!rows.some((q) => contains(q.box, centreX(box), centreY(box))))
      out.push({ kind: "icon", label: "", box, conf: 0.5 });
  }
  return out;
}
