import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";
import { emHeight, reach } from "./split.js";

/**
 * An icon drawn just left of a label and read as the label's first character, then a space: a site's
 * favicon tile (`K kottke.org`), a car's tyre symbol (`0 Tires (psi)`), the location arrow (`1 Precise:
 * On`), a back triangle (`· 搜索`). The recogniser names the nearest character; the ink says whether the
 * glyph can be that character in this line's font. It is an icon when it is
 * - a letter or digit filling ≥ 80% of its box (letters are strokes: ≤ 0.6 measured on the real set),
 *   but for a narrow bar (`STEM_ASPECT`), which is one stroke and fills its box;
 * - a letter or digit with more enclosed holes than the character has (`0` with two);
 * - read as a bar (`1`, `I`, `l`, `i`, `|`) but as wide as it is tall (a bar is under 0.6);
 * - taller than the character reaches by a fifth or more (SF Pro: capitals and digits 0.70 em,
 *   ascenders 0.74, x-height 0.53, descenders 0.20; the em from the line: `emHeight`);
 * - read as a dot (`·`, `.`, `•`) but over 0.45 em tall (a dot is ~0.12 em);
 * - reaching below the baseline of the text after it by `SINKS` em or more while the character it is
 *   read as stands on the baseline (`O Enable IPv6`'s radio circle, a favicon tile, a tyre): iOS centres
 *   a leading image on the text (UITableViewCell's imageView, an SF Symbol's image baseline; HIG, SF
 *   Symbols: a symbol's body is centred on the cap height, its taller parts overhang both ways), while a
 *   letter or digit ends at the baseline (overshoot ~0.01 em). The baseline and the em are measured on
 *   the rest of the line (`textBand`, three letters or digits at least: one glyph's bottom is no
 *   baseline): the line's own ink box holds the icon, so an em taken from it is inflated by the very
 *   thing being judged.
 * A symbol read before the space (`@`, `©`, `☆`: not a letter, digit, dash or bracket) is an icon on the
 * same ink tests but holes (a 16 pt app-icon tile read `@`: `@ Quickstart Audio…`).
 */
export function leadingIcon(image: RgbImage, line: PixelBox, text: string, spaceX: number): boolean {
  const first = text[0] ?? "";
  if (text[1] !== " " || !/[\p{L}\p{N}]/u.test(text.slice(2))) return false;
  const dot = DOTS.has(first);
  const symbol = !dot && SYMBOL.test(first);
  if (!dot && !symbol && !/^[\p{L}\p{N}]$/u.test(first)) return false;
  const lineHeight = line.y1 - line.y0;
  const g = glyphShape(image, { ...line, x1: spaceX }, lineHeight);
  // Wider than tall by half: two glyphs before the space (`© J`), not one icon (square-ish: 0.9–1.0).
  if (!g || g.aspect > 1.5) return false;
  const em = emHeight(text.slice(2), lineHeight);
  const tall = (g.height * lineHeight) / em;
  if (dot) return tall > 0.45;
  const band = textBand(image, line, spaceX, text.slice(2));
  // An ideograph's face sits ~0.1 em below the Latin baseline (PingFang), so only other glyphs are judged.
  const sinks =
    band !== undefined &&
    (text.slice(2).match(/[\p{L}\p{N}]/gu) ?? []).length >= 3 &&
    !DESCENDS.test(first) &&
    !CJK.test(first) &&
    g.bottom - band.baseline >= Math.max(SINKS * band.em, SINKS_PX);

  if (symbol) return g.fill >= 0.8 || sinks;
  // A bar's glyph is one stroke: it fills its box whatever it is, so a narrow one is judged by its
  // height and foot, not its fill (`I Don’t Know`, `I Agree`: SF Pro's I is a bare stem).
  const stem = BARS.has(first) && g.aspect <= STEM_ASPECT;
  return (
    (g.fill >= 0.8 && !stem) ||
    g.holes > (HOLES.get(first) ?? 0) ||
    (BARS.has(first) && g.aspect >= 0.85) ||
    (CHECK_READS.has(first) && g.leftTop >= CHECK_ARM) ||
    (ROUND_COUNTERS.has(first) && g.core >= CORE_INK) ||
    tall >= 1.2 * reach(first) ||
    sinks
  );
}

/**
 * A menu's check mark read as a letter (`V Favorites`): UIMenu and pull-down buttons set a ✓ (SF Symbol
 * `checkmark`, regular weight) before the chosen item's title. A check mark's short left arm starts
 * about halfway down its box (~0.45 of its height); a `V`'s two arms both start at the top (≤ 0.1,
 * anti-aliasing and serif-less SF Pro). So a `V`/`v` whose leftmost fifth has no ink in the top
 * `CHECK_ARM` of its height is the symbol.
 */
const CHECK_READS = new Set(["V", "v", "√", "✓", "✔"]);
const CHECK_ARM = 0.3;

/**
 * Round letters whose one counter spans the glyph's centre (SF Pro's `O 0 o D Q`: a closed bowl, no
 * bar or stroke crosses the middle; SF Pro's text zero is not slashed). A glyph read as one of them with
 * ink in its middle is a symbol in a circle or a ring (a tyre's `(!)`, ⓘ, a selected radio button, a
 * clock face: SF Symbols' `*.circle` family, which iOS sets before labels as cells' leading images).
 * The hole count tells that on a screenshot (`0` with two holes); a camera frame's blur closes the
 * small hole between the mark and the ring, and only the inked centre is left to tell.
 */
const ROUND_COUNTERS = new Set(["O", "0", "o", "D", "Q"]);
/**
 * Share of the glyph box's middle ninth (the centre third across and down) that must be ink. A round
 * letter's counter leaves it blank: at SF Pro's stroke of ~0.1 em, `0`'s counter is ~0.35 em wide, so
 * its middle third (~0.2 em) clears the stroke even blurred by σ ≈ 1 px on a 11 px em
 * (`rc-yattee-home-compact`'s `0 bookmarks` filmed: 0). A mark inside a ring (an `!`'s bar,
 * a radio button's dot) fills a fifth or more of it.
 */
const CORE_INK = 0.15;
/**
 * How far below the text's baseline, in ems, a leading glyph's ink must reach to be an image. A 20 pt
 * image centred on 17 pt text overhangs its baseline by ~0.2 em; the blur of a camera frame lowers a
 * glyph's measured bottom by about a pixel (≤ 0.06 em at 17 pt on the 585 px rectified screen).
 */
const SINKS = 0.12;
/**
 * And this many pixels: anti-aliasing and a camera frame's blur move an ink edge by up to two pixels
 * whatever the text size (a round `0`'s overshoot measured 2 px below the baseline on a filmed 11 px em).
 */
const SINKS_PX = 3;
/** Characters whose ink goes below the baseline (descenders, brackets, `@`, `$`, `Q`'s tail). */
const DESCENDS = /[gjpqyQ@$()[\]{}|,;/\\]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Symbols the recogniser names for an icon (not dashes, brackets, quotes or currency: text uses those). */
const SYMBOL = /^[\p{So}@]$/u;

/**
 * The rest of a line after `fromX` (image pixels): its ink's top and the baseline (the row most of its
 * inked columns end on: descenders are the few columns below it), and the em of `text` drawn there
 * (its ink height over how far its characters reach, `reach`). Undefined without clear ink.
 */
function textBand(
  image: RgbImage,
  line: PixelBox,
  fromX: number,
  text: string,
): { top: number; baseline: number; em: number } | undefined {
  const crop = greyCrop(image, { ...line, x0: fromX }, 3, 3);
  if (!crop) return undefined;
  const { w, h, grey, bg, maxDiff } = crop;
  const threshold = Math.max(24, maxDiff / 3);
  if (maxDiff < threshold) return undefined;
  let top = h;
  let bottom = -1;
  const columns: { high: number; low: number }[] = [];
  for (let x = 0; x < w; x++) {
    let high = -1;
    let low = -1;
    for (let y = 0; y < h; y++)
      if (Math.abs((grey[y * w + x] ?? 0) - bg) > threshold) {
        if (high < 0) high = y;
        top = Math.min(top, y);
        low = y;
      }
    if (low >= 0) columns.push({ high, low });
    bottom = Math.max(bottom, low);
  }
  if (columns.length < 3 || bottom <= top) return undefined;
  // Only columns crossing much of the band vote: a stem or a bowl's side. The columns under an `m`'s or
  // `n`'s arches hold only the arch's stroke, at the x-height: in `min` they outnumber the stems, and
  // the baseline came out at the x-height (`3 min` cut to `min`, its `3` taken for a sinking icon).
  const tall = columns.filter((c) => c.low - c.high >= STEM_SPAN * (bottom - top));
  const bottoms = (tall.length >= 3 ? tall : columns).map((c) => c.low);
  // The baseline: the row most columns end on (with the rows either side, for anti-aliasing); a median
  // would be pulled up by columns ending high (a `T`'s bar, an `r`'s arm, an `M`'s diagonals).
  const count = new Map<number, number>();
  for (const b of bottoms) count.set(b, (count.get(b) ?? 0) + 1);
  let baseline = bottom;
  let best = -1;
  for (const b of count.keys()) {
    const n = (count.get(b - 1) ?? 0) + (count.get(b) ?? 0) + (count.get(b + 1) ?? 0);
    if (n > best || (n === best && b > baseline)) {
      best = n;
      baseline = b;
    }
  }
  return { top: crop.y0 + top, baseline: crop.y0 + baseline, em: (bottom - top + 1) / reach(text) };
}

/** A column votes for the baseline when its ink spans this share of the text's ink height or more. */
const STEM_SPAN = 0.4;

const DOTS = new Set(["·", ".", "•", "‧"]);
const BARS = new Set(["1", "I", "l", "i", "|", "j", "!"]);
/**
 * Widest a bar's ink may be, as a share of its height, to count as a stem: SF Pro's I is ~0.08 em wide
 * by 0.70 em (0.11; regular to bold 0.1–0.2, blur adds a pixel each side); an icon read as a bar is
 * about as wide as tall (`BARS` ≥ 0.85 is an icon).
 */
const STEM_ASPECT = 0.35;
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
  /** Its ink's lowest row, image pixels. */
  bottom: number;
  /** The highest ink in its leftmost fifth of columns, as a share of its height down from its top. */
  leftTop: number;
  /** Share of the middle ninth of its box (centre third across and down) that is ink. */
  core: number;
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
  let leftTop = y1;
  for (let x = x0; x <= x0 + Math.floor((bw - 1) / 5); x++)
    for (let y = y0; y < leftTop; y++) if (ink[y * w + x]) leftTop = y;
  let core = 0;
  let cells = 0;
  for (let y = y0 + Math.ceil(bh / 3); y < y0 + Math.floor((2 * bh) / 3); y++)
    for (let x = x0 + Math.ceil(bw / 3); x < x0 + Math.floor((2 * bw) / 3); x++) {
      cells++;
      core += ink[y * w + x] ?? 0;
    }
  return {
    core: cells > 0 ? core / cells : 0,
    fill: count / (bw * bh),
    aspect: bw / bh,
    holes,
    height: bh / Math.max(1, lineInkHeight),
    bottom: crop.y0 + y1,
    leftTop: (leftTop - y0) / bh,
  };
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
  const run = firstInkRun(image, line);
  if (!run) return undefined;
  const { x0, x1, y0, y1, inkAt, crop } = run;
  const qx = x0 + 0.35 * (x1 - x0 + 1);
  const qy = y0 + 0.35 * (y1 - y0 + 1);
  let corner = 0;
  for (let y = y0; y < qy; y++) for (let x = x0; x < qx; x++) if (inkAt(x, y)) corner++;
  return corner === 0 ? crop.x0 + x1 + 1 : undefined;
}

/**
 * The first glyph of a line: from its first inked column to the first blank gap of ≥ 1/8 of the line's
 * height (crop pixels, inclusive), with its rows; undefined without clear ink or when it runs to the end.
 */
function firstInkRun(image: RgbImage, line: PixelBox) {
  const crop = greyCrop(image, line, 6, 6);
  if (!crop || crop.maxDiff < 48) return undefined;
  const { w, h, grey, bg } = crop;
  const t = crop.maxDiff / 2;
  const inkAt = (x: number, y: number) => Math.abs((grey[y * w + x] ?? 0) - bg) > t;
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
  return { x0, x1, y0, y1, inkAt, crop };
}

/**
 * An icon read as a symbol glued to the label after it, no space between (`☆276`: a star button's
 * count; `●原图`: a selected radio circle before its label). iOS sets a symbol and its count as an
 * image and a label side by side (a toolbar's like / boost / star counts), so the recogniser sees no
 * word gap; the glyph says which it is. The first character is a symbol (`So`) or a dot and the next a
 * digit or an ideograph; the first glyph (up to a clear gap) is an icon when it is taller than the
 * character can be in the text after it: over 0.45 em for a dot (a text bullet is ~0.3 em), 1.2 cap
 * heights (0.84 em) for another symbol (SF Pro draws `☆`, `△` within the cap height; the em from the
 * rest of the line, `textBand`). Returns where the glyph ends (image x) for the caller to cut it.
 */
export function gluedIcon(image: RgbImage, line: PixelBox, text: string): number | undefined {
  const first = text[0] ?? "";
  const dot = DOTS.has(first) || first === "●";
  if ((!dot && !/^\p{So}$/u.test(first)) || !/^[\p{Nd}\p{Script=Han}]/u.test(text.slice(1))) return undefined;
  const run = firstInkRun(image, line);
  if (!run) return undefined;
  const end = run.crop.x0 + run.x1 + 1;
  const band = textBand(image, line, end, text.slice(1));
  if (!band) return undefined;
  const tall = (run.y1 - run.y0 + 1) / band.em;
  return tall > (dot ? 0.45 : 0.84) ? end : undefined;
}
