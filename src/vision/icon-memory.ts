import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { isAppIcon } from "./named-icons.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth } from "./row.js";

/**
 * App icons remembered by appearance: the dock prints no names under its icons (nor does a home screen
 * with labels hidden), but the same tile is seen elsewhere with its name — under it on a home-screen
 * page or a share sheet, or beside it in the app switcher's card header (iOS draws each card's app icon
 * with the app's name to its right). Each named sighting stores the tile's colour signature under the
 * name; an app-sized icon with no name of its own takes the name whose signature is nearest, when that
 * is close and clearly closer than any other name's.
 *
 * One memory belongs to one phone: its owner (the phone stack) creates it and passes it to the vision
 * pipeline; never share it between phones (an icon's meaning is per phone). Bounded: the least recently
 * used names are forgotten beyond `capacity`.
 */

export interface IconMemoryOptions {
  /** Names kept at most (a phone has ~30–200 apps; the ones seen recently matter). */
  capacity: number;
  /** Mean absolute difference (0–255 per channel) below which two signatures are one icon. */
  maxDistance: number;
  /** The nearest name must be this much nearer than the nearest other name. */
  minMargin: number;
}

export const DEFAULT_ICON_MEMORY_OPTIONS: IconMemoryOptions = {
  capacity: 128,
  maxDistance: 22,
  minMargin: 8,
};

/** Signature grid: `G`×`G` cells of mean RGB over the tile's inner part. */
const G = 6;
/** Share of the tile cut from each side: the squircle's corners show the wallpaper or dock, not the icon. */
const INSET = 0.18;

/** The colour signature of the tile at `box` (fractions of `screen`), or null when it is too small. */
export function iconSignature(screen: RgbImage, box: FracBox): Float32Array | null {
  const { width: W, height: H, data } = screen;
  const bw = boxWidth(box) * W;
  const bh = boxHeight(box) * H;
  if (bw < 12 || bh < 12) return null;
  const x0 = box[0] * W + INSET * bw;
  const y0 = box[1] * H + INSET * bh;
  const cw = ((1 - 2 * INSET) * bw) / G;
  const ch = ((1 - 2 * INSET) * bh) / G;
  const sig = new Float32Array(G * G * 3);
  for (let gy = 0; gy < G; gy++)
    for (let gx = 0; gx < G; gx++) {
      const sx0 = Math.floor(x0 + gx * cw);
      const sy0 = Math.floor(y0 + gy * ch);
      const sx1 = Math.max(sx0 + 1, Math.floor(x0 + (gx + 1) * cw));
      const sy1 = Math.max(sy0 + 1, Math.floor(y0 + (gy + 1) * ch));
      let n = 0;
      const acc = [0, 0, 0];
      for (let y = Math.max(0, sy0); y < Math.min(H, sy1); y++)
        for (let x = Math.max(0, sx0); x < Math.min(W, sx1); x++) {
          const o = (y * W + x) * 3;
          for (let c = 0; c < 3; c++) acc[c] = (acc[c] ?? 0) + (data[o + c] ?? 0);
          n++;
        }
      for (let c = 0; c < 3; c++) sig[(gy * G + gx) * 3 + c] = n > 0 ? (acc[c] ?? 0) / n : 0;
    }
  return sig;
}

/**
 * Share of the signature's cells that must stand out from the colour around the box for it to be an
 * app tile. An app icon is an opaque squircle of its own artwork (Apple HIG, App icons: icons are
 * square and fully opaque), so nearly every cell of its inner part differs from what surrounds it; a
 * glyph button (a back chevron, a send arrow) or a gap between controls is ink on the background, and
 * most of its cells are that background. Without this, a back button on a camera frame, boxed like a
 * tile, was named after a flat patch remembered as "Send" and a tap on "Send" went back.
 */
export const MIN_TILE_COVER = 0.5;

/** Median colour of a one-pixel ring just outside `box` (fractions of `screen`): what the tile sits on. */
function surroundColour(screen: RgbImage, box: FracBox): [number, number, number] {
  const { width: W, height: H, data } = screen;
  const pad = Math.max(2, Math.round(0.04 * boxWidth(box) * W));
  const x0 = Math.max(0, Math.floor(box[0] * W) - pad);
  const x1 = Math.min(W - 1, Math.ceil(box[2] * W) + pad);
  const y0 = Math.max(0, Math.floor(box[1] * H) - pad);
  const y1 = Math.min(H - 1, Math.ceil(box[3] * H) + pad);
  const ring: number[][] = [[], [], []];
  const take = (x: number, y: number) => {
    const o = (y * W + x) * 3;
    for (let c = 0; c < 3; c++) ring[c]?.push(data[o + c] ?? 0);
  };
  for (let x = x0; x <= x1; x++) {
    take(x, y0);
    take(x, y1);
  }
  for (let y = y0 + 1; y < y1; y++) {
    take(x0, y);
    take(x1, y);
  }
  const median = (v: number[] | undefined): number => {
    const sorted = [...(v ?? [])].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  return [median(ring[0]), median(ring[1]), median(ring[2])];
}

/** Whether the tile at `box`, whose signature is `sig`, is opaque artwork rather than background. */
export function isOpaqueTile(screen: RgbImage, box: FracBox, sig: Float32Array): boolean {
  const bg = surroundColour(screen, box);
  const cells = sig.length / 3;
  let standing = 0;
  for (let i = 0; i < cells; i++) {
    const d =
      Math.abs((sig[i * 3] ?? 0) - bg[0]) +
      Math.abs((sig[i * 3 + 1] ?? 0) - bg[1]) +
      Math.abs((sig[i * 3 + 2] ?? 0) - bg[2]);
    if (d > TILE_CONTRAST) standing++;
  }
  return standing >= MIN_TILE_COVER * cells;
}

function distance(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return d / a.length;
}

/** One remembered name: the tile's latest signature, and whether the system itself paired them. */
interface Remembered {
  sig: Float32Array;
  /**
   * Seen beside its name in the app switcher's card header, where iOS draws exactly the app's icon and
   * name; a name read under a tile is inferred (an app's own empty state or about screen may show its
   * icon over other words).
   */
  sure: boolean;
}

export class IconMemory {
  /** name → what was seen; Map order is recency (oldest first). */
  private readonly byName = new Map<string, Remembered>();

  constructor(private readonly options: IconMemoryOptions = DEFAULT_ICON_MEMORY_OPTIONS) {}

  get size(): number {
    return this.byName.size;
  }

  /**
   * Store `name` for `signature`. A `sure` sighting (the switcher's header) replaces any other name
   * remembered for the same tile; an inferred one is ignored where a sure one already names the tile
   * otherwise, so an inference never makes a sure name ambiguous.
   */
  remember(signature: Float32Array, name: string, sure = false): void {
    for (const [other, r] of this.byName) {
      if (other === name || distance(signature, r.sig) > this.options.maxDistance) continue;
      if (sure) this.byName.delete(other);
      else if (r.sure) return;
    }
    const wasSure = this.byName.get(name)?.sure ?? false;
    this.byName.delete(name);
    this.byName.set(name, { sig: signature, sure: sure || wasSure });
    while (this.byName.size > this.options.capacity) {
      const oldest = this.byName.keys().next().value;
      if (oldest === undefined) break;
      this.byName.delete(oldest);
    }
  }

  /** The remembered name for `signature`, or null when none is close and unambiguous. */
  recall(signature: Float32Array): string | null {
    let best: { name: string; d: number } | null = null;
    let second = Number.POSITIVE_INFINITY;
    for (const [name, r] of this.byName) {
      const d = distance(signature, r.sig);
      if (!best || d < best.d) {
        second = best?.d ?? second;
        best = { name, d };
      } else if (d < second) second = d;
    }
    if (!best || best.d > this.options.maxDistance || second - best.d < this.options.minMargin) return null;
    const r = this.byName.get(best.name);
    if (r) {
      // Touch for recency only.
      this.byName.delete(best.name);
      this.byName.set(best.name, r);
    }
    return best.name;
  }
}

/** A title beside an icon is an app's name when it is short (home-screen names truncate at ~12). */
const MAX_NAME_CHARS = 24;

/** Colour distance (sum over channels) beyond which a pixel is not the background. */
const TILE_CONTRAST = 60;

/**
 * The app tile just left of a title (the app switcher's card header: icon, then the app's name), found
 * in the pixels: from the title's left edge go left over the background (the colour just left of the
 * text) to the first run of other pixels on the title's centre line, take that run as the tile's
 * width and scan its centre column up and down for its height. Null unless the run is a square tile of
 * 0.06–0.2 of the screen width (22–80 pt) within a tile's width of the title.
 */
function tileLeftOf(screen: RgbImage, title: FracBox): FracBox | null {
  const { width: W, height: H, data } = screen;
  const y = Math.round(((title[1] + title[3]) / 2) * H);
  const x0 = Math.floor(title[0] * W) - 2;
  if (y < 0 || y >= H || x0 < 1) return null;
  const px = (x: number, yy: number): [number, number, number] => {
    const o = (yy * W + x) * 3;
    return [data[o] ?? 0, data[o + 1] ?? 0, data[o + 2] ?? 0];
  };
  const bg = px(x0, y);
  const differs = (x: number, yy: number): boolean => {
    const p = px(x, yy);
    return Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) > TILE_CONTRAST;
  };
  const maxGap = Math.round(0.2 * W);
  let right = x0;
  while (right > 0 && x0 - right < maxGap && !differs(right, y)) right--;
  if (!differs(right, y)) return null;
  let left = right;
  while (left > 0 && differs(left - 1, y)) left--;
  const side = right + 1 - left;
  if (side < 0.06 * W || side > 0.2 * W || x0 - right > side) return null;
  const cx = Math.round((left + right) / 2);
  let top = y;
  while (top > 0 && differs(cx, top - 1)) top--;
  let bottom = y;
  while (bottom < H - 1 && differs(cx, bottom + 1)) bottom++;
  const tall = bottom + 1 - top;
  if (tall < 0.8 * side || tall > 1.25 * side) return null;
  return [left / W, top / H, (right + 1) / W, (bottom + 1) / H];
}

/**
 * Learn from this screen's named app icons (`[app]` rows, and tiles leading a short title, as in the
 * app switcher's card headers), then name the app-sized icons left without a name (`[icon]` →
 * `[app] "Name"`).
 */
export function applyIconMemory(
  screen: RgbImage,
  rows: readonly Candidate[],
  memory: IconMemory,
  aspect: number,
): Candidate[] {
  for (const r of rows) {
    if (r.kind !== "app" || r.label === "") continue;
    const sig = iconSignature(screen, r.box);
    if (sig && isOpaqueTile(screen, r.box, sig)) memory.remember(sig, r.label);
  }
  for (const t of rows) {
    if (t.kind !== "text" || Array.from(t.label).length > MAX_NAME_CHARS) continue;
    if (t.label.trim().split(/\s+/).length > 3) continue;
    const tile = tileLeftOf(screen, t.box);
    // The name is set smaller than its tile (the switcher: 15 pt text beside a 30 pt icon).
    if (!tile || boxHeight(t.box) > 0.8 * boxHeight(tile)) continue;
    const sig = iconSignature(screen, tile);
    if (sig && isOpaqueTile(screen, tile, sig)) memory.remember(sig, t.label, true);
  }
  return rows.map((r) => {
    if (!isAppIcon(r, { aspect })) return r;
    const sig = iconSignature(screen, r.box);
    const name = sig && isOpaqueTile(screen, r.box, sig) && memory.recall(sig);
    return name ? { kind: "app", label: name, box: r.box, conf: r.conf } : r;
  });
}
