import type { RgbImage } from "../shared/image.js";

/**
 * Selection marks on a photo grid's thumbnails (`photo-grid.ts`): a circle of about 20–28 pt near a
 * right corner of each thumbnail — a white ring over a dimmed disc when not selected, a disc filled with
 * the tint colour around a white checkmark when selected (Photos, PHPicker: bottom-right; WeChat-style
 * pickers: top-right). A picker draws every mark at one place, so the place is found once for the grid:
 * the corner, inset and radius where white rings stand out most summed over the thumbnails; then each
 * thumbnail has a mark there when a ring (brighter than the disc it encloses) or a tinted disc is seen.
 */

export interface Mark {
  /** Centre and radius in screen pixels. */
  x: number;
  y: number;
  r: number;
  on: boolean;
}

interface Tile {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Mark radii and insets (corner to centre) searched, in points. */
const RADII_PT = [9, 10, 11, 12, 13];
/** A mark's edge lies 0–8 pt inside its thumbnail's edges. */
const MAX_GAP_PT = 8;
/** Samples on each circle. */
const N = 24;
/** Thumbnails used to find the grid's mark geometry. */
const PROBE_TILES = 8;
/** A white ring pixel (a camera frame blurs the 1.5 pt stroke below white): luma at least this and chroma (max − min channel) at most `RING_CHROMA`. */
const RING_LUMA = 150;
const RING_CHROMA = 50;
/** A tint fill: chroma at least this, one colour (channel spread across the disc below `TINT_SPREAD`). */
const TINT_CHROMA = 90;
const TINT_SPREAD = 30;
/** A ring is at least this much brighter (luma) than the disc it encloses. */
const RING_MIN = 15;
/** A tint disc differs from the picture around it by at least this much in some channel (a photo's
 * blue sky seen through a ring does not). */
const TINT_APART = 60;

const mean = (v: readonly number[]): number => v.reduce((a, x) => a + x, 0) / Math.max(1, v.length);

const COS = Array.from({ length: N }, (_, k) => Math.cos((2 * Math.PI * k) / N));
const SIN = Array.from({ length: N }, (_, k) => Math.sin((2 * Math.PI * k) / N));

/** The offset of the pixel at angle step `k` on the circle (cx, cy, r), clamped to the screen. */
function at(screen: RgbImage, cx: number, cy: number, r: number, k: number): number {
  const x = Math.min(screen.width - 1, Math.max(0, Math.round(cx + r * (COS[k] as number))));
  const y = Math.min(screen.height - 1, Math.max(0, Math.round(cy + r * (SIN[k] as number))));
  return (y * screen.width + x) * 3;
}

const lumaAt = (d: Buffer, o: number): number =>
  0.299 * (d[o] as number) + 0.587 * (d[o + 1] as number) + 0.114 * (d[o + 2] as number);
const chromaAt = (d: Buffer, o: number): number => {
  const R = d[o] as number;
  const G = d[o + 1] as number;
  const B = d[o + 2] as number;
  return Math.max(R, G, B) - Math.min(R, G, B);
};

/** How much a white ring of radius `r` at (cx, cy) stands out from the disc it encloses (0 = no ring). */
function ringStrength(screen: RgbImage, cx: number, cy: number, r: number, pt: number): number {
  const d = screen.data;
  let white = 0;
  let ring = 0;
  for (let k = 0; k < N; k++) {
    const o = at(screen, cx, cy, r, k);
    const l = lumaAt(d, o);
    ring += l;
    if (l >= RING_LUMA && chromaAt(d, o) <= RING_CHROMA) white++;
    if (k - white > 0.3 * N) return 0;
  }
  let inner = 0;
  for (let k = 0; k < N; k++) inner += lumaAt(d, at(screen, cx, cy, r - 2.5 * pt, k));
  return Math.max(0, (ring - inner) / N);
}

/**
 * Whether the disc of radius `r` at (cx, cy) is filled with one saturated tint colour that differs from
 * the picture just outside it.
 */
function tinted(screen: RgbImage, cx: number, cy: number, r: number, pt: number): boolean {
  const d = screen.data;
  const cols: [number, number, number][] = [];
  for (let k = 0; k < N; k++) {
    const o = at(screen, cx, cy, 0.7 * r, k);
    if (chromaAt(d, o) >= TINT_CHROMA) cols.push([d[o] as number, d[o + 1] as number, d[o + 2] as number]);
  }
  if (cols.length < 0.6 * N) return false;
  const tint = [0, 1, 2].map((ch) => mean(cols.map((c) => c[ch] as number)));
  const uniform = [0, 1, 2].every((ch) => {
    const m = tint[ch] as number;
    return Math.sqrt(mean(cols.map((c) => ((c[ch] as number) - m) ** 2))) < TINT_SPREAD;
  });
  if (!uniform) return false;
  const out = [0, 0, 0];
  for (let k = 0; k < N; k++) {
    const o = at(screen, cx, cy, r + 2.5 * pt, k);
    for (let ch = 0; ch < 3; ch++) out[ch] = (out[ch] as number) + (d[o + ch] as number) / N;
  }
  return [0, 1, 2].some((ch) => Math.abs((tint[ch] as number) - (out[ch] as number)) >= TINT_APART);
}

interface Geometry {
  bottom: boolean;
  dx: number;
  dy: number;
  r: number;
}

const centreOf = (t: Tile, g: Geometry, pt: number): [number, number] => [
  t.x1 - g.dx * pt,
  g.bottom ? t.y1 - g.dy * pt : t.y0 + g.dy * pt,
];

/** The mark on each of `tiles` (screen pixels), or undefined where it has none; `pt` = pixels per point. */
export function findMarks(screen: RgbImage, tiles: readonly Tile[], pt: number): (Mark | undefined)[] {
  const probe = tiles.slice(0, PROBE_TILES);
  let best: { g: Geometry; score: number } | undefined;
  for (const bottom of [false, true])
    for (const r of RADII_PT)
      for (let dx = r; dx <= r + MAX_GAP_PT; dx++)
        for (let dy = r; dy <= r + MAX_GAP_PT; dy++) {
          const g = { bottom, dx, dy, r };
          let score = 0;
          for (const t of probe) {
            const [cx, cy] = centreOf(t, g, pt);
            score += ringStrength(screen, cx, cy, r * pt, pt);
          }
          if (!best || score > best.score) best = { g, score };
        }
  if (!best || best.score <= 0) return tiles.map(() => undefined);
  const g = best.g;
  const marks = tiles.map((t): Mark | undefined => {
    const [cx, cy] = centreOf(t, g, pt);
    // Thumbnails differ by a pixel or two in size and place: look within 2 pt and 1 pt of radius.
    let found: Mark | undefined;
    let strongest = RING_MIN;
    for (let jx = -2; jx <= 2; jx += 0.5)
      for (let jy = -2; jy <= 2; jy += 0.5)
        for (let jr = -1; jr <= 1; jr += 0.5) {
          const x = cx + jx * pt;
          const y = cy + jy * pt;
          const r = (g.r + jr) * pt;
          const s = ringStrength(screen, x, y, r, pt);
          if (s >= strongest) {
            strongest = s;
            found = { x, y, r, on: false };
          }
        }
    if (found) return { ...found, on: tinted(screen, found.x, found.y, found.r, pt) };
    for (let jx = -2; jx <= 2; jx += 1)
      for (let jy = -2; jy <= 2; jy += 1) {
        const x = cx + jx * pt;
        const y = cy + jy * pt;
        if (tinted(screen, x, y, g.r * pt, pt)) return { x, y, r: g.r * pt, on: true };
      }
    return undefined;
  });
  // One picker draws a mark on most thumbnails; a few "rings" are a photo's own bright circles.
  return marks.filter(Boolean).length >= Math.max(3, 0.4 * tiles.length) ? marks : tiles.map(() => undefined);
}
