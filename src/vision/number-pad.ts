import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { centreX, centreY } from "./row.js";

/**
 * The system number and decimal pads (`UIKeyboardType.numberPad`, `.asciiCapableNumberPad`,
 * `.decimalPad`), for `dial-pad.ts`: once a keypad's digits are fitted to their 3 × 4 grid, which
 * keyboard it is and what its bottom corners hold.
 *
 * UIKit draws these pads as a keyboard: docked at the bottom of the screen (only the home indicator's
 * strip under it on Face ID iPhones) and spanning its width in three equal columns of keys, each
 * (W − 2·6 − 2·6) / 3 pt wide on a ~W/3 pitch (iOS 16+ rounded keys; full-width cells with hairline
 * separators before iOS 7) — wider than any phone keypad's round caps (Phone app and passcode screen:
 * ~100 pt pitch, ≤ 0.27 of the width). Its bottom-left cell is empty on `.numberPad` and holds the
 * locale's decimal separator (`.` or `,`) on `.decimalPad`; its bottom-right cell is always the delete
 * key (the `delete.left` symbol, no key background). There is no `*` or `#` key. The Phone app's iOS 6
 * keypad also fills the width in thirds, but its call button and tab bar sit under it, so its bottom row
 * is far from the screen's bottom.
 */

/** Fewest share of the width between two key columns: thirds of the width, not a phone keypad's ~0.25. */
const MIN_PITCH_X = 0.29;
/** The bottom row's centre at least this far down: one key row (~53 pt) and the home strip (34 pt) up. */
const MIN_BOTTOM_ROW_Y = 0.85;

/** Whether a keypad grid is the system number / decimal pad (see the module comment). */
export function isSystemNumberPad(grid: { pitchX: number; rows: readonly number[] }): boolean {
  return grid.pitchX >= MIN_PITCH_X && (grid.rows[3] ?? 0) >= MIN_BOTTOM_ROW_Y;
}

/**
 * Luma steps from the cell's own median that count as the separator's ink. Lower than a letter's
 * (`dial-pad-pixels.ts`, 60): the dot is ~4 pt, and a camera's blur takes a white dot on the dark
 * pad's grey key (#6B6B6B) to ~55 steps over its key; a flat key's camera noise stays under ~15.
 */
const INK_STEP = 35;
/** Share of the window that must be ink before a glyph counts (a camera's noise stays under this). */
const MIN_INK = 0.002;
/**
 * A comma's ink is a dot with a tail under it, about twice as tall as wide; a period's is a round dot
 * (a camera's blur widens both, so the cut sits between 1 and 2).
 */
const COMMA_ASPECT = 1.45;

/**
 * What the bottom-left cell of a system pad holds at (cx, cy) (cap half-sizes `rx` of the width and
 * `ry` of the height): the decimal separator the pad draws there, or null for an empty cell (a number
 * pad). `read` is what OCR read on the cell, if anything: `.` and `,` are believed; any other character
 * (OCR reads a lone dot as `*`, `·`, `-`…) is replaced by what the glyph's ink looks like. The window is
 * ±0.6 of the cap around its centre: the separator sits on the digits' baseline, under the key's centre.
 */
export function decimalSeparator(
  screen: RgbImage,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  read?: string,
): "." | "," | null {
  const t = read?.trim();
  if (t === "." || t === "。" || t === "．") return ".";
  if (t === "," || t === "，") return ",";
  const { width: W, height: H, data } = screen;
  const x0 = Math.max(0, Math.round((cx - 0.6 * rx) * W));
  const x1 = Math.min(W - 1, Math.round((cx + 0.6 * rx) * W));
  const y0 = Math.max(0, Math.round((cy - 0.6 * ry) * H));
  const y1 = Math.min(H - 1, Math.round((cy + 0.6 * ry) * H));
  if (x1 <= x0 || y1 <= y0) return null;
  // The window's median luma (its key's fill or the keyboard's background), from a 256-bin histogram.
  const hist = new Uint32Array(256);
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const v = Math.round(luma(data, (y * W + x) * 3));
      hist[Math.max(0, Math.min(255, v))] = (hist[Math.max(0, Math.min(255, v))] ?? 0) + 1;
    }
  const n = (x1 - x0 + 1) * (y1 - y0 + 1);
  let bg = 0;
  for (let acc = 0; bg < 256; bg++) {
    acc += hist[bg] ?? 0;
    if (acc * 2 >= n) break;
  }
  let ink = 0;
  let l = W;
  let r = -1;
  let t0 = H;
  let b = -1;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      if (Math.abs(luma(data, (y * W + x) * 3) - bg) <= INK_STEP) continue;
      ink++;
      l = Math.min(l, x);
      r = Math.max(r, x);
      t0 = Math.min(t0, y);
      b = Math.max(b, y);
    }
  if (ink < MIN_INK * n || r < l) return null;
  return b - t0 + 1 >= COMMA_ASPECT * (r - l + 1) ? "," : ".";
}

/** What `systemPadCorners` lists: the corner keys and the OCR rows read into them. */
export interface PadCorners {
  keys: Candidate[];
  /** Text rows that were a corner key's own glyph (dropped from the listing). */
  glyphs: Candidate[];
}

/**
 * The bottom corners of a system number / decimal pad whose grid has columns `cols` and bottom row `y`:
 * `[key] "."` or `[key] ","` when the bottom-left cell holds a separator (nothing on a number pad's
 * empty cell), and `[key] "delete"` on the bottom-right cell, which UIKit always draws (whatever OCR
 * read there: the `delete.left` symbol reads as `x`, `#`, `卤`…). A word on a corner (the phone pad's
 * `+*#`, an app's own button) is left to be its own row.
 */
export function systemPadCorners(
  screen: RgbImage,
  rows: readonly Candidate[],
  cols: readonly number[],
  y: number,
  cap: { rx: number; ry: number },
): PadCorners {
  const { rx, ry } = cap;
  const box = (x: number): FracBox => [x - rx, y - ry, x + rx, y + ry];
  const on = (r: Candidate, x: number): boolean =>
    r.kind === "text" && Math.abs(centreX(r.box) - x) < rx && Math.abs(centreY(r.box) - y) < ry;
  const out: PadCorners = { keys: [], glyphs: [] };
  const left = cols[0] ?? 0;
  const right = cols[2] ?? 0;
  const sepText = rows.find((r) => on(r, left));
  if (!sepText || Array.from(sepText.label.trim()).length <= 1) {
    const sep = decimalSeparator(screen, left, y, rx, ry, sepText?.label);
    if (sep) {
      out.keys.push({ kind: "key", label: sep, box: box(left), conf: sepText ? 0.9 : 0.7 });
      if (sepText) out.glyphs.push(sepText);
    }
  }
  const delText = rows.find((r) => on(r, right));
  if (!delText || Array.from(delText.label.trim()).length <= 1) {
    out.keys.push({ kind: "key", label: "delete", box: box(right), conf: 0.8 });
    if (delText) out.glyphs.push(delText);
  }
  return out;
}
