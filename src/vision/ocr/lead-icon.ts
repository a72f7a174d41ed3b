import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";
import { emHeight, reach } from "./split.js";

/**
 * An icon drawn just left of a label and read as the label's first character, then a space: a site's
 * favicon tile (`K kottke.org`), a car's tyre symbol (`0 Tires (psi)`), the location arrow (`1 Precise:
 * On`), a back triangle (`· 搜索`). The recogniser names the nearest character; the ink says whether the
 * glyph can be that character in this line's font. It is an icon when it is
 * - a letter or digit filling ≥ 80% of its box (letters are strokes: ≤ 0.6 measured on the real set);
 * - a letter or digit with more enclosed holes than the character has (`0` with two);
 * - read as a bar (`1`, `I`, `l`, `i`, `|`) but as wide as it is tall (a bar is under 0.6);
 * - taller than the character reaches by a fifth or more (SF Pro: capitals and digits 0.70 em,
 *   ascenders 0.74, x-height 0.53, descenders 0.20; the em from the line: `emHeight`);
 * - read as a dot (`·`, `.`, `•`) but over 0.45 em tall (a dot is ~0.12 em).
 */
export function leadingIcon(image: RgbImage, line: PixelBox, text: string, spaceX: number): boolean {
  const first = text[0] ?? "";
  if (text[1] !== " " || !/[\p{L}\p{N}]/u.test(text.slice(2))) return false;
  const dot = DOTS.has(first);
  if (!dot && !/^[\p{L}\p{N}]$/u.test(first)) return false;
  const lineHeight = line.y1 - line.y0;
  const g = glyphShape(image, { ...line, x1: spaceX }, lineHeight);
  // Wider than tall by half: two glyphs before the space (`© J`), not one icon (square-ish: 0.9–1.0).
  if (!g || g.aspect > 1.5) return false;
  const em = emHeight(text.slice(2), lineHeight);
  const tall = (g.height * lineHeight) / em;
  if (dot) return tall > 0.45;
  return (
    g.fill >= 0.8 ||
    g.holes > (HOLES.get(first) ?? 0) ||
    (BARS.has(first) && g.aspect >= 0.85) ||
    tall >= 1.2 * reach(first)
  );
}

const DOTS = new Set(["·", ".", "•", "‧"]);
const BARS = new Set(["1", "I", "l", "i", "|", "j", "!"]);
/** Enclosed counters of SF Pro's letters and digits (others have none); `g` may have two. */
const HOLES = new Map<string, number>([
  ..."0469ADOPQRabdeopq".split("").map((c) => [c, 1] as [string, number]),
  ..."8Bg".split("").map((c) => [c, 2] as [string, number]),
]);

/** Ink measures of a line's first glyph: how much of its box it fills, its width / height, its holes. */
interface GlyphShape {
  fill: number;
  aspect: number;
  holes: number;
  /** Its ink height over the line's. */
  height: number;
}

/**
 * The shape of the ink in `box` (the first glyph's slice of a line, image pixels): ink is what differs
 * from the slice's border median by more than a third of its largest difference (≥ 24 levels); holes
 * are background regions (4-connected) inside the ink's box that do not reach its edge. Undefined
 * without clear ink.
 */
function glyphShape(image: RgbImage, box: PixelBox, lineInkHeight: number): GlyphShape | undefined {
  const crop = greyCrop(image, box, 3, 3);
  if (!crop) return undefined;
  const { w, h, grey, bg, maxDiff } = crop;
  const threshold = Math.max(24, maxDiff / 3);
  if (maxDiff < threshold) return undefined;
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (Math.abs((grey[y * w + x] ?? 0) - bg) > threshold) {
        ink[y * w + x] = 1;
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return undefined;
  const bw = x1 - x0 + 1;
  const bh = y1 - y0 + 1;
  let count = 0;
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) count += ink[y * w + x] ?? 0;
  // Holes: flood the background from the box's edge; background left unreached is enclosed.
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const push = (x: number, y: number) => {
    const i = y * w + x;
    if (x < x0 || x > x1 || y < y0 || y > y1 || seen[i] || ink[i]) return;
    seen[i] = 1;
    stack.push(i);
  };
  /** Floods from what is on the stack; returns how many cells it filled. */
  const flood = (): number => {
    let size = 0;
    while (stack.length > 0) {
      const i = stack.pop() ?? 0;
      size++;
      const x = i % w;
      const y = (i - x) / w;
      push(x + 1, y);
      push(x - 1, y);
      push(x, y + 1);
      push(x, y - 1);
    }
    return size;
  };
  for (let x = x0; x <= x1; x++) {
    push(x, y0);
    push(x, y1);
  }
  for (let y = y0; y <= y1; y++) {
    push(x0, y);
    push(x1, y);
  }
  flood();
  let holes = 0;
  const minHole = Math.max(2, 0.01 * bw * bh);
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      if (seen[i] || ink[i]) continue;
      push(x, y);
      const size = flood();
      if (size >= minHole) holes++;
    }
  return { fill: count / (bw * bh), aspect: bw / bh, holes, height: bh / Math.max(1, lineInkHeight) };
}

/** Corner brackets: their corner is their box's top-left, always inked. */
const CORNER_OPENERS = new Set(["『", "「"]);
const HAN = /\p{Script=Han}/u;

/**
 * An icon just left of a Chinese label read as an opening corner bracket, with no space (`♪媒体` read
 * `『媒体`): the first character is `『` or `「` closed nowhere on the line and followed by an ideograph,
 * and the first glyph's ink (up to the first clear gap) leaves the top-left third of its box empty,
 * where a corner bracket draws its corner. Returns where that glyph ends (image x) for the caller to cut
 * it, or undefined.
 */
export function iconReadAsOpener(image: RgbImage, line: PixelBox, text: string): number | undefined {
  const first = text[0] ?? "";
  if (!CORNER_OPENERS.has(first) || !HAN.test(text[1] ?? "")) return undefined;
  if (text.includes(first === "『" ? "』" : first === "「" ? "」" : first === "（" ? "）" : ")"))
    return undefined;
  const crop = greyCrop(image, line, 6, 6);
  if (!crop || crop.maxDiff < 48) return undefined;
  const { w, h, grey, bg } = crop;
  const t = crop.maxDiff / 2;
  const inkAt = (x: number, y: number) => Math.abs((grey[y * w + x] ?? 0) - bg) > t;
  // The first glyph: from the first inked column to the first gap of ≥ 1/8 line height.
  const gap = Math.max(2, Math.round(h / 8));
  let x0 = -1;
  let x1 = -1;
  let blank = 0;
  for (let x = 0; x < w; x++) {
    let col = false;
    for (let y = 0; y < h && !col; y++) col = inkAt(x, y);
    if (col) {
      if (x0 < 0) x0 = x;
      x1 = x;
      blank = 0;
    } else if (x0 >= 0 && ++blank >= gap) break;
  }
  if (x0 < 0 || x1 - x0 < 2 || x1 >= w - gap) return undefined;
  let y0 = h;
  let y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = x0; x <= x1; x++)
      if (inkAt(x, y)) {
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  const qx = x0 + 0.35 * (x1 - x0 + 1);
  const qy = y0 + 0.35 * (y1 - y0 + 1);
  let corner = 0;
  for (let y = y0; y < qy; y++) for (let x = x0; x < qx; x++) if (inkAt(x, y)) corner++;
  return corner === 0 ? crop.x0 + x1 + 1 : undefined;
}
