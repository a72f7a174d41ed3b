import { floodRegion } from "../../shared/flood-box.js";
import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";

/**
 * Text plates: short text iOS apps print on a small filled shape of one flat colour — a capsule tag
 * (`NATIVE`, `Live`: a 10–12 pt semibold caption with 4–6 pt of padding on the tint at 10–20% alpha, or
 * white on the full tint), a transit line's route chip (`U2`, `M4`: white bold on a saturated fill), a
 * letter or route tile (`F`, `71A` on a 34–40 pt rounded square of systemGray5/6), a count badge (white
 * digits on a filled disc of any system colour). SwiftUI draws them as `Text` with `.padding()` and
 * `.background(Capsule() / RoundedRectangle / Circle().fill(…))`, UIKit as a label in a view with a
 * `cornerRadius` ≤ half its height; either way one flat fill, edge to edge, with the text centred on it.
 * The text detector's 320 px map sees such a plate as one blob with its text (a 1–3 character label
 * is 6–12 map pixels wide), so the label is often not found at all; `lone-glyphs.ts` reads it from the
 * plate's middle instead, the way it reads a red notification badge (`badges.ts`).
 *
 * A plate here: a connected region of one colour (each cell within `TOL` of the region's first cell,
 * sampled every `STEP` working pixels), as tall as 14–43 pt on a 390 pt wide screen (`MIN_H`, `MAX_H`:
 * from a 10 pt capsule tag to a 40 pt tile; a 60 pt app icon is taller), 0.8–5 times as wide as tall (a
 * disc to a six-letter tag), filling 55–97% of its box (a capsule fills 89%, a disc 79% less its text),
 * and another colour than the ring just outside it (a shape on a background, not a gap in a page).
 */

/** Sampling step of the scan, working pixels (as `badges.ts`). */
const STEP = 2;
/** Largest per-channel distance of a plate's cell from its first cell (JPEG and a camera's noise). */
const TOL = 22;
/** Height bounds as fractions of the screen's width: 14 pt and 43 pt of a 390 pt wide screen. */
const MIN_H = 14 / 390;
const MAX_H = 43 / 390;
/** Width over height: a disc (0.8 for a camera's blur) to a six-letter capsule tag. */
const MIN_ASPECT = 0.8;
const MAX_ASPECT = 5;
/** Cells of the region over its box: a disc with a digit ~0.7, a capsule ~0.8, a tile with text ~0.9. */
const MIN_FILL = 0.55;
const MAX_FILL = 0.97;
/** Least per-channel difference between the plate and the ring around it (a 10% tint on white: ~25). */
const MIN_EDGE = 10;
/** At most this many plates per screen (the reads are batched; a departure board shows ~10 chips). */
const MAX_PLATES = 24;
/**
 * The inner box read: inset 18% of the height from top and bottom and 8% from each end. Where a corner
 * of it lies off a rounded end, `lone-glyphs.ts` looks for ink only inside the stadium the plate's box
 * holds (a corner radius is at most half the height). A capsule's text starts ≥ 0.25 of its height in
 * (4 pt of padding on a 16 pt tag); a label whose ink reaches the inner box's ends is not read there.
 */
const INSET_Y = 0.18;
const INSET_X = 0.08;

const channel = (d: Uint8Array, o: number, c: number): number => d[o + c] as number;

/** Whether the pixel at `o` is within `TOL` of `r g b` in every channel. */
function near(d: Uint8Array, o: number, r: number, g: number, b: number): boolean {
  return (
    Math.abs(channel(d, o, 0) - r) <= TOL &&
    Math.abs(channel(d, o, 1) - g) <= TOL &&
    Math.abs(channel(d, o, 2) - b) <= TOL
  );
}

/** A plate found: the box its text is looked for in, and the whole shape's box (`detail` pixels). */
export interface Plate {
  inner: PixelBox;
  plate: PixelBox;
}

/**
 * The inner boxes of text plates on `image` (the working screen), in `detail` pixels, top to bottom.
 * A plate whose middle lies in a `skip` box (`detail` pixels: a notification badge's slot) is left out.
 */
export function plateSlots(image: RgbImage, detail: RgbImage, skip: readonly PixelBox[] = []): Plate[] {
  const { data, width } = image;
  const W = Math.floor(width / STEP);
  const H = Math.floor(image.height / STEP);
  const seen = new Uint8Array(W * H);
  const stack = new Int32Array(W * H);
  const minH = (MIN_H * width) / STEP;
  const maxH = (MAX_H * width) / STEP;
  const maxCells = maxH * maxH * MAX_ASPECT;
  const at = (cell: number): number => {
    const x = cell % W;
    return (((cell - x) / W) * STEP * width + x * STEP) * 3;
  };
  const out: Plate[] = [];
  for (let start = 0; start < W * H && out.length < MAX_PLATES; start++) {
    if (seen[start]) continue;
    const o0 = at(start);
    const r = channel(data, o0, 0);
    const g = channel(data, o0, 1);
    const b = channel(data, o0, 2);
    seen[start] = 1;
    const enter = (q: number): boolean => {
      if (seen[q] !== 0 || !near(data, at(q), r, g, b)) return false;
      seen[q] = 1;
      return true;
    };
    const { x0, y0, x1, y1, count: n } = floodRegion(W, H, start, stack, enter);
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (n > maxCells || h < minH || h > maxH || w < MIN_ASPECT * h || w > MAX_ASPECT * h) continue;
    const fill = n / (w * h);
    if (fill < MIN_FILL || fill > MAX_FILL) continue;
    if (!standsOut(image, x0 * STEP, y0 * STEP, (x1 + 1) * STEP, (y1 + 1) * STEP, [r, g, b])) continue;
    const sx = (detail.width / image.width) * STEP;
    const sy = (detail.height / image.height) * STEP;
    const box: PixelBox = {
      x0: (x0 + INSET_X * h) * sx,
      y0: (y0 + INSET_Y * h) * sy,
      x1: (x1 + 1 - INSET_X * h) * sx,
      y1: (y1 + 1 - INSET_Y * h) * sy,
      score: 1,
    };
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    if (skip.some((s) => cx >= s.x0 && cx <= s.x1 && cy >= s.y0 && cy <= s.y1)) continue;
    const plate = { x0: x0 * sx, y0: y0 * sy, x1: (x1 + 1) * sx, y1: (y1 + 1) * sy, score: 1 };
    out.push({ inner: box, plate });
  }
  return out;
}

/**
 * Whether the median colour of the ring two pixels outside the box differs from the plate's `fill` by
 * at least `MIN_EDGE` in some channel. A box at the screen's edge has no ring there (clipped).
 */
function standsOut(
  image: RgbImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  fill: readonly [number, number, number],
): boolean {
  const ch: [number[], number[], number[]] = [[], [], []];
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
    const o = (y * image.width + x) * 3;
    for (let c = 0; c < 3; c++) ch[c as 0 | 1 | 2].push(image.data[o + c] as number);
  };
  for (let x = x0 - 2; x <= x1 + 1; x += 2) {
    add(x, y0 - 2);
    add(x, y1 + 1);
  }
  for (let y = y0; y < y1; y += 2) {
    add(x0 - 2, y);
    add(x1 + 1, y);
  }
  if (ch[0].length < 8) return false;
  const med = (v: number[]) => v.sort((p, q) => p - q)[Math.floor(v.length / 2)] ?? 0;
  return [0, 1, 2].some((c) => Math.abs(med(ch[c as 0 | 1 | 2]) - fill[c as 0 | 1 | 2]) >= MIN_EDGE);
}
