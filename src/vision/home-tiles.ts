import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import {
  colPitch,
  dockRow,
  type HomeGrid,
  homeGrid,
  ICON_PT,
  isHomeScreen,
  NAME_BELOW_PT,
  namePhase,
  nameSlot,
  rowPitch,
  type Slot,
  slotAt,
} from "./home-layout.js";
import type { Candidate } from "./row.js";
import { centreX, centreY, contains } from "./row.js";
import { asIconAndText, widgetContentApps } from "./widget-content.js";
import { edgesRunUp } from "./widget-edges.js";

/**
 * A home screen's tiles and widgets placed from SpringBoard's fixed grid (`home-layout.ts`), so what is
 * listed does not hang on the detector finding each tile (its boxes move when the same screenshot is
 * re-encoded). Once the listing is recognised as a home screen:
 * - every app name line (a name-sized line centred on one of the four columns) has its 60 pt tile right
 *   above it: when no `app` row is there, the name becomes `[app] "Name"` with the tile's box, and the rows
 *   wholly inside the tile (the detector's box on part of its artwork, live artwork read as text — a
 *   Calendar tile's `THU`/`14`, a folder's glyphs) go; a digit at the tile's top right (its badge) stays.
 *   A place holding anything else (a widget's text, a control) is no missed tile and is left alone.
 * - every widget caption (a name line centred on a small widget's two cells or on the screen's middle)
 *   names the widget box above it: `[widget] "Scriptable"`, small or medium (4×2) — or large (4×4) when the
 *   two rows above the medium's place hold content and no name line, or when the widget's side edges run
 *   unbroken up through them (`widget-edges.ts`: a month's day grid has no line across the middle, and its
 *   numbers on the app columns are no apps' names);
 * - the dock: its found tiles fix how many slots it has (4 at most, centred at the column pitch); a slot
 *   without a row whose pixels differ from the dock's material right above the tiles is a missed tile and
 *   gets an `[icon] ""` row (no name is printed in the dock: `stock-apps.ts` and the icon memory name it).
 */

/** A row of this much of a tile's place, or more, inside it is the tile's own artwork. */
const ARTWORK_PAD = 0.35;
/** A dock slot's pixels differ from the dock material by this much (mean colour or spread) when a tile is there. */
const TILE_MEAN_STEP = 36;
const TILE_SPREAD_STEP = 14;

type Box = FracBox;

const expand = (b: Box, k: number): Box => {
  const dx = (b[2] - b[0]) * k;
  const dy = (b[3] - b[1]) * k;
  return [b[0] - dx, b[1] - dy, b[2] + dx, b[3] + dy];
};
const within = (outer: Box, inner: Box): boolean =>
  inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];

/** A badge: a short number at a tile's top right (iOS draws it as a red disc over that corner). */
function isBadge(r: Candidate, tile: Box): boolean {
  return (
    r.kind === "text" &&
    /^\d{1,3}$/.test(r.label.trim()) &&
    centreX(r.box) > tile[2] - 0.3 * (tile[2] - tile[0]) &&
    centreY(r.box) < tile[1] + 0.3 * (tile[3] - tile[1])
  );
}

/** The tile above an app name line, in fractions. */
function tileAbove(g: HomeGrid, name: Candidate): Box {
  const cx = centreX(name.box);
  const bottom = centreY(name.box) - NAME_BELOW_PT / g.h;
  const hw = ICON_PT / 2 / g.w;
  return [cx - hw, bottom - ICON_PT / g.h, cx + hw, bottom];
}

/** The rows a missed tile's place holds that are its artwork, or null when the place is not a missed tile's. */
function tileArtwork(tile: Box, name: Candidate, rows: readonly Candidate[]): Candidate[] | null {
  const near = expand(tile, 0.15);
  const art: Candidate[] = [];
  for (const o of rows) {
    if (o === name) continue;
    const on =
      contains(near, centreX(o.box), centreY(o.box)) || contains(o.box, centreX(tile), centreY(tile));
    if (!on) continue;
    if (o.kind === "app" || o.kind === "widget") return null;
    if (isBadge(o, tile)) continue;
    if ((o.kind === "icon" || o.kind === "text") && within(expand(tile, ARTWORK_PAD), o.box)) art.push(o);
    else return null;
  }
  return art;
}

/** The widget box above a caption (module comment). */
function widgetAbove(
  g: HomeGrid,
  caption: Candidate,
  slot: Extract<Slot, { kind: "widget" }>,
  rows: readonly Candidate[],
  phase: number | undefined,
): Box | null {
  const bottom = centreY(caption.box) - NAME_BELOW_PT / g.h;
  const half = (slot.wide ? g.medium : g.small) / 2 / g.w;
  const cx = centreX(caption.box);
  const box: Box = [cx - half, bottom - g.small / g.h, cx + half, bottom];
  // A tile on the grid (an app off the columns inside a widget is its artwork over a line of its text).
  const appIn = (b: Box): boolean =>
    rows.some(
      (o) =>
        (o.kind === "widget" || (o.kind === "app" && slotAt(g, centreX(o.box))?.kind === "app")) &&
        contains(b, centreX(o.box), centreY(o.box)),
    );
  if (appIn(box)) return null;
  if (!slot.wide) return box;
  // Large: the two rows above the medium's place are the widget's too — content there, no name line, and
  // a line of it across the screen's middle (two small widgets or an app grid leave a gap there).
  const top = bottom - g.large / g.h;
  if (top < 0.06 || (slot.row !== undefined && slot.row < 3)) return box;
  const band: Box = [box[0], top, box[2], box[1] - (rowPitch(g) - ICON_PT) / 2 / g.h];
  const inBand = rows.filter((o) => o.kind !== "status" && contains(band, centreX(o.box), centreY(o.box)));
  const mid = 4 / g.w;
  const across = inBand.some((o) => o.kind === "text" && o.box[0] < 0.5 - mid && o.box[2] > 0.5 + mid);
  if (!across || appIn(band) || inBand.some((o) => nameSlot(g, o, rows, phase) !== undefined)) return box;
  return [box[0], top, box[2], bottom];
}

/** A large widget over a wide caption found from its edges (`widget-edges.ts`), or null. */
function largeByEdges(
  img: RgbImage,
  g: HomeGrid,
  caption: Candidate,
  slot: Extract<Slot, { kind: "widget" }>,
): Box | null {
  if (!slot.wide || (slot.row !== undefined && slot.row < 3)) return null;
  const bottom = centreY(caption.box) - NAME_BELOW_PT / g.h;
  const top = bottom - g.large / g.h;
  const half = g.medium / 2 / g.w;
  const medium: Box = [slot.x - half, bottom - g.small / g.h, slot.x + half, bottom];
  return top >= 0.06 && edgesRunUp(img, g, medium, top) ? [medium[0], top, medium[2], bottom] : null;
}

function px(img: RgbImage, x: number, y: number): [number, number, number] {
  const xi = Math.min(img.width - 1, Math.max(0, Math.round(x * img.width)));
  const yi = Math.min(img.height - 1, Math.max(0, Math.round(y * img.height)));
  const o = (yi * img.width + xi) * img.channels;
  return [img.data[o] ?? 0, img.data[o + 1] ?? 0, img.data[o + 2] ?? 0];
}

/** Mean colour and spread (mean absolute deviation, max over channels) of a box's pixels on a 12×12 lattice. */
function stats(img: RgbImage, b: Box): { mean: number[]; spread: number } {
  const s: [number, number, number][] = [];
  for (let i = 0; i < 12; i++)
    for (let j = 0; j < 12; j++)
      s.push(px(img, b[0] + ((b[2] - b[0]) * (i + 0.5)) / 12, b[1] + ((b[3] - b[1]) * (j + 0.5)) / 12));
  const mean = [0, 1, 2].map((c) => s.reduce((a, p) => a + p[c as 0 | 1 | 2], 0) / s.length);
  const spread = Math.max(
    ...[0, 1, 2].map(
      (c) => s.reduce((a, p) => a + Math.abs(p[c as 0 | 1 | 2] - (mean[c] ?? 0)), 0) / s.length,
    ),
  );
  return { mean, spread };
}

/** Missed dock tiles (module comment). */
function dockSlots(img: RgbImage, g: HomeGrid, rows: readonly Candidate[]): Candidate[] {
  const dock = dockRow(g, rows);
  if (dock.length < 2 || dock.length >= 4) return [];
  const p = colPitch(g) / g.w;
  const fits = (n: number): number[] | null => {
    const xs = Array.from({ length: n }, (_, k) => 0.5 + (k - (n - 1) / 2) * p);
    return dock.every((d) => xs.some((x) => Math.abs(centreX(d.box) - x) < 0.25 * p)) ? xs : null;
  };
  let xs: number[] | null = null;
  for (let n = dock.length; n <= 4 && !xs; n++) xs = fits(n);
  if (!xs) return [];
  const cy = dock.map((d) => centreY(d.box)).sort((a, b) => a - b)[Math.floor(dock.length / 2)] ?? 0;
  const hw = ICON_PT / 2 / g.w;
  const hh = ICON_PT / 2 / g.h;
  const above = (x: number): Box => [x - hw, cy - hh - 10 / g.h, x + hw, cy - hh - 4 / g.h];
  const out: Candidate[] = [];
  for (const x of xs) {
    if (dock.some((d) => Math.abs(centreX(d.box) - x) < 0.25 * p)) continue;
    const tile: Box = [x - hw, cy - hh, x + hw, cy + hh];
    if (rows.some((r) => r.kind !== "text" && contains(tile, centreX(r.box), centreY(r.box)))) continue;
    const inner = stats(img, expand(tile, -0.2));
    const material = stats(img, above(x));
    const step = Math.max(...inner.mean.map((v, c) => Math.abs(v - (material.mean[c] ?? 0))));
    if (step < TILE_MEAN_STEP && inner.spread < material.spread + TILE_SPREAD_STEP) continue;
    out.push({ kind: "icon", label: "", box: tile, conf: 0.4 });
  }
  return out;
}

/**
 * A widget's row box clear of the controls drawn in it (a widget's own buttons, listed as rows of their own):
 * the larger part of the widget above or below them, when it is at least a quarter of the widget, so a tap
 * at the row's centre opens the widget and not one of its buttons; else the whole widget.
 */
function clearOfControls(w: Box, rows: readonly Candidate[]): Box {
  const controls = rows.filter(
    (o) =>
      (o.kind === "icon" || o.kind === "button" || o.kind === "switch" || o.kind === "app") &&
      contains(w, centreX(o.box), centreY(o.box)) &&
      o.box[2] - o.box[0] < 0.5 * (w[2] - w[0]),
  );
  if (controls.length === 0) return w;
  const top = Math.min(...controls.map((o) => o.box[1]));
  const bottom = Math.max(...controls.map((o) => o.box[3]));
  const above = top - w[1];
  const below = w[3] - bottom;
  const h = w[3] - w[1];
  if (Math.max(above, below) < 0.25 * h) return w;
  return above >= below ? [w[0], w[1], w[2], top] : [w[0], bottom, w[2], w[3]];
}

/** The home screen's missed tiles, widgets and dock slots added (module comment); other screens as they are. */
export function applyHomeGrid(screen: RgbImage, rows: readonly Candidate[], aspect: number): Candidate[] {
  const g = homeGrid(aspect, rows);
  if (!isHomeScreen(g, rows)) return [...rows];
  const gone = new Set<Candidate>();
  const replaced = new Map<Candidate, Candidate>();
  const phase = namePhase(g, rows);
  // Large widgets from their edges first: name-like lines inside one are its content, not apps' names.
  const large = new Map<Candidate, Box>();
  for (const r of rows) {
    const slot = nameSlot(g, r, rows, phase);
    const box = slot?.kind === "widget" ? largeByEdges(screen, g, r, slot) : null;
    if (box) large.set(r, box);
  }
  const inLarge = (r: Candidate): boolean =>
    [...large.values()].some((b) => contains(b, centreX(r.box), centreY(r.box)));
  for (const r of rows) {
    const slot = nameSlot(g, r, rows, phase);
    if (!slot) continue;
    const live = rows.filter((o) => !gone.has(o) && o !== r).map((o) => replaced.get(o) ?? o);
    const edged = large.get(r);
    if (edged)
      replaced.set(r, { kind: "widget", label: r.label.trim(), box: edged, labelBox: r.box, conf: 0.5 });
    else if (inLarge(r)) continue;
    else if (slot.kind === "app") {
      const tile = tileAbove(g, r);
      const art = tileArtwork(tile, r, live);
      if (!art) continue;
      for (const a of art) gone.add(rows.find((o) => (replaced.get(o) ?? o) === a) ?? a);
      replaced.set(r, { kind: "app", label: r.label.trim(), box: tile, labelBox: r.box, conf: 0.5 });
    } else {
      const box = widgetAbove(g, r, slot, live, phase);
      if (box) replaced.set(r, { kind: "widget", label: r.label.trim(), box, labelBox: r.box, conf: 0.5 });
    }
  }
  const placed = rows.filter((r) => !gone.has(r)).map((r) => replaced.get(r) ?? r);
  // An "app" named inside a widget or off the app columns (a symbol over a line of the widget's text) is
  // the widget's content (`widget-content.ts`).
  const content = widgetContentApps(g, placed);
  const split = placed.flatMap((r): Candidate[] => (content.has(r) ? asIconAndText(r) : [r]));
  const out = split.map((r) => (r.kind === "widget" ? { ...r, box: clearOfControls(r.box, split) } : r));
  return [...out, ...dockSlots(screen, g, out)];
}
