import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY, contains } from "./row.js";

/**
 * The QuickType (predictive text) bar over the system keyboard, cell by cell. Since iOS 8 the keyboard
 * shows up to three suggestions in a bar right above its keys, the width split in three equal cells by
 * thin vertical separators (a 1-px line lighter than the bar on iOS 8–12, darker on iOS 13+); a tap on a
 * cell inserts its word, and the first cell shows the typed text in quotes (`“word”`) to keep it as typed
 * (Apple, iPhone User Guide, "Use predictive text on iPhone", support.apple.com/guide/iphone/iphd4ea90231).
 * So each cell with something in it is a button: named by the text read in it, or — when the text
 * detector missed it — `I` for a lone upright stem (the only one-letter suggestion drawn as a bare stroke:
 * SF Pro's capital I; `a`, the other one-letter English word, has a bowl), or left unnamed. The cell's row
 * replaces the text and icon rows inside it, so one target is one row; an empty cell lists nothing.
 *
 * The bar is found by its two separators: at a third and two thirds of the width, within 1.4 row pitches
 * above the keyboard's first row of caps, a column that differs from its neighbours 3 px either side (which
 * agree with each other) over at least a third of a row pitch, both at the same height.
 */

/** Separator contrast (luma levels) against its neighbours; seen 15–35 on real bars. */
const SEPARATOR_CONTRAST = 6;
/** Neighbours either side of a separator agree within this (the bar's fill on both sides). */
const FLAT = 6;
/** A cell spans this many row pitches about the separators' middle (44 pt bar, 54 pt key rows). */
const CELL_HALF = 0.4;

export function applyQuickType(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const letters = rows.filter((r) => r.kind === "key" && /^\p{L}$/u.test(r.label));
  if (letters.length < 10) return [...rows];
  const capTop = Math.min(...letters.map((k) => k.box[1]));
  const rowPitch = Math.max(...letters.map((k) => boxHeight(k.box))) / 0.78;
  const bar = findBar(screen, capTop, rowPitch);
  if (!bar) return [...rows];
  const [s1, s2, mid] = bar;
  const y0 = Math.max(0, mid - CELL_HALF * rowPitch);
  const y1 = Math.min(capTop, mid + CELL_HALF * rowPitch);
  const cells: FracBox[] = [
    [0, y0, s1, y1],
    [s1, y0, s2, y1],
    [s2, y0, 1, y1],
  ];
  const used = new Set<Candidate>();
  const out: Candidate[] = [];
  for (const cell of cells) {
    const inside = rows.filter(
      (r) => (r.kind === "text" || r.kind === "icon") && contains(cell, centreX(r.box), centreY(r.box)),
    );
    const texts = inside.filter((r) => r.kind === "text").sort((a, b) => a.box[0] - b.box[0]);
    for (const r of inside) used.add(r);
    if (texts.length > 0) {
      const labelBox: FracBox = [
        Math.min(...texts.map((t) => t.box[0])),
        Math.min(...texts.map((t) => t.box[1])),
        Math.max(...texts.map((t) => t.box[2])),
        Math.max(...texts.map((t) => t.box[3])),
      ];
      const label = texts.map((t) => t.label.trim()).join(" ");
      out.push({ kind: "button", label, box: cell, labelBox, conf: Math.max(...texts.map((t) => t.conf)) });
      continue;
    }
    const ink = cellInk(screen, cell);
    if (!ink) continue;
    const stem = ink[2] - ink[0] <= 0.35 * (ink[3] - ink[1]) * (screen.height / screen.width);
    out.push(
      stem
        ? { kind: "button", label: "I", box: cell, labelBox: ink, conf: 0.7 }
        : // Unread: the glyph's own box (a tap there is on the cell), as the detector would give it.
          { kind: "icon", label: "", box: ink, conf: 0.6 },
    );
  }
  return [...rows.filter((r) => !used.has(r)), ...out];
}

/**
 * The bar's two separators (x as fractions of the width) and their middle height, or null when the band
 * above the keys (`capTop`, the first row's cap top; `rowPitch`, fractions of the height) has none.
 */
function findBar(screen: RgbImage, capTop: number, rowPitch: number): [number, number, number] | null {
  const { width: W, height: H, data } = screen;
  const at = (x: number, y: number): number => luma(data, (y * W + x) * 3);
  const yA = Math.max(0, Math.round((capTop - 1.4 * rowPitch) * H));
  const yB = Math.min(H - 1, Math.round(capTop * H));
  const minRun = (rowPitch * H) / 3;
  const separator = (s: number): { x: number; y0: number; y1: number } | null => {
    let best: { x: number; y0: number; y1: number } | null = null;
    const span = Math.max(2, Math.round(0.015 * W));
    for (let x = Math.round(s * W) - span; x <= Math.round(s * W) + span; x++) {
      if (x < 3 || x >= W - 3) continue;
      let start = -1;
      let sign = 0;
      for (let y = yA; y <= yB + 1; y++) {
        const l = y <= yB ? at(x - 3, y) : 0;
        const r = y <= yB ? at(x + 3, y) : 0;
        const d = y <= yB ? at(x, y) - (l + r) / 2 : 0;
        const on = y <= yB && Math.abs(l - r) <= FLAT && Math.abs(d) >= SEPARATOR_CONTRAST;
        const s2 = Math.sign(d);
        if (on && start >= 0 && s2 === sign) continue;
        if (start >= 0 && y - start >= minRun && (!best || y - start > best.y1 - best.y0))
          best = { x, y0: start, y1: y };
        start = on ? y : -1;
        sign = on ? s2 : 0;
      }
    }
    return best;
  };
  const a = separator(1 / 3);
  const b = separator(2 / 3);
  if (!a || !b) return null;
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (overlap < 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0)) return null;
  return [(a.x + 0.5) / W, (b.x + 0.5) / W, (a.y0 + a.y1 + b.y0 + b.y1) / 4 / H];
}

/**
 * The box of the ink in the middle of a cell (clear of its separators: the inner 80% of its width, 70%
 * of its height): pixels more than 40 levels from the cell's median, as a glyph differs from its bar;
 * null without any.
 */
function cellInk(screen: RgbImage, cell: FracBox): FracBox | null {
  const { width: W, height: H, data } = screen;
  const w = cell[2] - cell[0];
  const h = cell[3] - cell[1];
  const x0 = Math.round((cell[0] + 0.1 * w) * W);
  const x1 = Math.round((cell[2] - 0.1 * w) * W);
  const y0 = Math.round((cell[1] + 0.15 * h) * H);
  const y1 = Math.round((cell[3] - 0.15 * h) * H);
  if (x1 - x0 < 4 || y1 - y0 < 4) return null;
  const values: number[] = [];
  for (let y = y0; y < y1; y += 2) for (let x = x0; x < x1; x += 2) values.push(luma(data, (y * W + x) * 3));
  values.sort((p, q) => p - q);
  const bg = values[Math.floor(values.length / 2)] ?? 0;
  let [ix0, iy0, ix1, iy1] = [x1, y1, -1, -1];
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (Math.abs(luma(data, (y * W + x) * 3) - bg) > 40) {
        ix0 = Math.min(ix0, x);
        ix1 = Math.max(ix1, x);
        iy0 = Math.min(iy0, y);
        iy1 = Math.max(iy1, y);
      }
  if (ix1 < 0 || iy1 - iy0 < 3) return null;
  return [ix0 / W, iy0 / H, (ix1 + 1) / W, (iy1 + 1) / H];
}
