import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { isAppIcon, NAME_GAP } from "./named-icons.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX } from "./row.js";

/**
 * App-icon boxes snapped outwards to their tile. iOS draws every home-screen app icon as an opaque
 * squircle plate of one size (60 pt on most iPhones, Apple HIG "App icons"), its artwork inside. A
 * detector box that hugs the artwork (a white "News" tile's red glyph on a camera frame) is smaller
 * than the tile, so the name under the tile starts further below the box than `nameAppIcons` allows
 * and the tile goes unnamed (and `inferGridApps` lacks the named tiles it needs). Here such an icon —
 * app-sized, with no name line within `NAME_GAP` but a short line centred under it within `FAR_GAP`
 * box heights — is grown to the plate's edge: along scanlines across the middle of each side, outwards
 * from the box, the plate's colour holds until the wallpaper. The snap is kept only when every side
 * finds that edge within `MAX_GROW` of the box's size and the result is a square tile; on a flat
 * background (no plate edge) or a box that already is the tile (wallpaper right outside), it is left
 * alone, so screens whose tiles already name do not change.
 */

/** A name line may start this many box heights under a glyph-hugging box (tile inset + name gap). */
const FAR_GAP = 1.0;
/** A side grows at most this share of the box's side (artwork inset inside a 60 pt plate). */
const MAX_GROW = 0.35;
/** A colour step (max channel difference) this large from the plate right outside the box is the edge. */
const EDGE_STEP = 48;
/** Scanlines per side, spread over its middle half (clear of the squircle's rounded corners). */
const SCANS = 5;
const MAX_NAME_CHARS = 24;

function px(img: RgbImage, x: number, y: number): [number, number, number] {
  const xi = Math.min(img.width - 1, Math.max(0, Math.round(x)));
  const yi = Math.min(img.height - 1, Math.max(0, Math.round(y)));
  const o = (yi * img.width + xi) * 3;
  return [img.data[o] ?? 0, img.data[o + 1] ?? 0, img.data[o + 2] ?? 0];
}

const step = (a: readonly number[], b: readonly number[]): number =>
  Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? 0))));

/**
 * Pixels from the box's edge (in direction dx, dy) to the plate's edge, median over the scanlines, or
 * null when a scanline finds no edge within `limit` (no plate: flat background).
 */
function growSide(
  img: RgbImage,
  start: (t: number) => [number, number],
  dir: [number, number],
  limit: number,
): number | null {
  const found: number[] = [];
  for (let s = 0; s < SCANS; s++) {
    const [x0, y0] = start(0.25 + (0.5 * s) / (SCANS - 1));
    const plate = px(img, x0 + dir[0], y0 + dir[1]);
    let d = 2;
    while (d <= limit && step(px(img, x0 + d * dir[0], y0 + d * dir[1]), plate) < EDGE_STEP) d++;
    if (d > limit) return null;
    found.push(d - 1);
  }
  found.sort((a, b) => a - b);
  return found[Math.floor(found.length / 2)] ?? null;
}

/** The tile's box around `box` (fractions), or null when no square plate edge surrounds it. */
export function snapToTile(img: RgbImage, box: FracBox): FracBox | null {
  const [l, t, r, b] = [box[0] * img.width, box[1] * img.height, box[2] * img.width, box[3] * img.height];
  const side = Math.max(r - l, b - t);
  const limit = Math.max(2, Math.round(MAX_GROW * side));
  const at = (a: number, z: number, u: number): number => a + (z - a) * u;
  const left = growSide(img, (u) => [l, at(t, b, u)], [-1, 0], limit);
  const right = growSide(img, (u) => [r, at(t, b, u)], [1, 0], limit);
  const top = growSide(img, (u) => [at(l, r, u), t], [0, -1], limit);
  const bottom = growSide(img, (u) => [at(l, r, u), b], [0, 1], limit);
  if (left === null || right === null || top === null || bottom === null) return null;
  const w = r - l + left + right;
  const h = b - t + top + bottom;
  if (h / w < 0.85 || h / w > 1.18) return null;
  return [(l - left) / img.width, (t - top) / img.height, (r + right) / img.width, (b + bottom) / img.height];
}

/** Whether a short text row `n` is centred under `icon` starting between `from` and `to` box heights. */
function nameUnder(icon: FracBox, n: Candidate, from: number, to: number): boolean {
  const ih = boxHeight(icon);
  const iw = boxWidth(icon);
  return (
    n.kind === "text" &&
    Array.from(n.label.trim()).length > 0 &&
    Array.from(n.label).length <= MAX_NAME_CHARS &&
    n.box[1] > icon[3] + from * ih &&
    n.box[1] <= icon[3] + to * ih &&
    Math.abs(centreX(n.box) - centreX(icon)) < 0.3 * iw &&
    boxWidth(n.box) < 1.9 * iw
  );
}

/**
 * App-sized icon rows with a likely name too far below them get their tile's box (see the file
 * comment); every other row is returned as is.
 */
export function snapAppTiles(img: RgbImage, rows: readonly Candidate[], aspect: number): Candidate[] {
  return rows.map((r) => {
    if (!isAppIcon(r, { aspect })) return r;
    if (rows.some((n) => nameUnder(r.box, n, -0.15, NAME_GAP))) return r;
    if (!rows.some((n) => nameUnder(r.box, n, NAME_GAP, FAR_GAP))) return r;
    const tile = snapToTile(img, r.box);
    return tile ? { ...r, box: tile } : r;
  });
}
