import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";
import { median } from "../shared/median.js";
import type { KeyGrid } from "./keyboard-system-keys.js";
import { globeOrEmoji } from "./keyboard-system-keys.js";

/**
 * The keyboard's bottom row measured cap by cap in the pixels, so that each key of it gets its own row.
 * iOS ships several bottom rows for the same letter grid (UIKit system keyboard, portrait iPhone):
 *   - Face ID iPhones (iOS 11+): `123 | space | return`, or `123 | emoji | space | return` when the globe
 *     takes the strip under the keys (Apple, "Use the onscreen keyboard on iPhone",
 *     support.apple.com/guide/iphone/iph3c50f96e);
 *   - Touch ID iPhones (iPhone 8/SE and every iOS ≤ 10 device): the keyboard-switch and dictation keys
 *     sit IN the bottom row, `123 | globe (or emoji) | mic | space | return`, the mic only with
 *     dictation on, the space bar giving up the mic's width (the same row, Apple's iPhone User Guide for
 *     iOS 8–12, "Type with the onscreen keyboard").
 * Measured on the development set's Touch ID keyboards (iOS 7/8, 320 pt: `rb-ios-passcode-keyboard`,
 * `rb-jsqmessages-keyboard`): `123` and the emoji key are equal caps ≈ 1.07 pitches wide with ≈ 0.18
 * pitch gaps (0.09–1.16, 1.34–2.41), the space bar 2.59–7.41, return 7.59–9.91. Neighbouring caps of one
 * colour (`123` and the globe are both grey) have no edge between them but the keyboard's background, so
 * the detector boxes them as one; the gaps in the pixels do not merge.
 *
 * The row is read along its caps' lower half (below most glyphs; a column's median over that band is the
 * cap's fill, or the background in a gap), against the keyboard's background measured in the gaps
 * between the first letter row's caps (at whole pitches, between `q w e …`).
 */

/** One cap of the bottom row, its extent in pitches from the keyboard's left edge and its key. */
export interface BottomCap {
  label: string;
  box: FracBox;
}

/** Caps are this fraction of the row pitch tall (42 pt of 54; keyboard.ts). */
const CAP_H = 0.78;
/** A run of cap columns narrower than this (pitches) is noise; the narrowest cap is ≈ 1.07. */
const MIN_CAP = 0.6;
/** A gap narrower than this (pitches) inside a cap is a glyph's stroke, not the ≈ 0.18 pitch gap. */
const MIN_GAP = 0.06;
/** The space bar is at least this wide (pitches; 3.6 with a mic beside it, 4.8–5.1 without). */
const MIN_SPACE = 2.8;

/**
 * The bottom row's caps with their keys, or null when the pixels do not show one of iOS's bottom rows
 * (`numbers`: the 123 and #+= layers, whose first key is `ABC`).
 */
export function bottomRowCaps(screen: RgbImage, grid: KeyGrid, numbers: boolean): BottomCap[] | null {
  const { width: W, height: H, data } = screen;
  const { left, pitch, top, rowPitch } = grid;
  const px = pitch * W;
  if (px < 8) return null;
  const yc = (top + 3 * rowPitch) * H;
  const capH = CAP_H * rowPitch * H;
  const at = (x: number, y: number): number =>
    luma(
      data,
      (Math.min(H - 1, Math.max(0, Math.round(y))) * W + Math.min(W - 1, Math.max(0, Math.round(x)))) * 3,
    );
  // The background: the gaps between the first row's caps, at whole pitches (a small median each).
  const bgs: number[] = [];
  const y0 = top * H;
  for (let i = 1; i <= 9; i++) {
    const x = (left + i * pitch) * W;
    const v: number[] = [];
    for (let dy = -0.2; dy <= 0.2; dy += 0.1) v.push(at(x, y0 + dy * capH));
    bgs.push(median(v));
  }
  const bg = median(bgs);
  // Along the row: each column's median over the caps' lower half (below the glyphs).
  const x0 = Math.max(0, Math.floor(left * W));
  const x1 = Math.min(W - 1, Math.ceil((left + 10 * pitch) * W));
  const ys: number[] = [];
  for (let f = 0.1; f <= 0.34; f += 0.04) ys.push(yc + f * capH);
  const profile: number[] = [];
  for (let x = x0; x <= x1; x++) profile.push(median(ys.map((y) => at(x, y))));
  // Caps differ from the background by ≥ 30 levels in every iOS keyboard look (light: 255 and ≈ 178 on
  // ≈ 212); a third of the widest difference along the row, within 10–25 levels, separates them from a
  // gap's blur — bounded, since a coloured return key (iOS 7's blue `Go`) differs far more than the grey
  // caps do.
  const spread = Math.max(...profile.map((v) => Math.abs(v - bg)));
  if (spread < 20) return null;
  const threshold = Math.min(25, Math.max(10, spread / 3));
  const isCap = profile.map((v) => Math.abs(v - bg) > threshold);
  // Runs of cap columns, gaps shorter than MIN_GAP closed.
  const runs: [number, number][] = [];
  let start = -1;
  isCap.forEach((c, i) => {
    if (c && start < 0) start = i;
    if (!c && start >= 0) {
      runs.push([start, i - 1]);
      start = -1;
    }
  });
  if (start >= 0) runs.push([start, isCap.length - 1]);
  const closed: [number, number][] = [];
  for (const r of runs) {
    const last = closed[closed.length - 1];
    if (last && r[0] - last[1] - 1 < MIN_GAP * px) last[1] = r[1];
    else closed.push([r[0], r[1]]);
  }
  const caps = closed
    .filter(([a, b]) => b - a + 1 >= MIN_CAP * px)
    .map(([a, b]) => ({ u0: (x0 + a) / W, u1: (x0 + b + 1) / W }));
  return assign(screen, caps, grid, numbers);
}

/**
 * The keys of measured caps, when they form one of iOS's rows: one to three caps left of the space bar
 * (`123`/`ABC`, then the globe or emoji, then the mic), the space bar (the widest, ≥ `MIN_SPACE`
 * pitches), and one cap right of it (return), the first starting and the last ending within half a
 * pitch of the keyboard's sides.
 */
function assign(
  screen: RgbImage,
  caps: readonly { u0: number; u1: number }[],
  grid: KeyGrid,
  numbers: boolean,
): BottomCap[] | null {
  const { left, pitch, top, rowPitch } = grid;
  if (caps.length < 3 || caps.length > 5) return null;
  const first = caps[0];
  const last = caps[caps.length - 1];
  if (!first || !last || first.u0 > left + 0.5 * pitch || last.u1 < left + 9.5 * pitch) return null;
  const widths = caps.map((c) => (c.u1 - c.u0) / pitch);
  const space = widths.indexOf(Math.max(...widths));
  if ((widths[space] ?? 0) < MIN_SPACE || space !== caps.length - 2) return null;
  // Left of the space bar: caps of one key's width each (0.8–2.6 pitches: `123` alone is ≈ 2.2).
  if (widths.slice(0, space).some((w) => w < 0.8 || w > 2.6)) return null;
  const yc = top + 3 * rowPitch;
  const h = (CAP_H * rowPitch) / 2;
  const box = (c: { u0: number; u1: number }): FracBox => [c.u0, yc - h, c.u1, yc + h];
  const labels = [numbers ? "ABC" : "123"];
  // The symbol named inside its cap, clear of the cap's rounded corners and its shadow.
  const inner = (c: { u0: number; u1: number }): FracBox => {
    const m = 0.15 * (c.u1 - c.u0);
    return [c.u0 + m, yc - 0.8 * h, c.u1 - m, yc + 0.8 * h];
  };
  if (space >= 2) labels.push(globeOrEmoji(screen, inner(caps[1] ?? first)));
  if (space === 3) labels.push("mic");
  labels.push("space", "return");
  return caps.map((c, i) => ({ label: labels[i] ?? "", box: box(c) }));
}
