import { luma, type RgbImage } from "../shared/image.js";
import { median } from "../shared/median.js";
import type { Candidate } from "./row.js";
import { boxHeight, centreX, centreY } from "./row.js";

/**
 * The `+` a phone keypad prints under `0`, for `dial-pad.ts`. Keypads that print the E.161 letters under
 * the digits (`ABC` … `WXYZ`: Apple's Phone app, VoIP apps' copies of it) print a `+` in that place on
 * `0`, the character a long press types (the international prefix). It is one small glyph — the letters'
 * size, ~8–10 pt — which the text detector's 320 px map misses where it finds the three- and four-letter
 * lines beside it (`datasets/real-iphone`: rb-twilio-dial-view, re-jcdialpad-dial, re-jcdialpad-incall-keypad).
 * Where the letters sit on the other keys predicts where it is; it is listed when the ink there is one
 * compact cross: a bar across its middle row, a bar down its middle column, empty corners.
 */

/** Keypad digits whose keys print letters, with their grid cell (E.161: 2 ABC … 9 WXYZ). */
const LETTER_KEYS: Record<string, { col: number; row: number }> = {
  ABC: { col: 1, row: 0 },
  DEF: { col: 2, row: 0 },
  GHI: { col: 0, row: 1 },
  JKL: { col: 1, row: 1 },
  MNO: { col: 2, row: 1 },
  PQRS: { col: 0, row: 2 },
  TUV: { col: 1, row: 2 },
  WXYZ: { col: 2, row: 2 },
};

/** Fewest letter lines read on their own keys before their place is trusted for the `+`. */
const MIN_LETTERS = 2;
/** Ink is a luma step of at least this share of the window's strongest step, and at least `MIN_STEP`. */
const INK_SHARE = 0.5;
const MIN_STEP = 40;

export interface PadGeometry {
  cols: readonly [number, number, number];
  rows: readonly [number, number, number, number];
  pitchX: number;
  pitchY: number;
}

/** A `text` row `+` under the keypad's `0`, or null when the letters or the cross are not there. */
export function plusUnderZero(
  screen: RgbImage,
  rows: readonly Candidate[],
  grid: PadGeometry,
): Candidate | null {
  const seen: { dx: number; dy: number; h: number }[] = [];
  for (const r of rows) {
    if (r.kind !== "text") continue;
    const at = LETTER_KEYS[r.label.replace(/\s/g, "").toUpperCase()];
    if (!at) continue;
    const dx = centreX(r.box) - (grid.cols[at.col] ?? 0);
    const dy = centreY(r.box) - (grid.rows[at.row] ?? 0);
    if (Math.abs(dx) > grid.pitchX / 3 || dy <= 0 || dy > grid.pitchY / 2) continue;
    seen.push({ dx, dy, h: boxHeight(r.box) });
  }
  if (seen.length < MIN_LETTERS) return null;
  const x0 = grid.cols[1] + median(seen.map((s) => s.dx));
  const y0 = grid.rows[3] + median(seen.map((s) => s.dy));
  const h = median(seen.map((s) => s.h));
  // Something already read there (a `+` OCR did see, a word).
  if (
    rows.some(
      (r) =>
        r.kind === "text" &&
        Math.abs(centreX(r.box) - x0) < grid.pitchX / 3 &&
        Math.abs(centreY(r.box) - y0) < h,
    )
  )
    return null;
  const box = crossAt(screen, x0, y0, h);
  return box ? { kind: "text", label: "+", box, conf: 0.6 } : null;
}

/** The box (fractions) of one cross-shaped glyph centred near (x0, y0) about `h` tall, or null. */
function crossAt(
  screen: RgbImage,
  x0: number,
  y0: number,
  h: number,
): [number, number, number, number] | null {
  const { width: W, height: H, data } = screen;
  const hp = h * H;
  if (hp < 4) return null;
  const wx0 = Math.max(0, Math.round(x0 * W - 1.5 * hp));
  const wx1 = Math.min(W - 1, Math.round(x0 * W + 1.5 * hp));
  const wy0 = Math.max(0, Math.round(y0 * H - 1.2 * hp));
  const wy1 = Math.min(H - 1, Math.round(y0 * H + 1.2 * hp));
  const w = wx1 - wx0 + 1;
  const vals: number[] = [];
  for (let y = wy0; y <= wy1; y++) for (let x = wx0; x <= wx1; x++) vals.push(luma(data, (y * W + x) * 3));
  const bg = median(vals);
  const step = Math.max(...vals.map((v) => Math.abs(v - bg)));
  if (step < MIN_STEP) return null;
  const ink = vals.map((v) => Math.abs(v - bg) > INK_SHARE * step);
  // The glyph is the ink component nearest the predicted place (a ring or the digit above are others).
  const tall = ink.length / w;
  const cx = x0 * W - wx0;
  const cy = y0 * H - wy0;
  let seed = -1;
  let best = Number.POSITIVE_INFINITY;
  ink.forEach((on, i) => {
    const d = Math.hypot((i % w) - cx, Math.floor(i / w) - cy);
    if (on && d < best) {
      best = d;
      seed = i;
    }
  });
  if (seed < 0 || best > 0.6 * hp) return null;
  const mine = new Uint8Array(ink.length);
  const stack = [seed];
  mine[seed] = 1;
  let bx0 = Number.POSITIVE_INFINITY;
  let bx1 = -1;
  let by0 = Number.POSITIVE_INFINITY;
  let by1 = -1;
  while (stack.length > 0) {
    const i = stack.pop() ?? 0;
    const x = i % w;
    const y = Math.floor(i / w);
    bx0 = Math.min(bx0, x);
    bx1 = Math.max(bx1, x);
    by0 = Math.min(by0, y);
    by1 = Math.max(by1, y);
    for (const [nx, ny] of [
      [x - 1, y],
      [x + 1, y],
      [x, y - 1],
      [x, y + 1],
    ] as const) {
      const j = ny * w + nx;
      if (nx >= 0 && nx < w && ny >= 0 && ny < tall && ink[j] && !mine[j]) {
        mine[j] = 1;
        stack.push(j);
      }
    }
  }
  if (bx1 < 0) return null;
  const bw = bx1 - bx0 + 1;
  const bh = by1 - by0 + 1;
  // One glyph inside the window (touching its top or bottom: the digit above, a ring), letter-sized.
  if (by0 === 0 || by1 === wy1 - wy0 || bx0 === 0 || bx1 === w - 1) return null;
  if (bh < 0.3 * hp || bh > 1.4 * hp || bw / bh < 0.6 || bw / bh > 1.6) return null;
  const at = (x: number, y: number): boolean => mine[y * w + x] === 1;
  // A bar across the middle row and down the middle column (±1 px), the corners empty.
  const my = Math.round((by0 + by1) / 2);
  const mx = Math.round((bx0 + bx1) / 2);
  let across = 0;
  for (let x = bx0; x <= bx1; x++) if (at(x, my) || at(x, my - 1) || at(x, my + 1)) across++;
  let down = 0;
  for (let y = by0; y <= by1; y++) if (at(mx, y) || at(mx - 1, y) || at(mx + 1, y)) down++;
  let corner = 0;
  let cornerN = 0;
  const cw = Math.max(1, Math.floor(bw * 0.3));
  const ch = Math.max(1, Math.floor(bh * 0.3));
  for (const [cx, cy] of [
    [bx0, by0],
    [bx1 - cw + 1, by0],
    [bx0, by1 - ch + 1],
    [bx1 - cw + 1, by1 - ch + 1],
  ] as const)
    for (let y = cy; y < cy + ch; y++)
      for (let x = cx; x < cx + cw; x++) {
        cornerN++;
        if (at(x, y)) corner++;
      }
  if (across < 0.8 * bw || down < 0.8 * bh || corner > 0.15 * cornerN) return null;
  return [(wx0 + bx0) / W, (wy0 + by0) / H, (wx0 + bx1 + 1) / W, (wy0 + by1 + 1) / H];
}
