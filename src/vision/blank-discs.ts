import type { RgbImage } from "../shared/image.js";
import { inkContrast } from "./ink-spread.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * Plain discs repeated in one colour: ornament, not controls.
 *
 * A button shows what it does — a title or a symbol (HIG "Buttons": a button's content is text, a
 * symbol or both; UIKit `UIButton.Configuration` draws its `title`/`image` on the background). A filled
 * shape with nothing on it is a control only when its colour is the point (a palette's swatches, each a
 * different colour; `UIColorWell`) or when it is alone and iconic (a camera's shutter). Several plain
 * discs of the same colour and size are pieces of artwork — a brand mark's dots (Twilio's four), a
 * decorative pattern — and the detector's boxes on them point at nothing. Page-control and passcode
 * dots (7–13 pt) are far smaller than the discs counted here.
 */

/** Discs counted here are at least this fraction of the screen's width (~20 pt). */
const MIN_WIDTH = 0.05;
/** … roughly square (width / height in pixels). */
const SQUARE = [2 / 3, 1.5] as const;
/** The middle of the box (this fraction of each side) holds no ink: its luma spreads under `PLAIN`. */
const MIDDLE = 0.5;
/** Levels: flat fill with JPEG or camera noise; a symbol's ink spreads a third of the range or more. */
const PLAIN = 12;
/** The fill differs from the box's corners (the background) by at least this much (max channel, levels). */
const FILLED = 40;
/** Fills of one colour differ by less than this (max channel, levels). */
const SAME = 24;
/** This many plain discs of one colour make a pattern. */
const REPEATS = 3;

/** The icon rows of `rows` on plain discs repeated in one colour (see the module comment). */
export function repeatedBlankDiscs(screen: RgbImage, rows: readonly Candidate[]): Set<Candidate> {
  const aspect = screen.height / Math.max(1, screen.width);
  const discs: { row: Candidate; fill: number[] }[] = [];
  for (const r of rows) {
    if (r.kind !== "icon" || boxWidth(r.box) < MIN_WIDTH) continue;
    const ratio = boxWidth(r.box) / Math.max(1e-6, boxHeight(r.box) * aspect);
    if (ratio < SQUARE[0] || ratio > SQUARE[1]) continue;
    const [l, t, rt, b] = r.box;
    const mx = ((1 - MIDDLE) / 2) * (rt - l);
    const my = ((1 - MIDDLE) / 2) * (b - t);
    const middle: Candidate["box"] = [l + mx, t + my, rt - mx, b - my];
    if (inkContrast(screen, middle) >= PLAIN) continue;
    const fill = meanColour(screen, middle);
    const corners = [
      meanColour(screen, [l, t, l + mx / 2, t + my / 2]),
      meanColour(screen, [rt - mx / 2, t, rt, t + my / 2]),
      meanColour(screen, [l, b - my / 2, l + mx / 2, b]),
      meanColour(screen, [rt - mx / 2, b - my / 2, rt, b]),
    ];
    if (corners.every((c) => distance(c, fill) >= FILLED)) discs.push({ row: r, fill });
  }
  const out = new Set<Candidate>();
  for (const d of discs) {
    const alike = discs.filter((o) => distance(o.fill, d.fill) < SAME);
    if (alike.length >= REPEATS) out.add(d.row);
  }
  return out;
}

const distance = (a: number[], b: number[]): number =>
  Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? 0))));

/** Mean RGB over `box` (screen fractions); black for an empty box. */
function meanColour(screen: RgbImage, box: Candidate["box"]): number[] {
  const { width: W, height: H, data } = screen;
  const l = Math.max(0, Math.floor(box[0] * W));
  const r = Math.min(W, Math.ceil(box[2] * W));
  const t = Math.max(0, Math.floor(box[1] * H));
  const b = Math.min(H, Math.ceil(box[3] * H));
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = t; y < b; y++)
    for (let x = l; x < r; x++) {
      const i = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (data[i + c] ?? 0);
      n++;
    }
  return sum.map((s) => (n > 0 ? s / n : 0));
}
