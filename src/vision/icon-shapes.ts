import { luma, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";
import { CONTENT_THICK, dice, type Gate, type Mask, N, THICK, thicken } from "./shape-templates.js";

/**
 * Icon-only buttons named by their shape: a small template classifier. The icon's crop is binarised
 * (ink = pixels far from the crop's border colour), its ink cropped to its own bounding square and
 * resampled to a `N`×`N` mask, and compared (Dice overlap, both masks thickened by one cell) with the
 * shapes of `shape-templates.ts`: + `add`, × `close`, ‹ `back`, magnifier `search`, ⋯ `more`, the
 * square with an up arrow `share`, ≡ `menu`, ▶ `play`, ❚❚ `pause`, ♡ `heart`, ⌫ `delete`. A template
 * only competes when the ink has its structure (count of parts and holes, width/height range: all
 * scale-invariant), so a row of passcode dots is not `more`. A round container (`plus.circle`,
 * `info.circle.fill`, `play.circle`) is named by what is inside it — its inner ink, or the glyph cut
 * out of a filled disc — adding `info` (i) and `help` (?). The best template wins when it scores at
 * least `MIN_SCORE` and beats the best other name by `MIN_MARGIN`; otherwise the row stays
 * `[icon] ""`.
 */

const MIN_SCORE = 0.75;
const MIN_MARGIN = 0.08;

/** Ink parts (8-connected) and holes (4-connected background regions not touching the border). */
export function structure(m: Mask): { parts: number; holes: number; aspect: number } {
  const seen = new Uint8Array(N * N);
  const flood = (start: number, ink: number, eight: boolean): boolean => {
    let border = false;
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const q = stack.pop() as number;
      const x = q % N;
      const y = (q - x) / N;
      if (x === 0 || y === 0 || x === N - 1 || y === N - 1) border = true;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if ((!eight && dx !== 0 && dy !== 0) || (dx === 0 && dy === 0)) continue;
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= N || yy >= N) continue;
          const r = yy * N + xx;
          if (!seen[r] && (m[r] ?? 0) === ink) {
            seen[r] = 1;
            stack.push(r);
          }
        }
    }
    return border;
  };
  let parts = 0;
  let holes = 0;
  for (let i = 0; i < N * N; i++) {
    if (seen[i]) continue;
    if (m[i]) {
      flood(i, 1, true);
      parts++;
    } else if (!flood(i, 0, false)) holes++;
  }
  const b = maskBounds(m);
  return { parts, holes, aspect: b ? (b.x1 + 1 - b.x0) / (b.y1 + 1 - b.y0) : 1 };
}

/** The inclusive bounding box of a mask's ink, or null when it has none. */
function maskBounds(m: Mask): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = N;
  let y0 = N;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < N * N; i++)
    if (m[i]) {
      const x = i % N;
      const y = (i - x) / N;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

const passes = (g: Gate, s: { parts: number; holes: number; aspect: number }): boolean =>
  g.parts.includes(s.parts) &&
  g.holes.includes(s.holes) &&
  s.aspect >= g.aspect[0] &&
  s.aspect <= g.aspect[1];

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
  const content = contentOf(mask);
  return content ? bestOf(CONTENT_THICK, content) : bestOf(THICK, mask);
}

/** The best template fitting the mask's structure, when it scores well and clearly beats other names. */
function bestOf(
  templates: readonly { name: string; mask: Mask; gates: Gate[] }[],
  mask: Mask,
): string | null {
  return bestTemplate(
    mask,
    templates,
    (t, shape) => t.gates.some((g) => passes(g, shape)),
    MIN_SCORE,
    MIN_MARGIN,
  );
}

/**
 * The name of the template among those `admits` lets through (given the mask's structure) that best
 * overlaps the thickened mask (Dice), or null unless it scores at least `minScore` and beats the best
 * template of any other name by at least `minMargin`.
 */
export function bestTemplate<T extends { name: string; mask: Mask }>(
  mask: Mask,
  templates: readonly T[],
  admits: (template: T, shape: ReturnType<typeof structure>) => boolean,
  minScore: number,
  minMargin: number,
): string | null {
  const thick = thicken(mask);
  const shape = structure(mask);
  const scores = templates
    .filter((t) => admits(t, shape))
    .map((t) => ({ name: t.name, score: dice(thick, t.mask) }))
    .sort((a, b) => b.score - a.score);
  const [best] = scores;
  const second = scores.find((t) => t.name !== best?.name);
  if (!best || best.score < minScore || best.score - (second?.score ?? 0) < minMargin) return null;
  return best.name;
}

/**
 * The glyph inside a round container (a ring or a disc spanning the whole symbol, its bounding box's
 * corners empty), resampled to a full mask: the container's other ink parts (outline symbols) or, when
 * there are none, its holes (filled symbols, the glyph cut out in the background colour). Null when the
 * mask is not a container with something inside.
 */
function contentOf(m: Mask): Mask | null {
  const part = new Int32Array(N * N);
  const boxes: { x0: number; y0: number; x1: number; y1: number }[] = [];
  for (let i = 0; i < N * N; i++) {
    if (!m[i] || part[i]) continue;
    const id = boxes.length + 1;
    const b = { x0: N, y0: N, x1: -1, y1: -1 };
    const stack = [i];
    part[i] = id;
    while (stack.length > 0) {
      const q = stack.pop() as number;
      const x = q % N;
      const y = (q - x) / N;
      b.x0 = Math.min(b.x0, x);
      b.y0 = Math.min(b.y0, y);
      b.x1 = Math.max(b.x1, x);
      b.y1 = Math.max(b.y1, y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          const r = yy * N + xx;
          if (xx >= 0 && yy >= 0 && xx < N && yy < N && m[r] && !part[r]) {
            part[r] = id;
            stack.push(r);
          }
        }
    }
    boxes.push(b);
  }
  const sizes = boxes.map((b) => (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1));
  const outerId = sizes.indexOf(Math.max(...sizes)) + 1;
  const o = boxes[outerId - 1];
  if (!o) return null;
  const ow = o.x1 - o.x0 + 1;
  const oh = o.y1 - o.y0 + 1;
  if (ow < 12 || ow / oh < 0.8 || ow / oh > 1.25) return null;
  if (boxes.some((b) => b.x0 < o.x0 || b.y0 < o.y0 || b.x1 > o.x1 || b.y1 > o.y1)) return null;
  // Round: the 2×2 cells at each corner of the container's box hold none of its ink.
  for (const [cx, cy] of [
    [o.x0, o.y0],
    [o.x1 - 1, o.y0],
    [o.x0, o.y1 - 1],
    [o.x1 - 1, o.y1 - 1],
  ] as const)
    for (let dy = 0; dy < 2; dy++)
      for (let dx = 0; dx < 2; dx++) if (part[(cy + dy) * N + cx + dx] === outerId) return null;
  const inner = new Uint8Array(N * N);
  if (boxes.length > 1) for (let i = 0; i < N * N; i++) inner[i] = part[i] && part[i] !== outerId ? 1 : 0;
  else {
    // Holes: background cells not 4-connected to the mask's border.
    const outside = new Uint8Array(N * N);
    const stack: number[] = [];
    for (let i = 0; i < N; i++) stack.push(i, (N - 1) * N + i, i * N, i * N + N - 1);
    while (stack.length > 0) {
      const q = stack.pop() as number;
      if (outside[q] || m[q]) continue;
      outside[q] = 1;
      const x = q % N;
      if (x > 0) stack.push(q - 1);
      if (x < N - 1) stack.push(q + 1);
      if (q >= N) stack.push(q - N);
      if (q < N * (N - 1)) stack.push(q + N);
    }
    for (let i = 0; i < N * N; i++) inner[i] = !m[i] && !outside[i] ? 1 : 0;
  }
  return recentre(inner);
}

/** Crop a mask to its ink's bounding square (aspect kept, centred) and resample it to `N`×`N`. */
function recentre(m: Mask): Mask | null {
  const b = maskBounds(m);
  if (!b) return null;
  const { x0, y0, x1, y1 } = b;
  const side = Math.max(x1 - x0 + 1, y1 - y0 + 1);
  if (side < 3) return null;
  const ox = x0 - (side - (x1 - x0 + 1)) / 2;
  const oy = y0 - (side - (y1 - y0 + 1)) / 2;
  const out = new Uint8Array(N * N);
  for (let cy = 0; cy < N; cy++)
    for (let cx = 0; cx < N; cx++) {
      const x = Math.floor(ox + ((cx + 0.5) * side) / N);
      const y = Math.floor(oy + ((cy + 0.5) * side) / N);
      if (x >= 0 && y >= 0 && x < N && y < N && m[y * N + x]) out[cy * N + cx] = 1;
    }
  return out;
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
