import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { type MaskComponent, maskComponents } from "./mask-components.js";
import { findMarks } from "./photo-marks.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";

/**
 * Photo grids — the Photos library, the system photo picker (PHPicker) and the many third-party pickers
 * modelled on them — as one `[button] "photo"` (or `"video"`) row per thumbnail and, where the picker
 * draws selection marks, one `[checkbox] "select" on|off` row per mark.
 *
 * How iOS draws them: square thumbnails of equal size in 3–5 columns across the screen (Photos offers
 * 3 and 5 columns, PHPicker 3–4; Apple HIG "Collections": a grid of equal items), separated by thin
 * gutters of the page colour (a hairline to a few points). A selectable thumbnail carries a circular
 * mark of about 20–28 pt near a right corner (Photos and PHPicker: bottom-right; WeChat-style pickers:
 * top-right): a white ring over a dimmed disc when not selected, a disc filled with the tint colour
 * (blue, green) around a white checkmark when selected.
 *
 * So: the page colour is one of the screen's two commonest colours; every block of the screen with no
 * pixel of that colour is content, and content components that are squares of 60–150 pt (3–6 columns on
 * 320–430 pt wide phones), nearly filled to their corners (not round buttons), textured (not a flat
 * tile), of one size, aligned in rows and columns with each other and at most 10 pt apart across a row (a
 * home screen's app icons are ~25 pt apart), at least four of them, are the
 * thumbnails. Marks are looked for at one geometry shared by the grid: the corner offset and radius
 * where white rings stand out most across the thumbnails; each thumbnail with a ring or a tinted disc
 * there gets a checkbox row, on when the disc inside is tinted.
 */

export interface PhotoTile {
  box: FracBox;
  /** The selection mark on the thumbnail, when it has one. */
  select?: { box: FracBox; on: boolean };
}

/** Work at about this many pixels per point (integer block size, never upsampled). */
const PX_PER_PT = 1;
/** Points across the commonest iPhones (390 pt); the scale is width / this. */
const SCREEN_PT = 390;
/** A pixel is page colour when every channel is within this of it (camera frames carry noise). */
const PAGE_TOL = 16;
/** Thumbnail sides, in points. */
const MIN_TILE_PT = 60;
const MAX_TILE_PT = 150;
/** Share of a thumbnail's box that is content (a round button covers π/4 ≈ 0.79). */
const MIN_FILL = 0.9;
/** Thumbnails of one grid differ in size by less than this share. */
const SIZE_TOL = 0.08;
/** Edges align within this many points. */
const ALIGN_PT = 3;
const MIN_TILES = 4;
/** Thumbnails sit at most this far apart across a row (app icons on a home screen are ~25 pt apart). */
const MAX_GUTTER_PT = 10;

type Comp = MaskComponent;

/** The thumbnails of a photo grid on `screen` (see the module comment), or none. */
export function findPhotoGrid(screen: RgbImage): PhotoTile[] {
  const pt = screen.width / SCREEN_PT;
  const f = Math.max(1, Math.floor(pt / PX_PER_PT));
  let best: Comp[] = [];
  for (const page of pageColours(screen)) {
    const tiles = gridTiles(screen, page, f, pt);
    if (tiles.length > best.length) best = tiles;
  }
  if (best.length === 0) return [];
  const W = screen.width;
  const H = screen.height;
  const marks = findMarks(screen, best, pt);
  return best.map((c, i) => {
    const box: FracBox = [c.x0 / W, c.y0 / H, c.x1 / W, c.y1 / H];
    const m = marks[i];
    if (!m) return { box };
    const r = m.r + pt;
    return { box, select: { box: [(m.x - r) / W, (m.y - r) / H, (m.x + r) / W, (m.y + r) / H], on: m.on } };
  });
}

/**
 * `rows` with a photo grid's thumbnails and marks listed (see the module comment): icon and switch rows
 * on a thumbnail are its picture's parts and go; text rows (a video's duration) stay, and a thumbnail
 * with a duration (`0:06`) on it is a `"video"`.
 */
export function applyPhotoGrid(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const tiles = findPhotoGrid(screen);
  if (tiles.length === 0) return [...rows];
  const on = (b: FracBox, r: Candidate): boolean => contains(b, centreX(r.box), centreY(r.box));
  const kept = rows.filter(
    (r) => r.kind === "text" || r.kind === "status" || !tiles.some((t) => on(t.box, r)),
  );
  const out: Candidate[] = [...kept];
  for (const t of tiles) {
    const video = kept.some(
      (r) => r.kind === "text" && /^\d{1,2}:\d{2}$/.test(r.label.trim()) && on(t.box, r),
    );
    out.push({ kind: "button", label: video ? "video" : "photo", box: t.box, conf: 0.8 });
    if (t.select)
      out.push({
        kind: "checkbox",
        label: "select",
        state: t.select.on ? "on" : "off",
        box: t.select.box,
        conf: 0.8,
      });
  }
  return out;
}

/**
 * Blocks of `f` × `f` pixels holding no pixel of the page colour `page` (row-major, `floor(width / f)`
 * wide): a block is content when no pixel of its top row or left column has the page colour, so any
 * one-pixel gutter, across or down, crosses one of them and survives the downsampling.
 */
export function contentMask(screen: RgbImage, page: readonly number[], f: number): Uint8Array {
  const { width: W, data } = screen;
  const w = Math.floor(W / f);
  const h = Math.floor(screen.height / f);
  const [pr, pg, pb] = page as [number, number, number];
  const content = new Uint8Array(w * h);
  // The page-colour test is written out in each loop: a closure called per pixel was a third of the time.
  // One pixel per block: its top row and left column are that pixel, tested once, not twice.
  if (f === 1) {
    for (let i = 0, o = 0; i < w * h; i++, o += 3) {
      const r = (data[o] as number) - pr;
      const g = (data[o + 1] as number) - pg;
      const b = (data[o + 2] as number) - pb;
      const onPage =
        r <= PAGE_TOL && r >= -PAGE_TOL && g <= PAGE_TOL && g >= -PAGE_TOL && b <= PAGE_TOL && b >= -PAGE_TOL;
      if (!onPage) content[i] = 1;
    }
    return content;
  }
  const isPage = (o: number): boolean =>
    Math.abs((data[o] as number) - pr) <= PAGE_TOL &&
    Math.abs((data[o + 1] as number) - pg) <= PAGE_TOL &&
    Math.abs((data[o + 2] as number) - pb) <= PAGE_TOL;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let onPage = false;
      const o = (y * f * W + x * f) * 3;
      for (let k = 0; k < f && !onPage; k++) onPage = isPage(o + k * 3) || isPage(o + k * W * 3);
      if (!onPage) content[y * w + x] = 1;
    }
  return content;
}

/** The screen's two commonest colours (4 bits a channel, sampled every few pixels), as RGB means. */
export function pageColours(screen: RgbImage): [number, number, number][] {
  const { width: W, height: H, data } = screen;
  const n = new Uint32Array(4096);
  const sum = new Float64Array(4096 * 3);
  const step = Math.max(1, Math.round(W / 200));
  for (let y = 0; y < H; y += step)
    for (let x = 0; x < W; x += step) {
      const o = (y * W + x) * 3;
      const r = data[o] as number;
      const g = data[o + 1] as number;
      const b = data[o + 2] as number;
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      n[key] = (n[key] as number) + 1;
      sum[key * 3] = (sum[key * 3] as number) + r;
      sum[key * 3 + 1] = (sum[key * 3 + 1] as number) + g;
      sum[key * 3 + 2] = (sum[key * 3 + 2] as number) + b;
    }
  const keys = Array.from(n.keys())
    .sort((a, b) => (n[b] as number) - (n[a] as number))
    .slice(0, 2);
  return keys.map((k) => {
    const c = n[k] as number;
    return [(sum[k * 3] as number) / c, (sum[k * 3 + 1] as number) / c, (sum[k * 3 + 2] as number) / c];
  });
}

/** The aligned, equal, square, textured content components on page colour `page` (see the module comment). */
function gridTiles(screen: RgbImage, page: readonly number[], f: number, pt: number): Comp[] {
  const w = Math.floor(screen.width / f);
  const h = Math.floor(screen.height / f);
  const content = contentMask(screen, page, f);
  const bpt = pt / f; // blocks per point
  const squares = components(content, w, h).filter((c) => {
    const cw = c.x1 - c.x0;
    const ch = c.y1 - c.y0;
    if (cw < MIN_TILE_PT * bpt || cw > MAX_TILE_PT * bpt || Math.abs(cw - ch) > SIZE_TOL * cw) return false;
    if (c.n < MIN_FILL * cw * ch) return false;
    return textured(screen, c, f);
  });
  if (squares.length < MIN_TILES) return [];
  const sides = squares.map((c) => c.x1 - c.x0).sort((a, b) => a - b);
  const side = sides[sides.length >> 1] as number;
  const same = squares.filter((c) => Math.abs(c.x1 - c.x0 - side) <= SIZE_TOL * side);
  const tol = ALIGN_PT * bpt;
  const aligned = same.filter(
    (c) =>
      same.some((o) => o !== c && Math.abs(o.x0 - c.x0) <= tol) &&
      same.some(
        (o) =>
          o !== c &&
          Math.abs(o.y0 - c.y0) <= tol &&
          Math.max(o.x0 - c.x1, c.x0 - o.x1) <= MAX_GUTTER_PT * bpt &&
          Math.max(o.x0 - c.x1, c.x0 - o.x1) >= -tol,
      ),
  );
  if (aligned.length < MIN_TILES) return [];
  const tiles = [
    ...aligned,
    ...emptySlots(aligned, side, tol, content, w, h).filter((c) => textured(screen, c, f)),
  ];
  return tiles.map((c) => ({ x0: c.x0 * f, y0: c.y0 * f, x1: c.x1 * f, y1: c.y1 * f, n: c.n }));
}

/** Representatives of `values` (sorted), one per run of values within `tol` of each other. */
function clusters(values: readonly number[], tol: number): number[] {
  const out: number[] = [];
  for (const v of [...values].sort((a, b) => a - b))
    if (out.length === 0 || v - (out[out.length - 1] as number) > tol) out.push(v);
  return out;
}

/**
 * The grid's other slots holding a picture that did not come out as a clean square (a bright sky
 * merges with a white page, a lone thumbnail on the last row): at the grid's columns, on its rows and
 * on rows continuing its row pitch downwards while they hold any, a slot whose blocks are mostly
 * content. Slots are whole on screen (a row cut by the bar above is not a thumbnail to tap).
 */
function emptySlots(
  tiles: readonly Comp[],
  side: number,
  tol: number,
  content: Uint8Array,
  w: number,
  h: number,
): Comp[] {
  const xs = clusters(
    tiles.map((t) => t.x0),
    tol,
  );
  const ys = clusters(
    tiles.map((t) => t.y0),
    tol,
  );
  const steps = ys.slice(1).map((y, i) => y - (ys[i] as number));
  const pitch = steps.length > 0 ? Math.min(...steps) : side + tol;
  if (pitch < side) return [];
  const out: Comp[] = [];
  const slotAt = (x0: number, y0: number): Comp | undefined => {
    const overlaps = (t: Comp): boolean =>
      Math.min(t.x1, x0 + side) - Math.max(t.x0, x0) > side / 2 &&
      Math.min(t.y1, y0 + side) - Math.max(t.y0, y0) > side / 2;
    if (tiles.some(overlaps)) return undefined;
    const x1 = Math.round(x0 + side);
    const y1 = Math.round(y0 + side);
    if (x1 > w || y1 > h) return undefined;
    let n = 0;
    for (let y = Math.round(y0); y < y1; y++)
      for (let x = Math.round(x0); x < x1; x++) n += content[y * w + x] ?? 0;
    return n >= 0.5 * side * side ? { x0: Math.round(x0), y0: Math.round(y0), x1, y1, n } : undefined;
  };
  const first = ys[0] as number;
  const last = ys[ys.length - 1] as number;
  for (let y = first; y <= last + tol || y + side <= h; y += pitch) {
    const row = xs.flatMap((x) => slotAt(x, y) ?? []);
    const onGrid = ys.some((v) => Math.abs(v - y) <= tol) || y <= last;
    if (!onGrid && row.length === 0) break;
    out.push(...row);
  }
  return out;
}

/** A picture, not a flat tile: its luma spread (sampled on a coarse lattice) is wide. */
function textured(screen: RgbImage, c: Comp, f: number): boolean {
  const { width: W, data } = screen;
  let n = 0;
  let s = 0;
  let s2 = 0;
  const step = Math.max(1, Math.floor((c.x1 - c.x0) / 16));
  for (let y = c.y0; y < c.y1; y += step)
    for (let x = c.x0; x < c.x1; x += step) {
      const o = (y * f * W + x * f) * 3;
      const l =
        0.299 * (data[o] as number) + 0.587 * (data[o + 1] as number) + 0.114 * (data[o + 2] as number);
      n++;
      s += l;
      s2 += l * l;
    }
  const mean = s / n;
  return Math.sqrt(Math.max(0, s2 / n - mean * mean)) > 12;
}

/** 4-connected components of `mask` with their boxes and pixel counts (see `maskComponents`). */
export function components(mask: Uint8Array, w: number, h: number): Comp[] {
  return maskComponents(mask, w, h, false);
}
