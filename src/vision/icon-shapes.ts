import { luma, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * Icon-only buttons named by their shape: a small template classifier. The icon's crop is binarised
 * (ink = pixels far from the crop's border colour), its ink cropped to its own bounding square and
 * resampled to a `N`×`N` mask, and compared (Dice overlap, both masks thickened by one cell) with
 * shapes drawn here from lines and circles — plus `add`, × `close`, ‹ `back`, magnifier `search`,
 * ⋯ `more`, and the square with an up arrow `share`. No Apple artwork is used: SF Symbols' outlines
 * are thin strokes of these same shapes. The best template wins when it scores at least `MIN_SCORE`
 * and beats the runner-up by `MIN_MARGIN`; otherwise the row stays `[icon] ""`.
 */

const N = 24;
const MIN_SCORE = 0.75;
const MIN_MARGIN = 0.08;

type Mask = Uint8Array;

/** Draw a `N`×`N` template with a pen of `width` cells. */
function draw(paint: (plot: (x: number, y: number) => void) => void, width = 2.2): Mask {
  const m = new Uint8Array(N * N);
  const r = width / 2;
  paint((x, y) => {
    for (let yy = Math.floor(y - r); yy <= Math.ceil(y + r); yy++)
      for (let xx = Math.floor(x - r); xx <= Math.ceil(x + r); xx++)
        if (xx >= 0 && yy >= 0 && xx < N && yy < N && (xx + 0.5 - x) ** 2 + (yy + 0.5 - y) ** 2 <= r * r)
          m[yy * N + xx] = 1;
  });
  return m;
}
function line(plot: (x: number, y: number) => void, x0: number, y0: number, x1: number, y1: number): void {
  const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2) + 1;
  for (let i = 0; i <= steps; i++) plot(x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps);
}
function ring(plot: (x: number, y: number) => void, cx: number, cy: number, r: number): void {
  for (let a = 0; a < 360; a += 3)
    plot(cx + r * Math.cos((a * Math.PI) / 180), cy + r * Math.sin((a * Math.PI) / 180));
}
function dot(plot: (x: number, y: number) => void, cx: number, cy: number, r: number): void {
  for (let rr = 0; rr <= r; rr += 0.5) ring(plot, cx, cy, rr);
}

const E = N - 1.5;
const TEMPLATES: { name: string; mask: Mask }[] = [
  {
    name: "add",
    mask: draw((p) => {
      line(p, N / 2, 1.5, N / 2, E);
      line(p, 1.5, N / 2, E, N / 2);
    }),
  },
  {
    name: "close",
    mask: draw((p) => {
      line(p, 1.5, 1.5, E, E);
      line(p, E, 1.5, 1.5, E);
    }),
  },
  {
    name: "back",
    mask: draw((p) => {
      line(p, E - 5, 1.5, 6, N / 2);
      line(p, 6, N / 2, E - 5, E);
    }),
  },
  {
    name: "search",
    mask: draw((p) => {
      ring(p, 9.5, 9.5, 8);
      line(p, 15.5, 15.5, E, E);
    }),
  },
  {
    name: "more",
    mask: draw((p) => {
      dot(p, 3, N / 2, 2.5);
      dot(p, N / 2, N / 2, 2.5);
      dot(p, N - 3, N / 2, 2.5);
    }),
  },
  {
    name: "share",
    mask: draw((p) => {
      line(p, 6, 9, 1.5, 9);
      line(p, 1.5, 9, 1.5, E);
      line(p, 1.5, E, E, E);
      line(p, E, E, E, 9);
      line(p, E, 9, N - 6, 9);
      line(p, N / 2, 1.5, N / 2, 15);
      line(p, N / 2, 1.5, 7.5, 6);
      line(p, N / 2, 1.5, N - 7.5, 6);
    }),
  },
];

/** Grow a mask by one cell in the 4 directions (tolerance for stroke weight and position). */
function thicken(m: Mask): Mask {
  const out = new Uint8Array(m);
  for (let y = 0; y < N; y++)
    for (let x = 0; x < N; x++)
      if (m[y * N + x])
        for (const [dx, dy] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < N && yy < N) out[yy * N + xx] = 1;
        }
  return out;
}

const THICK = TEMPLATES.map((t) => ({ name: t.name, mask: thicken(t.mask) }));

function dice(a: Mask, b: Mask): number {
  let both = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < a.length; i++) {
    sa += a[i] ?? 0;
    sb += b[i] ?? 0;
    if (a[i] && b[i]) both++;
  }
  return sa + sb > 0 ? (2 * both) / (sa + sb) : 0;
}

/**
 * The ink of the pixel box `[x0, y0, x1, y1)` as an `N`×`N` mask of its bounding square (the ink is
 * centred, aspect kept), or null when the crop holds no clear ink.
 */
export function inkMask(screen: RgbImage, x0: number, y0: number, x1: number, y1: number): Mask | null {
  const { width: W, data } = screen;
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 6 || h < 6) return null;
  const border: number[] = [];
  for (let x = x0; x < x1; x++) border.push(luma(data, (y0 * W + x) * 3), luma(data, ((y1 - 1) * W + x) * 3));
  for (let y = y0; y < y1; y++) border.push(luma(data, (y * W + x0) * 3), luma(data, (y * W + x1 - 1) * 3));
  border.sort((a, b) => a - b);
  const bg = border[border.length >> 1] ?? 0;
  let maxDiff = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) maxDiff = Math.max(maxDiff, Math.abs(luma(data, (y * W + x) * 3) - bg));
  if (maxDiff < 40) return null;
  const t = Math.max(30, maxDiff / 2.5);
  let bx0 = x1;
  let by0 = y1;
  let bx1 = x0;
  let by1 = y0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++)
      if (Math.abs(luma(data, (y * W + x) * 3) - bg) > t) {
        bx0 = Math.min(bx0, x);
        by0 = Math.min(by0, y);
        bx1 = Math.max(bx1, x + 1);
        by1 = Math.max(by1, y + 1);
      }
  if (bx1 <= bx0 || by1 <= by0) return null;
  const side = Math.max(bx1 - bx0, by1 - by0);
  const ox = bx0 - (side - (bx1 - bx0)) / 2;
  const oy = by0 - (side - (by1 - by0)) / 2;
  const m = new Uint8Array(N * N);
  for (let cy = 0; cy < N; cy++)
    for (let cx = 0; cx < N; cx++) {
      // A cell is ink when any of its 2×2 sample points is.
      for (const [fx, fy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const x = Math.floor(ox + ((cx + fx) * side) / N);
        const y = Math.floor(oy + ((cy + fy) * side) / N);
        if (x < x0 || y < y0 || x >= x1 || y >= y1) continue;
        if (Math.abs(luma(data, (y * W + x) * 3) - bg) > t) {
          m[cy * N + cx] = 1;
          break;
        }
      }
    }
  return m;
}

/** The template name for an ink mask, or null when no shape is a clear match. */
export function classifyShape(mask: Mask): string | null {
  const thick = thicken(mask);
  const scores = THICK.map((t) => ({ name: t.name, score: dice(thick, t.mask) })).sort(
    (a, b) => b.score - a.score,
  );
  const [best, second] = scores;
  if (!best || best.score < MIN_SCORE || best.score - (second?.score ?? 0) < MIN_MARGIN) return null;
  return best.name;
}

/** Icon-sized: at most this wide (fractions of the screen width) — larger boxes are cards, not glyphs. */
const MAX_GLYPH_WIDTH = 0.16;

/** `icon` rows whose shape is recognised become `[button] "<shape>"`. */
export function nameIconButtons(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const { width: W, height: H } = screen;
  return rows.map((r) => {
    if (r.kind !== "icon" || boxWidth(r.box) > MAX_GLYPH_WIDTH) return r;
    const aspect = (boxHeight(r.box) * H) / (boxWidth(r.box) * W);
    if (aspect < 0.5 || aspect > 2) return r;
    const mask = inkMask(
      screen,
      Math.max(0, Math.floor(r.box[0] * W)),
      Math.max(0, Math.floor(r.box[1] * H)),
      Math.min(W, Math.ceil(r.box[2] * W)),
      Math.min(H, Math.ceil(r.box[3] * H)),
    );
    const name = mask && classifyShape(mask);
    return name ? { ...r, kind: "button", label: name } : r;
  });
}
