import type { RgbImage } from "../../shared/image.js";
import type { TextLine } from "../types.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";

/**
 * Lines of code that hold only a brace (`{`, `}`, `},`). Pretty-printed JSON and C-like code put
 * a block's opening or closing brace on a line of its own; on a code screen such a line is real text a
 * reader copies. The text detector misses them (one or two narrow glyphs cover 3–5 pixels of the 320 px
 * map), PP-OCRv4 does not read a lone brace, and a reading without a letter or digit is dropped
 * everywhere else as an icon's or a page indicator's marks. Both are answered from the layout and the
 * ink: a code view sets its lines at one fixed line height (a text view: every line `lineHeight`
 * apart), so where the lines of a code block skip a whole pitch — or one pitch before its first line and
 * after its last — a line is expected; the ink in such a slot, when it is one short glyph group at the
 * block's left edge shaped as a brace (maybe with a comma), is that line (`bracketsFromInk`). No code
 * lines, no slots: other screens pay nothing. Square brackets and `);` are not told from their ink yet.
 */

/** A line that is code: a JSON key (`"name" :`), an escaped newline, a call, an assignment or a `;` end. */
const CODE_LINE = /"\s*[:：]|\\n|\w\(.*\)|\s=\s|;$/u;
/** Code lines needed on a screen before its gaps are read: one such line may be prose. */
const MIN_CODE_LINES = 3;
/** Slots looked at per screen at most. */
const MAX_SLOTS = 8;
/** Gaps of up to this many pitches are filled (a longer gap is a break in the block, not lines). */
const MAX_PITCHES = 3;
/** How far (a fraction of its width) a brace's middle must stand off its ends' to be one. */
const NIB = 0.2;
/** How far (a fraction of its width) the middle must stand off the stroke at 30% and 70% of its height. */
const POINT = 0.1;

interface Row {
  cy: number;
  h: number;
  x0: number;
}

/**
 * Bracket-only lines found in the code block's empty line slots of `detail` (boxes as fractions), none
 * overlapping `lines`.
 */
export function codeBrackets(lines: readonly TextLine[], detail: RgbImage): TextLine[] {
  const slots = codeSlots(lines, detail);
  if (slots.length === 0) return [];
  const found: PixelBox[] = [];
  for (const slot of slots) {
    const ink = slotInk(detail, slot);
    if (!ink) continue;
    const h = ink.y1 - ink.y0;
    // One short group (`}`, `},`), about a line's height, starting near the block's left edge.
    if (h < 0.5 * slot.h || h > 1.3 * slot.h || ink.x1 - ink.x0 > 3 * slot.h) continue;
    if (ink.x0 > slot.left + 4 * slot.h || overlaps(ink, lines, detail)) continue;
    found.push(ink);
    if (found.length >= MAX_SLOTS) break;
  }
  if (found.length === 0) return [];
  const out: TextLine[] = [];
  for (const ink of found) {
    const text = bracketsFromInk(detail, ink);
    if (text === undefined) continue;
    out.push({
      text,
      conf: 1,
      box: [ink.x0 / detail.width, ink.y0 / detail.height, ink.x1 / detail.width, ink.y1 / detail.height],
    });
  }
  return out;
}

/** An expected line of the code block: where to look (pixels), the block's line height and left edge. */
interface CodeSlot {
  box: PixelBox;
  h: number;
  left: number;
}

/**
 * Empty line slots of the screen's code block: rows (lines on one level merged) from the block's first
 * to its last code line, their pitch the smallest gap between neighbouring rows; a slot wherever two
 * rows lie a whole 2–`MAX_PITCHES` pitches apart, and one pitch before the first and after the last row.
 */
export function codeSlots(lines: readonly TextLine[], detail: RgbImage): CodeSlot[] {
  const W = detail.width;
  const H = detail.height;
  const px = lines.map((l) => ({
    code: CODE_LINE.test(l.text),
    cy: ((l.box[1] + l.box[3]) / 2) * H,
    h: (l.box[3] - l.box[1]) * H,
    x0: l.box[0] * W,
  }));
  const code = px.filter((l) => l.code);
  if (code.length < MIN_CODE_LINES) return [];
  const hs = code.map((l) => l.h).sort((a, b) => a - b);
  const h = hs[Math.floor(hs.length / 2)] ?? 0;
  const left = Math.min(...code.map((l) => l.x0));
  const top = Math.min(...code.map((l) => l.cy));
  const bottom = Math.max(...code.map((l) => l.cy));
  // The block's rows: every line starting in its left part between its first and last code line.
  const rows: Row[] = [];
  for (const l of px
    .filter((l) => l.cy >= top - 0.5 * h && l.cy <= bottom + 0.5 * h && l.x0 <= left + 8 * h)
    .sort((a, b) => a.cy - b.cy)) {
    const last = rows[rows.length - 1];
    if (last && l.cy - last.cy < 0.5 * h) continue;
    rows.push({ cy: l.cy, h: l.h, x0: l.x0 });
  }
  const gaps = rows.slice(1).map((r, i) => r.cy - (rows[i]?.cy ?? 0));
  const pitch = Math.min(...gaps.filter((g) => g >= 0.8 * h));
  if (!Number.isFinite(pitch) || pitch > 2.5 * h) return [];
  const at = (cy: number): CodeSlot => ({
    box: {
      x0: Math.max(0, left - 0.3 * h),
      x1: Math.min(W, left + 6 * h),
      y0: cy - pitch / 2,
      y1: cy + pitch / 2,
      score: 1,
    },
    h,
    left,
  });
  const slots: CodeSlot[] = [];
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first && first.cy - 1.5 * pitch >= 0) slots.push(at(first.cy - pitch));
  rows.forEach((r, i) => {
    const next = rows[i + 1];
    if (!next) return;
    const n = Math.round((next.cy - r.cy) / pitch);
    if (n < 2 || n > MAX_PITCHES || Math.abs((next.cy - r.cy) / pitch - n) > 0.25) return;
    for (let j = 1; j < n; j++) slots.push(at(r.cy + ((next.cy - r.cy) * j) / n));
  });
  if (last && last.cy + 1.5 * pitch <= H) slots.push(at(last.cy + pitch));
  return slots;
}

/**
 * The ink of the slot's line: the run of inked rows nearest the slot's centre (within half a pitch),
 * looked for over a pitch either side (a brace reaches from the ascender to below the baseline, past
 * the slot's own band), bounded by blank rows on both sides; its columns' extent. Ink is what differs
 * from the window's border median by more than a third of the largest difference (≥ 40 levels).
 * Undefined when there is none or it runs into the window's top or bottom.
 */
function slotInk(image: RgbImage, slot: CodeSlot): PixelBox | undefined {
  const { box } = slot;
  const pitch = box.y1 - box.y0;
  const cy = (box.y0 + box.y1) / 2;
  const g = greyCrop(image, { ...box, y0: cy - pitch, y1: cy + pitch }, 3, 3);
  if (!g || g.maxDiff < 40) return undefined;
  const t = Math.max(40, g.maxDiff / 3);
  const inked = (x: number, y: number) => Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t;
  const rowInk = (y: number) => {
    for (let x = 0; x < g.w; x++) if (inked(x, y)) return true;
    return false;
  };
  const mid = Math.round(cy - g.y0);
  let seed = -1;
  for (let d = 0; d <= pitch / 2 && seed < 0; d++)
    for (const y of [mid - d, mid + d]) if (y >= 0 && y < g.h && rowInk(y)) seed = y;
  if (seed < 0) return undefined;
  let y0 = seed;
  let y1 = seed;
  while (y0 > 0 && rowInk(y0 - 1)) y0--;
  while (y1 < g.h - 1 && rowInk(y1 + 1)) y1++;
  if (y0 === 0 || y1 === g.h - 1) return undefined;
  let x0 = g.w;
  let x1 = -1;
  for (let y = y0; y <= y1; y++)
    for (let x = 0; x < g.w; x++)
      if (inked(x, y)) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
      }
  if (x1 < 0 || x0 === 0 || x1 === g.w - 1) return undefined;
  return { x0: g.x0 + x0, y0: g.y0 + y0, x1: g.x0 + x1 + 1, y1: g.y0 + y1 + 1, score: 1 };
}

/**
 * `{`, `}`, `{,`… `},` from the ink of a slot's line (`ink`, from `slotInk`), or undefined when it is not
 * one brace and maybe a comma. PP-OCRv4 does not read a lone brace (its readings of these slots were
 * `y`, `l`, `3`, `x` at 0.1–0.4 on the dev set's JSON), so the shape decides: SF Pro's and Menlo's
 * braces are a thin upright stroke whose middle (the nib) points away from the arms' ends — left of
 * them in `{`, right in `}` — by about half the glyph's width (seen on the real set's JSON preview:
 * 4–5 px of a 10 px brace on a 3× screenshot, 2 px of a 5 px one on a camera frame). The offset is
 * measured on grey-weighted row centres (a camera frame blurs the nib into a sub-pixel shift). A
 * trailing comma is a second, small ink group below the brace's middle.
 */
export function bracketsFromInk(image: RgbImage, ink: PixelBox): string | undefined {
  const g = greyCrop(image, { ...ink, x0: ink.x0 - 1, x1: ink.x1 + 1, y0: ink.y0 - 1, y1: ink.y1 + 1 }, 3, 3);
  if (!g || g.maxDiff < 40) return undefined;
  const t = Math.max(40, g.maxDiff / 3);
  const d = (x: number, y: number) => Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg);
  // Ink groups by columns (the brace, then maybe a comma).
  const groups: { x0: number; x1: number }[] = [];
  for (let x = 0; x < g.w; x++) {
    let any = false;
    for (let y = 0; y < g.h && !any; y++) any = d(x, y) > t;
    const last = groups[groups.length - 1];
    if (any && last && last.x1 === x - 1) last.x1 = x;
    else if (any) groups.push({ x0: x, x1: x });
  }
  const brace = groups[0];
  const comma = groups[1];
  if (!brace || groups.length > 2) return undefined;
  const rows = (gx0: number, gx1: number) => {
    let top = -1;
    let bottom = -1;
    for (let y = 0; y < g.h; y++)
      for (let x = gx0; x <= gx1; x++)
        if (d(x, y) > t) {
          if (top < 0) top = y;
          bottom = y;
        }
    return { top, bottom };
  };
  const { top, bottom } = rows(brace.x0, brace.x1);
  const h = bottom - top + 1;
  const w = brace.x1 - brace.x0 + 1;
  if (h < 6 || w > 0.6 * h) return undefined;
  let trailing = "";
  if (comma) {
    const c = rows(comma.x0, comma.x1);
    // A comma hangs from the baseline: it starts below the brace's middle and is short.
    if (c.top < top + 0.5 * h || c.bottom - c.top + 1 > 0.45 * h) return undefined;
    trailing = ",";
  }
  const centre = (y: number) => {
    let sw = 0;
    let sx = 0;
    for (let x = brace.x0; x <= brace.x1; x++) {
      const v = Math.max(0, d(x, y) - t / 2);
      sw += v;
      sx += v * x;
    }
    return sw > 0 ? sx / sw : undefined;
  };
  const mean = (from: number, to: number) => {
    const v: number[] = [];
    for (let y = top + Math.round(from * (h - 1)); y <= top + Math.round(to * (h - 1)); y++) {
      const c = centre(y);
      if (c !== undefined) v.push(c);
    }
    return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : undefined;
  };
  const mid = mean(0.4, 0.6);
  const upper = mean(0, 0.2);
  const lower = mean(0.8, 1);
  if (mid === undefined || upper === undefined || lower === undefined) return undefined;
  // The nib against the arms' ends, and against the stroke just above and below it: a square bracket's
  // serifs move the first like a brace's arms, but its stem runs straight past the middle.
  const nib = mid - (upper + lower) / 2;
  const inner0 = mean(0.25, 0.35);
  const inner1 = mean(0.65, 0.75);
  const near = mean(0.45, 0.55);
  if (inner0 === undefined || inner1 === undefined || near === undefined) return undefined;
  const point = near - (inner0 + inner1) / 2;
  if (nib <= -NIB * w && point <= -POINT * w) return `{${trailing}`;
  if (nib >= NIB * w && point >= POINT * w) return `}${trailing}`;
  return undefined;
}

/** Whether the pixel box overlaps any line's box (fractions). */
function overlaps(b: PixelBox, lines: readonly TextLine[], image: RgbImage): boolean {
  const [l, t, r, btm] = [b.x0 / image.width, b.y0 / image.height, b.x1 / image.width, b.y1 / image.height];
  return lines.some(({ box }) => box[0] < r && l < box[2] && box[1] < btm && t < box[3]);
}
