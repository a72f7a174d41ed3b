import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";

/**
 * A circled button glued into the text line before it, found in the pixels. UIKit puts a cell's
 * accessory button right after its right-aligned detail text: Phone's Recents (`Yesterday ⓘ`, the
 * `.detailButton` accessory, SF Symbol `info.circle`), Wi-Fi networks, Contacts; a text field's clear
 * button `⊗` (`UITextField.clearButtonMode`) sits right after the typed text. The OCR detector boxes
 * text and glyph as one line, and the recogniser often reads only the words (it has no `ⓘ`; when it
 * reads `①`, `info-glyph.ts` splits the row by its label). The glyph's ink then lies inside a text
 * row, so no proposer looks at it and the button gets no row.
 *
 * Read in the pixels of each text row: the ink's columns, the last run of them after a gap as wide as a
 * word space, and whether that run is a circle — ink all round a ring, none at the corners of its
 * square box — at least as tall as the words' ink (`info.circle` and `xmark.circle.fill` at a cell's
 * text size are ~1.2 em; a letter `O` or digit `0` is cap-height, shorter than the ascender and
 * descender of the words before it, and narrower than tall). Such a run becomes an `[icon]` row
 * (named by shape later, `icon-shapes.ts`) and the text row ends before it; a detector box that only
 * joined the two gives way.
 */

/** A pixel is ink when its luma differs from the row's background by more than this share of the row's
 * largest difference (and at least `MIN_INK` levels): anti-aliased edges count, blur does not merge. */
const INK_SHARE = 0.4;
const MIN_INK = 30;
/** The gap before the glyph, in glyph heights: a word space is ~0.25 em, the cell's spacing before its
 * accessory 8 pt (~0.4 of a 22 pt glyph). Letters of one word are ~0.1 em apart. */
const MIN_GAP = 0.2;
/** A circle's box is square (the ink's aspect through anti-aliasing and JPEG within this). */
const SQUARE = [0.8, 1.25] as const;
/** The glyph is at least this tall against the words' ink (ascender to descender): a circled symbol is
 * set larger than the text it follows; a letter or digit is not. */
const TALLER = 1.05;
/** Ring samples: of `RAYS` rays from the centre, this many cross ink between 0.7 and 1.05 radii. */
const RAYS = 24;
const RING_HITS = 21;
/** Smallest glyph, in pixels: below this a circle cannot be told from a letter. */
const MIN_PX = 8;
/** Ring labels the recogniser may have read off the glyph (`O`, `0`, `©`, `@`): cut from the label. */
const RING_READS = /\s+[Oo0©®@○◯⊗⊕⓪]$/u;

/**
 * A star the recogniser read after a space at a line's end (`18 min ★`, `6:59 ☆`): SF Symbols' `star` /
 * `star.fill`, the favourite button apps put right after a row's trailing text. A UI string never ends
 * in a typed star, so the reading alone says the last ink run is that button, ring or not.
 */
const STAR_READS = /\s+[★☆]$/u;

/** `rows` with each circled glyph at a text row's end split off as an `[icon]` row (see the module comment). */
export function splitTrailingGlyphs(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  const joins: { glyph: FracBox; text: FracBox }[] = [];
  for (const r of rows) {
    const words = r.kind === "text" && [...r.label.replace(/\s/gu, "")].length >= 2;
    const star = words && STAR_READS.test(r.label);
    const g = words ? trailingCircle(screen, r.box, star) : null;
    if (!g) {
      out.push(r);
      continue;
    }
    out.push({ ...r, label: r.label.replace(star ? STAR_READS : RING_READS, ""), box: g.text });
    out.push({ kind: "icon", label: "", box: g.glyph, conf: r.conf });
    joins.push(g);
  }
  // A detector box over both the words and the glyph boxed the pair, not a control of its own.
  return out.filter(
    (r) => r.kind !== "icon" || !joins.some((j) => covers(r.box, j.glyph) && covers(r.box, j.text, 0.5)),
  );
}

/**
 * The circled glyph at the end of text box `box`, and the text's box without it; null when none. With
 * `star` (the recogniser read a star there) the glyph need be no ring nor taller than the words.
 */
function trailingCircle(
  screen: RgbImage,
  box: FracBox,
  star = false,
): { glyph: FracBox; text: FracBox } | null {
  const { width: W, height: H } = screen;
  const x0 = Math.max(0, Math.floor(box[0] * W));
  const x1 = Math.min(W, Math.ceil(box[2] * W));
  const y0 = Math.max(0, Math.floor(box[1] * H));
  const y1 = Math.min(H, Math.ceil(box[3] * H));
  const w = x1 - x0;
  const h = y1 - y0;
  if (h < MIN_PX || w < 3 * h) return null;
  const luma = (x: number, y: number): number => {
    const i = (y * W + x) * 3;
    const d = screen.data;
    return 0.299 * (d[i] ?? 0) + 0.587 * (d[i + 1] ?? 0) + 0.114 * (d[i + 2] ?? 0);
  };
  // Background: the mean of the box's top and bottom pixel rows (a text box's margin is the cell's fill).
  let bg = 0;
  for (let x = x0; x < x1; x++) bg += luma(x, y0) + luma(x, y1 - 1);
  bg /= 2 * w;
  // A star's ink is measured against its own contrast (a tinted outline beside black words): the peak is
  // taken over the box's last 1.5 heights only.
  let peak = 0;
  for (let y = y0; y < y1; y++)
    for (let x = star ? Math.max(x0, x1 - Math.round(1.5 * h)) : x0; x < x1; x++)
      peak = Math.max(peak, Math.abs(luma(x, y) - bg));
  const t = Math.max(MIN_INK, INK_SHARE * peak);
  const ink = new Uint8Array(w * h);
  const cols = new Uint16Array(w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (Math.abs(luma(x0 + x, y0 + y) - bg) > t) {
        ink[y * w + x] = 1;
        cols[x] = (cols[x] ?? 0) + 1;
      }
  // The last run of ink columns and the gap before it.
  let end = w - 1;
  while (end >= 0 && !cols[end]) end--;
  let start = end;
  while (start > 0 && cols[start - 1]) start--;
  let restEnd = start - 1;
  while (restEnd >= 0 && !cols[restEnd]) restEnd--;
  if (end < 0 || restEnd < 0) return null;
  const rows = (a: number, b: number): [number, number] => {
    let top = h;
    let bottom = -1;
    for (let y = 0; y < h; y++)
      for (let x = a; x <= b; x++)
        if (ink[y * w + x]) {
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
        }
    return [top, bottom];
  };
  const [gt, gb] = rows(start, end);
  const gw = end - start + 1;
  const gh = gb - gt + 1;
  if (gh < MIN_PX || gw / gh < (SQUARE[0] as number) || gw / gh > (SQUARE[1] as number)) return null;
  if (start - restEnd - 1 < MIN_GAP * gh || restEnd + 1 < gh) return null;
  const [rt, rb] = rows(0, restEnd);
  if (!star && (gh < TALLER * (rb - rt + 1) || !isRing(ink, w, start, gt, gw, gh))) return null;
  const fx = (x: number): number => (x0 + x) / W;
  const fy = (y: number): number => (y0 + y) / H;
  return {
    glyph: [fx(start), fy(gt), fx(end + 1), fy(gb + 1)],
    text: [box[0], box[1], fx(restEnd + 1 + Math.round((start - restEnd) / 4)), box[3]],
  };
}

/** Ink all round a ring in the `gw`×`gh` box at (`gx`, `gy`) and none at its corners: a circle's outline or disc. */
function isRing(ink: Uint8Array, w: number, gx: number, gy: number, gw: number, gh: number): boolean {
  const cx = gx + gw / 2;
  const cy = gy + gh / 2;
  const r = (gw + gh) / 4;
  const at = (x: number, y: number): boolean => ink[Math.floor(y) * w + Math.floor(x)] === 1;
  let hits = 0;
  for (let k = 0; k < RAYS; k++) {
    const a = (2 * Math.PI * k) / RAYS;
    for (let f = 0.7; f <= 1.05; f += 0.05) {
      const x = cx + Math.cos(a) * r * f;
      const y = cy + Math.sin(a) * r * f;
      if (x >= gx && x < gx + gw && y >= gy && y < gy + gh && at(x, y)) {
        hits++;
        break;
      }
    }
  }
  if (hits < RING_HITS) return false;
  // The box's corners lie 1.41 radii out: a circle leaves them empty, a square or a letter's serif not.
  for (const [sx, sy] of [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ] as const)
    if (at(cx + sx * r * 0.92, cy + sy * r * 0.92)) return false;
  return true;
}

/** Whether `outer` covers at least `share` of `inner`'s area. */
function covers(outer: FracBox, inner: FracBox, share = 0.8): boolean {
  const w = Math.min(outer[2], inner[2]) - Math.max(outer[0], inner[0]);
  const h = Math.min(outer[3], inner[3]) - Math.max(outer[1], inner[1]);
  const a = (inner[2] - inner[0]) * (inner[3] - inner[1]);
  return w > 0 && h > 0 && a > 0 && w * h >= share * a;
}
