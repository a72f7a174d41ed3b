import type { RgbImage } from "../../shared/image.js";
import type { TextLine } from "../types.js";
import { axisReading, axisSlots } from "./axis-slots.js";
import { badgeSlots } from "./badges.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";
import { plateLetters } from "./plate-letters.js";
import { plateSlots } from "./plates.js";

/**
 * Lone glyphs the text detector cannot see. Detection runs on a 320 px wide map (`detectionWidth`), where
 * a section-index capital (UITableView's index: 11 pt semibold capitals, a glyph ~8 pt tall, one per
 * ~14 pt along the trailing edge) or the digit in a badge covers 4–6 map pixels: the map misses some of
 * them, or all. Where the layout predicts a glyph — a slot in a column of evenly spaced lone capitals,
 * the middle of a badge — its ink is measured and, when there is a compact glyph, it is read by the
 * recogniser from a canvas that puts the glyph alone on its own background with an even margin (a crop
 * at the screen's edge, or a neighbour's ink in the crop, reads badly). Bounded: at most `MAX_SLOTS`
 * glyphs per screen, read in one batch of near-equal widths.
 */

/** Reads text from the given pixel boxes of an image (the engine's recogniser), in order. */
export type BoxReader = (
  image: RgbImage,
  boxes: readonly PixelBox[],
) => Promise<{ text: string; conf: number }[]>;

/** At most this many slots are read per screen (a full A–Z index is 27; badges are few). */
const MAX_SLOTS = 40;
/** A slot's reading is kept at this recogniser confidence (a lone glyph has no context to lean on). */
const MIN_GLYPH_CONF = 0.3;
/**
 * A plate's reading is kept at this confidence: higher than a badge's, since a plate's colour says
 * less (a badge is red, its glyph a count).
 */
const PLATE_CONF = 0.8;
/** A section index sits along the trailing edge: its column's centre lies in the screen's last 12%. */
const INDEX_MIN_CX = 0.88;
/** Section-index slots tried past each end of the found run (`Z #` after a found `Y`). */
const INDEX_EXTEND = 3;

/** A place a glyph is expected: pixel box in `detail`, and what may be read there. */
interface Slot {
  box: PixelBox;
  kind: "index" | "badge" | "plate" | "axis";
  /** An axis slot's predicted label and a label of its column to read it after (`axis-slots.ts`). */
  expect?: string;
  lead?: PixelBox;
  /** A plate's whole shape (`plates.ts`): the box its text line is listed with, one tap target. */
  plate?: PixelBox;
}

/**
 * Lines for glyphs found in predicted slots of `detail` (boxes as fractions), none overlapping `lines`
 * (`add`), but for a plate's label: a short line the detector found on a plate is read again from the
 * plate's canvas, and that reading replaces it (`drop`) when it is at least as confident (a lone `F` on
 * a grey tile read `E` at 0.94 in the detector's tight crop, `F` at 0.99 with the plate's even margin).
 * `image`: the working-size screen (`detail` may be the same screen sharper).
 */
export async function loneGlyphs(
  lines: readonly TextLine[],
  image: RgbImage,
  detail: RgbImage,
  read: BoxReader,
): Promise<{ add: TextLine[]; drop: Set<TextLine> }> {
  const badges = badgeSlots(image, detail);
  const slots: Slot[] = [
    ...indexSlots(lines, detail),
    ...badges.map((box) => ({ box, kind: "badge" as const })),
    ...axisSlots(lines, detail).map((a) => ({ ...a, kind: "axis" as const })),
    ...plateSlots(image, detail, badges).map((p) => ({
      box: p.inner,
      plate: p.plate,
      kind: "plate" as const,
    })),
  ];
  const found: { slot: Slot; ink: PixelBox; over: TextLine[] }[] = [];
  for (const slot of slots) {
    if (found.length >= MAX_SLOTS) break;
    const ink = glyphInk(detail, slot.box, slot.plate);
    if (!ink) continue;
    const over = overlapping(ink, lines, detail);
    const { plate } = slot;
    // A plate's label lies wholly inside the inner box; ink running into its ends is a label wider than
    // the box reaches (`JSQ` on a 34 pt avatar disc read `ISC` from its middle): left to the detector.
    if (plate && (ink.x0 <= Math.floor(slot.box.x0) || ink.x1 >= Math.ceil(slot.box.x1))) continue;
    if (over.length === 0 || (plate && over.every((l) => shortLineOn(l, plate, detail))))
      found.push({ slot, ink, over });
  }
  const drop = new Set<TextLine>();
  if (found.length === 0) return { add: [], drop };
  // The index's glyphs are read as one line (`J L S T`): the recogniser reads a lone glyph unreliably
  // (its readings changed with a pixel of margin), a row of them as it reads any short line. Each badge
  // is its own line.
  const index = found.filter((f) => f.slot.kind === "index");
  const groups = [
    ...(index.length > 0 ? [index] : []),
    ...found.filter((f) => f.slot.kind !== "index").map((f) => [f]),
  ];
  const { canvas, cells } = glyphCanvas(
    detail,
    groups.map((g) => {
      // An axis slot is read after a label of its column (`5,000 0`): a lone digit on a canvas read as
      // nothing; after a label it reads as the next word of a line.
      const lead = g[0]?.slot.kind === "axis" ? g[0].slot.lead : undefined;
      const known = lead ? glyphInk(detail, lead) : undefined;
      return [...(known ? [known] : []), ...g.map((f) => f.ink)];
    }),
  );
  const readings = await read(canvas, cells);
  const out: TextLine[] = [];
  // Plates and badges whose one glyph was not kept: read again as a letter or hanzi (`plate-letters.ts`).
  const retry: { ink: PixelBox; over: TextLine[]; at: PixelBox }[] = [];
  groups.forEach((group, i) => {
    const r = readings[i];
    if (!r || r.conf < MIN_GLYPH_CONF) return;
    const only = group[0];
    if (only?.slot.kind === "plate") {
      const text = plateText(r.text, r.conf);
      if (text === undefined && group.length === 1)
        retry.push({ ink: only.ink, over: only.over, at: only.slot.plate ?? only.ink });
      if (text === undefined || only.over.some((l) => l.conf > r.conf && l.text !== text)) return;
      out.push(lineAt(text, r.conf, only.slot.plate ?? only.ink, detail));
      for (const l of only.over) drop.add(l);
      return;
    }
    // One token per glyph: split at the spaces read, or one character each when none was.
    const spaced = r.text.trim().split(/\s+/u);
    const chars = [...r.text.replace(/\s+/gu, "")];
    const axisLead = only?.slot.kind === "axis" && spaced.length === 2 ? spaced.slice(1) : undefined;
    const tokens = axisLead ?? (spaced.length === group.length ? spaced : chars);
    if (tokens.length !== group.length) return;
    group.forEach(({ slot, ink }, k) => {
      const token = tokens[k] ?? "";
      const text =
        slot.kind === "index"
          ? indexTitle(token, ink)
          : slot.kind === "axis"
            ? axisReading(token, slot.expect)
            : badgeCount(token);
      if (text === undefined && slot.kind === "badge" && group.length === 1)
        retry.push({ ink, over: [], at: ink });
      if (text === undefined) return;
      out.push(lineAt(text, r.conf, ink, detail));
    });
  });
  const letters = await plateLetters(
    retry.map((t) => t.ink),
    (pairs) => {
      const again = glyphCanvas(detail, pairs);
      return read(again.canvas, again.cells);
    },
  );
  retry.forEach(({ over, at }, k) => {
    const l = letters[k];
    if (!l || over.some((o) => o.conf > l.conf && o.text !== l.text)) return;
    out.push(lineAt(l.text, l.conf, at, detail));
    for (const o of over) drop.add(o);
  });
  return { add: out, drop };
}

/**
 * Slots of a section index: lone letters (and `#`) in one column along the trailing edge, at least four,
 * spaced by whole multiples of one pitch (UITableView spaces its index titles evenly). Slots are the
 * missing multiples between them and up to `INDEX_EXTEND` pitches past each end.
 */
export function indexSlots(lines: readonly TextLine[], detail: RgbImage): Slot[] {
  const W = detail.width;
  const H = detail.height;
  const lone = lines
    .filter((l) => /^[\p{L}#＃]$/u.test(l.text) && (l.box[0] + l.box[2]) / 2 >= INDEX_MIN_CX)
    .map((l) => ({
      cx: ((l.box[0] + l.box[2]) / 2) * W,
      cy: ((l.box[1] + l.box[3]) / 2) * H,
      x0: l.box[0] * W,
      x1: l.box[2] * W,
      h: (l.box[3] - l.box[1]) * H,
    }));
  if (lone.length < 4) return [];
  const hs = lone.map((l) => l.h).sort((a, b) => a - b);
  const h = hs[Math.floor(hs.length / 2)] ?? 0;
  const cxs = lone.map((l) => l.cx).sort((a, b) => a - b);
  const cx = cxs[Math.floor(cxs.length / 2)] ?? 0;
  const column = lone.filter((l) => Math.abs(l.cx - cx) <= 0.6 * h).sort((a, b) => a.cy - b.cy);
  if (column.length < 4) return [];
  const gaps = column.slice(1).map((l, i) => l.cy - (column[i]?.cy ?? 0));
  // The pitch: each gap's whole number of steps counted against the smallest gap, then the column's
  // span over that count. OCR boxes jitter by a pixel or so at any scale, so the smallest gap alone
  // undershoots the pitch, by more the smaller the screenshot (a 1× or halved copy: a 13–19 px pitch),
  // and a gap of three pitches then reads as 3.3.
  const least = Math.min(...gaps.filter((g) => g > h));
  if (!Number.isFinite(least) || least > 3 * h) return [];
  const steps = gaps.reduce((n, g) => n + Math.max(1, Math.round(g / least)), 0);
  const pitch = ((column[column.length - 1]?.cy ?? 0) - (column[0]?.cy ?? 0)) / steps;
  if (!(pitch > h) || pitch > 3 * h) return [];
  // Every gap a whole number of pitches: the column is one evenly spaced index, not lone letters.
  if (gaps.some((g) => Math.abs(g / pitch - Math.round(g / pitch)) > 0.2)) return [];
  const x0 = Math.max(0, Math.min(...column.map((l) => l.x0)) - 0.3 * h);
  const x1 = Math.min(W, Math.max(...column.map((l) => l.x1)) + 0.3 * h);
  const at = (cy: number): Slot => ({
    kind: "index",
    box: { x0, x1, y0: cy - pitch / 2, y1: cy + pitch / 2, score: 1 },
  });
  const slots: Slot[] = [];
  const first = column[0]?.cy ?? 0;
  const last = column[column.length - 1]?.cy ?? 0;
  for (let k = INDEX_EXTEND; k >= 1; k--)
    if (first - k * pitch - pitch / 2 >= 0) slots.push(at(first - k * pitch));
  column.forEach((l, i) => {
    const next = column[i + 1];
    if (!next) return;
    const n = Math.round((next.cy - l.cy) / pitch);
    for (let j = 1; j < n; j++) slots.push(at(l.cy + ((next.cy - l.cy) * j) / n));
  });
  for (let k = 1; k <= INDEX_EXTEND; k++)
    if (last + k * pitch + pitch / 2 <= H) slots.push(at(last + k * pitch));
  return slots;
}

/**
 * The ink of one glyph in `box`: pixels differing from the box's border median by more than a third of
 * its largest difference (≥ 40 levels: text, not texture). Undefined when there is none, or when it
 * touches the box's top or bottom (the slot cuts something larger than a glyph).
 */
export function glyphInk(image: RgbImage, box: PixelBox, plate?: PixelBox): PixelBox | undefined {
  const g = greyCrop(image, box, 3, 3);
  if (!g || g.maxDiff < 40) return undefined;
  const t = Math.max(40, g.maxDiff / 3);
  let minX = g.w;
  let minY = g.h;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < g.h; y++)
    for (let x = 0; x < g.w; x++)
      if (
        Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t &&
        (!plate || inStadium(plate, g.x0 + x + 0.5, g.y0 + y + 0.5))
      ) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
  if (maxX < 0 || minY === 0 || maxY === g.h - 1) return undefined;
  return { x0: g.x0 + minX, y0: g.y0 + minY, x1: g.x0 + maxX + 1, y1: g.y0 + maxY + 1, score: 1 };
}

/**
 * A plate's rim as a share of its height: ink this near its box's outline may be the page showing at a
 * corner (the box comes from a 2-pixel scan grid, up to a cell off each side: ~6% of a 22 pt disc).
 */
const PLATE_RIM = 0.08;

/**
 * Whether pixel centre (x, y) lies in the stadium inscribed in the plate's box, its rim in from it.
 * A plate's corner radius is at most half its height (a capsule, a disc), so that stadium lies within
 * the fill whatever the radius: outside it a corner may show the page behind the plate.
 */
function inStadium(plate: PixelBox, x: number, y: number): boolean {
  const rim = Math.max(2, PLATE_RIM * (plate.y1 - plate.y0));
  const r = (plate.y1 - plate.y0) / 2 - rim;
  const cy = (plate.y0 + plate.y1) / 2;
  const cx = Math.min(Math.max(x, plate.x0 + rim + r), plate.x1 - rim - r);
  return r > 0 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The lines whose boxes (fractions) overlap the pixel box. */
function overlapping(b: PixelBox, lines: readonly TextLine[], image: RgbImage): TextLine[] {
  const [l, t, r, btm] = [b.x0 / image.width, b.y0 / image.height, b.x1 / image.width, b.y1 / image.height];
  return lines.filter(({ box }) => box[0] < r && l < box[2] && box[1] < btm && t < box[3]);
}

/** A line of one short word (≤ 6 characters, a plate's label) whose box's centre lies on the plate. */
function shortLineOn(line: TextLine, plate: PixelBox, image: RgbImage): boolean {
  const cx = ((line.box[0] + line.box[2]) / 2) * image.width;
  const cy = ((line.box[1] + line.box[3]) / 2) * image.height;
  return /^\S{1,6}$/u.test(line.text) && cx > plate.x0 && cx < plate.x1 && cy > plate.y0 && cy < plate.y1;
}

/**
 * Each group of glyphs as one line on a canvas of its own background: the glyphs side by side, bottoms
 * aligned (capitals and digits sit on the baseline), 1.6 of the tallest glyph’s height apart (wider than
 * a word space, so the recogniser separates them), with a margin of half that height above and below and
 * 0.6 at the ends (about what a detected word gets from the detector's unclip); lines stacked
 * vertically. `cells` are the lines' boxes on the canvas.
 */
export function glyphCanvas(
  image: RgbImage,
  groups: readonly (readonly PixelBox[])[],
): { canvas: RgbImage; cells: PixelBox[] } {
  const sizes = groups.map((g) => {
    const h = Math.max(...g.map((b) => b.y1 - b.y0));
    const gap = Math.ceil(1.6 * h);
    const my = Math.ceil(0.5 * h);
    const mx = Math.ceil(0.6 * h);
    const inner = g.reduce((a, b) => a + b.x1 - b.x0, 0) + gap * (g.length - 1);
    return { h, gap, my, mx, w: inner + 2 * mx, lineH: h + 2 * my };
  });
  const width = Math.max(...sizes.map((s) => s.w));
  const height = sizes.reduce((a, s) => a + s.lineH, 0);
  const data = Buffer.alloc(width * height * 3);
  const cells: PixelBox[] = [];
  let top = 0;
  groups.forEach((g, i) => {
    const s = sizes[i];
    if (!s) return;
    const bg = borderColour(image, g[0] ?? { x0: 0, y0: 0, x1: 1, y1: 1, score: 0 });
    for (let y = top; y < top + s.lineH; y++)
      for (let x = 0; x < width; x++) data.set(bg, (y * width + x) * 3);
    let left = s.mx;
    const baseline = top + s.my + s.h;
    for (const b of g) {
      const gh = b.y1 - b.y0;
      for (let y = b.y0; y < b.y1; y++)
        for (let x = b.x0; x < b.x1; x++) {
          const o = (y * image.width + x) * 3;
          const d = ((baseline - gh + y - b.y0) * width + left + x - b.x0) * 3;
          data[d] = image.data[o] ?? 0;
          data[d + 1] = image.data[o + 1] ?? 0;
          data[d + 2] = image.data[o + 2] ?? 0;
        }
      left += b.x1 - b.x0 + s.gap;
    }
    cells.push({ x0: 0, y0: top, x1: s.w, y1: top + s.lineH, score: 1 });
    top += s.lineH;
  });
  return { canvas: { width, height, channels: 3, data }, cells };
}

/** Median colour (per channel) of the one-pixel ring just outside `b`: the glyph's background. */
function borderColour(image: RgbImage, b: PixelBox): [number, number, number] {
  const ch: [number[], number[], number[]] = [[], [], []];
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
    const o = (y * image.width + x) * 3;
    for (let c = 0; c < 3; c++) ch[c as 0 | 1 | 2].push(image.data[o + c] ?? 0);
  };
  for (let x = b.x0 - 1; x <= b.x1; x++) {
    add(x, b.y0 - 1);
    add(x, b.y1);
  }
  for (let y = b.y0; y < b.y1; y++) {
    add(b.x0 - 1, y);
    add(b.x1, y);
  }
  const med = (v: number[]) => v.sort((p, q) => p - q)[Math.floor(v.length / 2)] ?? 0;
  return [med(ch[0]), med(ch[1]), med(ch[2])];
}

/**
 * A section-index title from a slot's reading: one letter or `#` (the full-width `＃` the recogniser
 * often gives). A bar (`1`, `l`, `|`, `i`, `!`) whose ink is a plain upright stroke is `I`: index titles
 * are capitals, and SF Pro's capital I is a bare stem.
 */
function indexTitle(text: string, ink: PixelBox): string | undefined {
  const t = text.trim().replace("＃", "#");
  if (/^[1l|i!]$/.test(t) && ink.x1 - ink.x0 <= 0.35 * (ink.y1 - ink.y0)) return "I";
  // SF Pro draws c o s v w x z as the capital's shape, smaller; in a column of capitals it is the capital.
  if (/^[cosvwxz]$/.test(t)) return t.toUpperCase();
  return /^[\p{L}#]$/u.test(t) ? t : undefined;
}

/** A line of `text` read at `conf` on the ink box `ink` of `detail`. */
function lineAt(text: string, conf: number, ink: PixelBox, detail: RgbImage): TextLine {
  return {
    text,
    conf,
    box: [ink.x0 / detail.width, ink.y0 / detail.height, ink.x1 / detail.width, ink.y1 / detail.height],
  };
}

/**
 * A plate's label reading (`plates.ts`) kept at `PLATE_CONF` or more: one word of one to six letters or
 * digits starting with a capital or a digit (`F`, `71A`, `U2`, `NATIVE`, `Live`, `12`, `99+`). A plate
 * holding a symbol (a settings row's icon, a button's glyph) reads as a letter at best weakly, or as
 * punctuation.
 */
function plateText(text: string, conf: number): string | undefined {
  const t = text.trim();
  return conf >= PLATE_CONF && /^[\p{Lu}\p{N}][\p{L}\p{N}]{0,5}\+?$/u.test(t) ? t : undefined;
}

/** A badge's count: one to three digits, maybe with a `+` (`99+`). */
function badgeCount(text: string): string | undefined {
  const t = text.trim();
  return /^\d{1,3}\+?$/.test(t) ? t : undefined;
}
