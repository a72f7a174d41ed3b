import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";

/**
 * Stock iOS app icons named by how they look, for tiles that have no name printed under them (the dock
 * never shows names). Only icons whose design is distinctive at any scale are named, and only when
 * every test agrees; anything else is `undefined` — a wrong name sends an agent into the wrong app,
 * which is worse than no name.
 *
 * The designs, as Apple publishes them on apple.com/ios and in the App Store's listings of its own apps
 * (iOS 7 onwards; described here, no artwork copied):
 * - Phone: green tile (light green at the top to a deeper green at the bottom), one white telephone
 *   handset laid diagonally — earpiece top left, mouthpiece bottom right, the grip curving through
 *   the lower left. The tile's upper right stays empty.
 * - Messages: the same green tile, one white speech bubble — a wide ellipse, solid, with a small
 *   tail at its lower left.
 * - Safari: white tile, a blue compass disk filling most of it, the needle red towards the upper right
 *   and white towards the lower left.
 * - Mail: blue tile (gradient, lighter at the bottom), a white envelope about 1.5 times as wide as
 *   tall, its flap drawn as a V of thin blue lines from the top corners to the middle.
 * - Photos: white tile, a flower of eight overlapping translucent petals in eight hues (orange, yellow,
 *   green, teal, blue, indigo, purple, pink) around the centre.
 * Look-alikes that must stay unnamed: FaceTime (green, white video camera — a rounded rectangle, its
 * corners filled), WhatsApp (green, an outlined bubble round a handset — ink in every quadrant), WeChat
 * and LINE (green, bubbles with holes), Zoom (blue, a white square with a hole), Chrome and Google
 * Photos (white, four hues).
 */

type Rgb = readonly [number, number, number];
type Bg = "green" | "blue" | "white";

/** Samples per side of the tile's grid: scale-free (a 40 px and a 200 px tile give the same grid). */
const GRID = 96;
/** iOS app tiles are rounded squares, corner radius ≈ 22.5% of the side (the "squircle" mask). */
const CORNER = 0.225;

function hsv([r, g, b]: Rgb): { h: number; s: number; v: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d + 6) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  return { h: h * 60, s: max === 0 ? 0 : d / max, v: max / 255 };
}

function backgroundClass(c: Rgb): Bg | null {
  const { h, s, v } = hsv(c);
  if (s <= 0.12 && v >= 0.82) return "white";
  if (s >= 0.35 && v >= 0.4 && h >= 95 && h <= 160) return "green";
  // Mail's blue runs from ~215° at the top to ~196° (light, near cyan) at the bottom.
  if (s >= 0.4 && v >= 0.45 && h >= 185 && h <= 235) return "blue";
  return null;
}

/** The tile on a GRID×GRID lattice of nearest pixels; `inside` marks lattice points within the squircle. */
interface Tile {
  px: Rgb[];
  inside: boolean[];
}

function sampleTile(screen: RgbImage, box: FracBox): Tile | null {
  const x0 = box[0] * screen.width;
  const y0 = box[1] * screen.height;
  const w = (box[2] - box[0]) * screen.width;
  const h = (box[3] - box[1]) * screen.height;
  // Too small to see a glyph, or not a square tile.
  if (w < 16 || h < 16 || w / h < 0.75 || w / h > 1.33) return null;
  const px: Rgb[] = [];
  const inside: boolean[] = [];
  const r = CORNER - 0.04;
  for (let j = 0; j < GRID; j++)
    for (let i = 0; i < GRID; i++) {
      const u = (i + 0.5) / GRID;
      const v = (j + 0.5) / GRID;
      const x = Math.min(screen.width - 1, Math.max(0, Math.floor(x0 + u * w)));
      const y = Math.min(screen.height - 1, Math.max(0, Math.floor(y0 + v * h)));
      const o = (y * screen.width + x) * 3;
      px.push([screen.data[o] ?? 0, screen.data[o + 1] ?? 0, screen.data[o + 2] ?? 0]);
      // Inset 4% so the tile's anti-aliased rim and the wallpaper past it are never read.
      const du = Math.max(0, Math.abs(u - 0.5) - (0.5 - 0.04 - r));
      const dv = Math.max(0, Math.abs(v - 0.5) - (0.5 - 0.04 - r));
      inside.push(du * du + dv * dv <= r * r && Math.abs(u - 0.5) <= 0.46 && Math.abs(v - 0.5) <= 0.46);
    }
  return { px, inside };
}

/**
 * The tile's background: the colour class held by at least 70% of four patches 9–17% in from the
 * corners along the diagonals — inside the squircle, yet clear of any glyph (a compass disk can fill
 * 86% of the tile, which reaches the middle of every side) and of most of a badge.
 */
function background(tile: Tile): { cls: Bg; colour: Rgb } | null {
  const ring: Rgb[] = [];
  for (let j = 0; j < GRID; j++)
    for (let i = 0; i < GRID; i++) {
      const u = (i + 0.5) / GRID;
      const v = (j + 0.5) / GRID;
      const du = Math.min(u, 1 - u);
      const dv = Math.min(v, 1 - v);
      if (du < 0.09 || du > 0.17 || dv < 0.09 || dv > 0.17) continue;
      const p = tile.px[j * GRID + i];
      if (p) ring.push(p);
    }
  const counts = new Map<Bg, Rgb[]>();
  for (const p of ring) {
    const c = backgroundClass(p);
    if (c) counts.set(c, [...(counts.get(c) ?? []), p]);
  }
  const best = [...counts.entries()].sort((a, b) => b[1].length - a[1].length)[0];
  if (!best || best[1].length < 0.7 * ring.length) return null;
  const mean = (k: 0 | 1 | 2): number => best[1].reduce((s, p) => s + p[k], 0) / best[1].length;
  return { cls: best[0], colour: [mean(0), mean(1), mean(2)] };
}

/** Ink statistics of a boolean mask on the lattice, in tile fractions. */
interface Ink {
  count: number;
  /** Bounding box of the ink [l, t, r, b] in lattice units. */
  bbox: [number, number, number, number];
  mask: boolean[];
}

/** The ink mask's connected parts (4-neighbour) of at least `minShare` of the largest part, merged. */
function mainInk(mask: readonly boolean[], minShare: number): Ink | null {
  const label = new Int32Array(mask.length).fill(-1);
  const parts: number[][] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || label[s] !== -1) continue;
    const id = parts.length;
    const members: number[] = [];
    const stack = [s];
    label[s] = id;
    while (stack.length > 0) {
      const p = stack.pop() as number;
      members.push(p);
      const x = p % GRID;
      const y = Math.floor(p / GRID);
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ] as const) {
        if (nx < 0 || ny < 0 || nx >= GRID || ny >= GRID) continue;
        const q = ny * GRID + nx;
        if (mask[q] && label[q] === -1) {
          label[q] = id;
          stack.push(q);
        }
      }
    }
    parts.push(members);
  }
  const largest = Math.max(0, ...parts.map((p) => p.length));
  if (largest === 0) return null;
  const keep = new Array<boolean>(mask.length).fill(false);
  let count = 0;
  const bbox: [number, number, number, number] = [GRID, GRID, -1, -1];
  for (const part of parts) {
    if (part.length < minShare * largest) continue;
    for (const p of part) {
      keep[p] = true;
      count++;
      const x = p % GRID;
      const y = Math.floor(p / GRID);
      bbox[0] = Math.min(bbox[0], x);
      bbox[1] = Math.min(bbox[1], y);
      bbox[2] = Math.max(bbox[2], x + 1);
      bbox[3] = Math.max(bbox[3], y + 1);
    }
  }
  return { count, bbox, mask: keep };
}

/** Share of ink in the sub-box [u0, v0, u1, v1] (fractions of the ink's bounding box). */
function shareIn(ink: Ink, u0: number, v0: number, u1: number, v1: number): number {
  const [l, t, r, b] = ink.bbox;
  const bw = r - l;
  const bh = b - t;
  let n = 0;
  let all = 0;
  for (let y = Math.floor(t + v0 * bh); y < Math.ceil(t + v1 * bh); y++)
    for (let x = Math.floor(l + u0 * bw); x < Math.ceil(l + u1 * bw); x++) {
      all++;
      if (ink.mask[y * GRID + x]) n++;
    }
  return all === 0 ? 0 : n / all;
}

/** Fraction of the ink lying in the sub-box (of the ink's bounding box). */
function inkIn(ink: Ink, u0: number, v0: number, u1: number, v1: number): number {
  const [l, t, r, b] = ink.bbox;
  let n = 0;
  for (let p = 0; p < ink.mask.length; p++) {
    if (!ink.mask[p]) continue;
    const u = ((p % GRID) + 0.5 - l) / (r - l);
    const v = (Math.floor(p / GRID) + 0.5 - t) / (b - t);
    if (u >= u0 && u < u1 && v >= v0 && v < v1) n++;
  }
  return ink.count === 0 ? 0 : n / ink.count;
}

/** White glyph on a coloured tile: lattice points inside the tile much lighter and greyer than the tile. */
function whiteInk(tile: Tile, bg: Rgb): boolean[] {
  const bgMin = Math.min(...bg);
  return tile.px.map((p, k) => {
    if (!tile.inside[k]) return false;
    const { s } = hsv(p);
    return Math.min(...p) > bgMin + 0.5 * (255 - bgMin) && s < 0.3;
  });
}

function green(tile: Tile, bg: Rgb): string | undefined {
  const ink = mainInk(whiteInk(tile, bg), 0.15);
  if (!ink) return undefined;
  const [l, t, r, b] = ink.bbox;
  const w = (r - l) / GRID;
  const h = (b - t) / GRID;
  const fill = ink.count / ((r - l) * (b - t));
  // Messages: a solid wide bubble — no holes in its middle, empty bounding-box corners (an ellipse).
  const solidMiddle = shareIn(ink, 0.25, 0.2, 0.75, 0.6);
  const topCorners = Math.max(shareIn(ink, 0, 0, 0.18, 0.18), shareIn(ink, 0.82, 0, 1, 0.18));
  if (
    w >= 0.5 &&
    w <= 0.88 &&
    w / h >= 1.02 &&
    w / h <= 1.5 &&
    fill >= 0.6 &&
    fill <= 0.9 &&
    solidMiddle >= 0.97 &&
    topCorners <= 0.4
  )
    return "Messages";
  // Phone: a diagonal handset — ink in the top-left, bottom-left and bottom-right quarters, none in
  // the top-right one, and most of its bounding box empty.
  const tr = inkIn(ink, 0.55, 0, 1, 0.45);
  const tl = inkIn(ink, 0, 0, 0.5, 0.5);
  const br = inkIn(ink, 0.5, 0.5, 1, 1);
  if (
    w >= 0.4 &&
    w <= 0.85 &&
    w / h >= 0.75 &&
    w / h <= 1.33 &&
    fill >= 0.2 &&
    fill <= 0.6 &&
    tr <= 0.04 &&
    tl >= 0.15 &&
    br >= 0.15 &&
    shareIn(ink, 0.6, 0, 1, 0.4) <= 0.05
  )
    return "Phone";
  return undefined;
}

function blue(tile: Tile, bg: Rgb): string | undefined {
  const ink = mainInk(whiteInk(tile, bg), 0.1);
  if (!ink) return undefined;
  const [l, t, r, b] = ink.bbox;
  const w = (r - l) / GRID;
  const h = (b - t) / GRID;
  const fill = ink.count / ((r - l) * (b - t));
  // Mail: a white envelope — a wide, nearly full rectangle (its corners filled), with thin gaps (the
  // flap's V) inside, lying mostly in its upper part.
  if (w < 0.5 || w > 0.88 || w / h < 1.25 || w / h > 1.8 || fill < 0.8) return undefined;
  const corners = [
    shareIn(ink, 0, 0, 0.15, 0.2),
    shareIn(ink, 0.85, 0, 1, 0.2),
    shareIn(ink, 0, 0.8, 0.15, 1),
    shareIn(ink, 0.85, 0.8, 1, 1),
  ];
  // A rectangle's bounding-box corners are full (the flap lines cut ~30–50% of the top ones); an
  // ellipse's hold under 20%.
  if (Math.min(...corners) < 0.45) return undefined;
  const gapsUpper = 1 - shareIn(ink, 0.3, 0.15, 0.7, 0.65);
  const gapsLower = 1 - shareIn(ink, 0.2, 0.75, 0.8, 0.95);
  return gapsUpper >= 0.02 && gapsUpper <= 0.35 && gapsLower <= gapsUpper ? "Mail" : undefined;
}

function white(tile: Tile): string | undefined {
  const inside = tile.px.filter((_, k) => tile.inside[k]);
  const hues = inside.map(hsv).filter((c) => c.s >= 0.35 && c.v >= 0.35);
  if (hues.length < 0.2 * inside.length) return undefined;
  // Photos: eight petal hues; Safari: blue with a little red.
  const bins = new Array<number>(12).fill(0);
  for (const c of hues) bins[Math.floor(c.h / 30) % 12] = (bins[Math.floor(c.h / 30) % 12] ?? 0) + 1;
  const used = bins.filter((n) => n >= 0.04 * hues.length).length;
  const blueMask = tile.px.map((p, k) => {
    if (!tile.inside[k]) return false;
    const c = hsv(p);
    return c.s >= 0.35 && c.v >= 0.35 && c.h >= 190 && c.h <= 235;
  });
  const blueShare = blueMask.filter(Boolean).length / hues.length;
  if (used >= 6 && blueShare < 0.35) {
    const ink = mainInk(
      tile.px.map((p, k) => tile.inside[k] === true && hsv(p).s >= 0.2),
      0.05,
    );
    if (!ink) return undefined;
    const w = (ink.bbox[2] - ink.bbox[0]) / GRID;
    const h = (ink.bbox[3] - ink.bbox[1]) / GRID;
    return w >= 0.55 && w / h >= 0.85 && w / h <= 1.18 ? "Photos" : undefined;
  }
  if (blueShare < 0.6) return undefined;
  const disk = mainInk(blueMask, 0.02);
  if (!disk) return undefined;
  const w = (disk.bbox[2] - disk.bbox[0]) / GRID;
  const h = (disk.bbox[3] - disk.bbox[1]) / GRID;
  // Red needle pixels in the disk's upper-right quarter.
  let red = 0;
  for (let k = 0; k < tile.px.length; k++) {
    const p = tile.px[k];
    if (!p || !tile.inside[k]) continue;
    const c = hsv(p);
    const u = ((k % GRID) - disk.bbox[0]) / (disk.bbox[2] - disk.bbox[0]);
    const v = (Math.floor(k / GRID) - disk.bbox[1]) / (disk.bbox[3] - disk.bbox[1]);
    if (c.s >= 0.45 && (c.h >= 340 || c.h <= 15) && u > 0.5 && v < 0.5) red++;
  }
  const fill = disk.count / ((disk.bbox[2] - disk.bbox[0]) * (disk.bbox[3] - disk.bbox[1]));
  return w >= 0.65 && w / h >= 0.88 && w / h <= 1.14 && fill >= 0.55 && red >= 0.003 * GRID * GRID
    ? "Safari"
    : undefined;
}

/**
 * The stock app a rounded-square tile at `box` (screen fractions) shows, or `undefined` when the tile
 * is not one of the designs above or any test is unsure. `box` should hug the tile (a detector box).
 */
export function nameStockApp(screen: RgbImage, box: FracBox): string | undefined {
  const tile = sampleTile(screen, box);
  if (!tile) return undefined;
  const bg = background(tile);
  if (!bg) return undefined;
  if (bg.cls === "green") return green(tile, bg.colour);
  if (bg.cls === "blue") return blue(tile, bg.colour);
  return white(tile);
}

/** An app tile is 40–90 pt wide on a ~390 pt screen (home and dock 60 pt) and square in pixels. */
function isAppTile(r: Candidate, screen: RgbImage): boolean {
  const w = (r.box[2] - r.box[0]) * screen.width;
  const h = (r.box[3] - r.box[1]) * screen.height;
  const wf = r.box[2] - r.box[0];
  return wf >= 0.1 && wf <= 0.24 && w / h > 0.75 && w / h < 1.33;
}

/**
 * Unnamed app-tile-shaped rows (an `icon` or `app` row with an empty label — the dock, where iOS prints
 * no names) that show a stock app's design become `[app] "<Name>"`; all other rows pass unchanged.
 */
export function nameStockApps(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  return rows.map((r) => {
    if ((r.kind !== "icon" && r.kind !== "app") || r.label !== "" || !isAppTile(r, screen)) return r;
    // A detector box can sit a little inside the tile (then its corners show the glyph, not the tile):
    // try it grown by 8% a side too — every test must still pass on that box.
    const [l, t, rt, bt] = r.box;
    const gx = 0.08 * (rt - l);
    const gy = 0.08 * (bt - t);
    const name =
      nameStockApp(screen, r.box) ??
      nameStockApp(screen, [
        Math.max(0, l - gx),
        Math.max(0, t - gy),
        Math.min(1, rt + gx),
        Math.min(1, bt + gy),
      ]);
    return name ? { ...r, kind: "app", label: name } : r;
  });
}
