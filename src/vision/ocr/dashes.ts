import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { type GreyCrop, greyCrop, labelInk } from "./ink.js";

/**
 * Dashes and minus signs from their ink. The recogniser tells a bar's length poorly: its dictionary
 * has `-`, `－` and `—` but no en dash `–` (U+2013), it reads SF Pro's em dash before Chinese as the
 * ideograph `一` (`TubeCast 一 你的`), and a minus at the very left of a short crop as `1` (`-0` → `10`)
 * or not at all (`-53:37` → `53:37`). The glyphs differ plainly in the image: a dash is a lone flat
 * bar in the middle band of the line, and its length says which dash it is.
 *
 * Lengths, as a fraction of the line's ink height (SF Pro / PingFang at one size: the hyphen's ink is
 * ≈ 0.3 em, the en dash's ≈ 0.5 em, the em dash's ≈ 0.85 em; the line's ink height is 0.7 em for
 * capitals and digits, ≈ 0.95 em with ascenders, descenders or ideographs). Measured on the real
 * development set's spaced dashes (screenshots): hyphens 0.30–0.42 (`Ice Cube - Light`, `李 茂峰 -
 * limaofeng`), en dashes 0.57–0.59 (`Name (optional – uses`, `简体中文 – 拼音`), em dashes 0.87–0.89
 * (`memes — and`, `TubeCast — 你的`).
 */

/** Bar length / line ink height from which a dash is an en dash (below: a hyphen). */
export const EN_DASH_MIN = 0.48;
/** Bar length / line ink height from which a dash is an em dash. */
export const EM_DASH_MIN = 0.75;

/** An ink component's bounds, image pixels, inclusive. */
export interface InkComponent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The 8-connected ink components inside `line` (image pixels), left to right: ink is what differs from the median grey
 * of the box's border by more than half the box's largest difference (at least 48 levels of contrast
 * needed; otherwise none).
 */
export function inkComponents(image: RgbImage, line: PixelBox): InkComponent[] {
  const crop = greyCrop(image, line, 3, 4);
  if (!crop) return [];
  if (crop.maxDiff < 48) return [];
  const { x0, y0 } = crop;
  const out = labelInk(crop, crop.maxDiff / 2).comps.map((c) => ({
    x0: x0 + c.x0,
    y0: y0 + c.y0,
    x1: x0 + c.x1,
    y1: y0 + c.y1,
  }));
  return out.sort((a, b) => a.x0 - b.x0);
}

/**
 * Whether `c` is a dash or minus on a line whose ink spans rows `top`…`bottom`: at most a quarter of the
 * line tall, at least twice as long as thick, at most 1.2 line heights long (longer is a rule, not a
 * glyph), and centred in the line's middle band (30–80% down: a dash sits at the x-height's middle, an
 * underscore or an overline does not).
 */
export function isBar(c: InkComponent, top: number, bottom: number): boolean {
  const lineH = bottom - top + 1;
  const h = c.y1 - c.y0 + 1;
  const w = c.x1 - c.x0 + 1;
  const mid = ((c.y0 + c.y1) / 2 - top) / lineH;
  return h <= 0.25 * lineH && w >= 2 * h && w <= 1.2 * lineH && mid > 0.3 && mid < 0.8;
}

/** Characters the recogniser gives a dash: hyphen-minus, full-width hyphen, em dash, and `一` by it. */
const DASH_LIKE = new Set(["-", "－", "—", "–", "一"]);
const LATIN_LETTER = /\p{Script=Latin}/u;
const DIGIT = /\p{N}/u;

/**
 * Whether the character at `i` of `text` is worth measuring as a dash: `-`, `－`, `—` anywhere except
 * inside a Latin word (`widgets-for`: a hyphen by spelling) and as a minus before a digit at a word's
 * start; `一` only beside a space or a Latin letter or digit (between ideographs it is the word `一`).
 */
export function dashCandidate(text: string, i: number): boolean {
  const c = text[i] ?? "";
  if (!DASH_LIKE.has(c)) return false;
  const prev = text[i - 1] ?? "";
  const next = text[i + 1] ?? "";
  if (c === "一") return [prev, next].some((n) => n === " " || LATIN_LETTER.test(n) || DIGIT.test(n));
  if (LATIN_LETTER.test(prev) && LATIN_LETTER.test(next)) return false;
  return !((prev === "" || prev === " ") && DIGIT.test(next));
}

/** The rows the line's ink spans (its components' union), image pixels. */
function inkRows(comps: readonly InkComponent[]): { top: number; bottom: number } {
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const c of comps) {
    top = Math.min(top, c.y0);
    bottom = Math.max(bottom, c.y1);
  }
  return { top, bottom };
}

/** The dash a bar `length` px long is on a line `lineH` px tall (ink). */
export function dashForLength(length: number, lineH: number): string {
  const r = length / lineH;
  return r >= EM_DASH_MIN ? "—" : r >= EN_DASH_MIN ? "–" : "-";
}

/**
 * A digit's ink height in ems: SF Pro's and PingFang's lining figures stand at cap height (0.705 em;
 * Noto Sans 0.76 with its overshoot). A dash between two numbers is measured against them, not the
 * line: a range line's ink may hold ideographs and descenders (`正常: 53.4–72.3 kg`: ~1.05 em), which
 * made an en dash 0.47 of it, under `EN_DASH_MIN`.
 */
const DIGIT_EM = 0.72;
/** Bar length in ems from which a dash between numbers is an en dash (SF Pro: hyphen ~0.3, en ~0.5). */
const RANGE_EN_MIN = 0.4;
/** …and an em dash (SF Pro ~1.0 em; Noto 0.8). */
const RANGE_EM_MIN = 0.72;
/** Within this many ems of a threshold the measurement is not trusted: the dash stays as read. */
const RANGE_MARGIN = 0.03;

/**
 * The width at half maximum of a contrast profile around its peak, sub-pixel (linear between the samples
 * either side of each half-maximum crossing; a profile that never falls to half counts to its ends).
 */
export function halfPeakWidth(profile: readonly number[]): number {
  let peak = 0;
  for (let i = 1; i < profile.length; i++) if ((profile[i] ?? 0) > (profile[peak] ?? 0)) peak = i;
  const v = (i: number) => profile[i] ?? 0;
  const half = v(peak) / 2;
  let a = peak;
  while (a > 0 && v(a - 1) >= half) a--;
  let b = peak;
  while (b < profile.length - 1 && v(b + 1) >= half) b++;
  // The crossing lies between the last sample at or above half and the first below it.
  const left = a > 0 ? (v(a) - half) / (v(a) - v(a - 1)) : 0;
  const right = b < profile.length - 1 ? (v(b) - half) / (v(b) - v(b + 1)) : 0;
  return b - a + left + right;
}

/**
 * A glyph's extent along one axis measured against its own contrast (`halfPeakWidth` of the largest
 * contrast to the crop's background per column, `axis` "x", or per row, "y", over `box`, image pixels).
 * A camera's blur spreads a 1–2 px stroke and lowers its peak: counted at half the line's strongest
 * contrast (`inkComponents`), a thin dash loses its ends while a digit's long stems keep their height
 * (`正常: 53.4–72.3 kg` filmed: the en dash 6 px, 0.39 em, at the line's threshold; 7.5 px, 0.53 em, at
 * its own half peak; filmed en dashes 0.48–0.58 em and hyphens 0.32–0.35 this way, screenshots 0.49–0.51
 * and 0.32–0.34).
 */
export function ownExtent(crop: GreyCrop, box: InkComponent, axis: "x" | "y"): number {
  const x0 = Math.max(0, box.x0 - crop.x0);
  const x1 = Math.min(crop.w - 1, box.x1 - crop.x0);
  const y0 = Math.max(0, box.y0 - crop.y0);
  const y1 = Math.min(crop.h - 1, box.y1 - crop.y0);
  const profile: number[] = [];
  const [n, m] = axis === "x" ? [x1 - x0 + 1, y1 - y0 + 1] : [y1 - y0 + 1, x1 - x0 + 1];
  for (let i = 0; i < n; i++) {
    let most = 0;
    for (let j = 0; j < m; j++) {
      const x = axis === "x" ? x0 + i : x0 + j;
      const y = axis === "x" ? y0 + j : y0 + i;
      most = Math.max(most, Math.abs((crop.grey[y * crop.w + x] ?? crop.bg) - crop.bg));
    }
    profile.push(most);
  }
  return profile.length === 0 ? 0 : halfPeakWidth(profile);
}

/**
 * The dash a bar is between two numbers (the characters either side of `index`, spaces skipped, are
 * digits), measured in the em its neighbouring digits' ink gives; undefined when it is not between
 * digits, the neighbours' ink is not two digits' (each ≥ 2.5 bar thicknesses tall, within 20% of each
 * other), or the length lies within `RANGE_MARGIN` of a threshold. Given the line's `crop`, the bar's
 * length (across the gap between the digits, its rows ± 1) and the digits' heights (their columns,
 * rows ± 3) are each measured at half their own contrast (`ownExtent`), as a blurred frame needs.
 */
export function rangeDash(
  text: string,
  index: number,
  comps: readonly InkComponent[],
  bar: InkComponent,
  crop?: GreyCrop,
): string | undefined {
  let p = index - 1;
  while (text[p] === " ") p--;
  let q = index + 1;
  while (text[q] === " ") q++;
  if (!DIGIT.test(text[p] ?? "") || !DIGIT.test(text[q] ?? "")) return undefined;
  const left = comps.filter((c) => c.x1 < bar.x0).at(-1);
  const right = comps.find((c) => c.x0 > bar.x1);
  if (!left || !right) return undefined;
  const thick = bar.y1 - bar.y0 + 1;
  const hl = left.y1 - left.y0 + 1;
  const hr = right.y1 - right.y0 + 1;
  if (Math.min(hl, hr) < 2.5 * thick || Math.abs(hl - hr) > 0.2 * Math.max(hl, hr)) return undefined;
  const grown = (c: InkComponent, d: number) => ({ x0: c.x0, y0: c.y0 - d, x1: c.x1, y1: c.y1 + d });
  const em = crop
    ? (ownExtent(crop, grown(left, 3), "y") + ownExtent(crop, grown(right, 3), "y")) / 2 / DIGIT_EM
    : (hl + hr) / 2 / DIGIT_EM;
  const length = crop
    ? ownExtent(crop, { x0: left.x1 + 1, y0: bar.y0 - 1, x1: right.x0 - 1, y1: bar.y1 + 1 }, "x")
    : bar.x1 - bar.x0 + 1;
  const r = length / em;
  if (Math.abs(r - RANGE_EN_MIN) < RANGE_MARGIN || Math.abs(r - RANGE_EM_MIN) < RANGE_MARGIN)
    return undefined;
  return r >= RANGE_EM_MIN ? "—" : r >= RANGE_EN_MIN ? "–" : "-";
}

/** Where a character was read: its index in the line's text and its x centre in image pixels. */
export interface GlyphAt {
  index: number;
  x: number;
}

/**
 * `text` with its dashes set from their ink (`line` is the line's ink box in `image`; `glyphs` where
 * the dash-like characters and the first character were read):
 *
 * - a dash-like character (`dashCandidate`) whose nearest ink component is a bar becomes the dash its
 *   length says (`dashForLength`), or stays as read when that is the same dash (`－` for a hyphen);
 * - a line starting with a digit whose leftmost ink is a bar starts with a minus: the `1` read on the
 *   bar itself is replaced (`10` → `-0`), a bar left of the first digit is put back (`53:37` → `-53:37`).
 *
 * Unchanged where the ink is unclear (no contrast, no component near the character).
 */
export function typographicDashes(
  text: string,
  glyphs: readonly GlyphAt[],
  image: RgbImage,
  line: PixelBox,
): string {
  const wanted = glyphs.filter(
    (g) => (g.index === 0 && DIGIT.test(text[0] ?? "")) || dashCandidate(text, g.index),
  );
  if (wanted.length === 0) return text;
  const comps = inkComponents(image, line);
  if (comps.length === 0) return text;
  const crop = greyCrop(image, line, 3, 4) ?? undefined;
  const { top, bottom } = inkRows(comps);
  const lineH = bottom - top + 1;
  const chars = text.split("");
  let prefix = "";
  for (const g of wanted) {
    const c = chars[g.index] ?? "";
    if (g.index === 0 && DIGIT.test(c)) {
      const first = comps[0];
      if (!first || !isBar(first, top, bottom)) continue;
      const slack = 0.3 * lineH;
      if (c === "1" && g.x >= first.x0 - slack && g.x <= first.x1 + slack && DIGIT.test(chars[1] ?? ""))
        chars[0] = "-";
      else if (g.x > first.x1 + slack) prefix = "-";
      continue;
    }
    const near = comps.reduce((a, b) =>
      Math.abs((b.x0 + b.x1) / 2 - g.x) < Math.abs((a.x0 + a.x1) / 2 - g.x) ? b : a,
    );
    if (Math.abs((near.x0 + near.x1) / 2 - g.x) > 0.6 * lineH || !isBar(near, top, bottom)) continue;
    const dash = rangeDash(text, g.index, comps, near, crop) ?? dashForLength(near.x1 - near.x0 + 1, lineH);
    // `－` and `-` are one hyphen (NFKC); only a change of dash is written.
    if (dash !== (c === "－" ? "-" : c)) chars[g.index] = dash;
  }
  return prefix + chars.join("");
}

/**
 * `text` without the dash read just before a closing ellipsis when the line's ink ends in dots alone:
 * the recogniser reads the first dots of a `…` as a dash (`键盘与隐私…` read `键盘与隐私—…`). Kept when a
 * bar stands before the dots (a real dash). On camera frames the dots are read as full stops
 * (`键盘与隐私—...`); the ellipsis is written `…` either way. `line` is the line's ink box in `image`.
 */
export function ellipsisDash(text: string, image: RgbImage, line: PixelBox): string {
  const m = /[-－—–一](?:…|\.{2,3})$/u.exec(text);
  if (!m) return text;
  const comps = inkComponents(image, line);
  const { top, bottom } = inkRows(comps);
  const lineH = bottom - top + 1;
  // An ellipsis dot: small and round (at most a fifth of the line each way, aspect within 2).
  const isDot = (c: InkComponent) => {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    return w <= 0.2 * lineH && h <= 0.2 * lineH && w <= 2 * h && h <= 2 * w;
  };
  let dots = 0;
  while (dots < comps.length && isDot(comps[comps.length - 1 - dots] as InkComponent)) dots++;
  const before = comps[comps.length - 1 - dots];
  if (dots < 3 || (before && isBar(before, top, bottom))) return text;
  return `${text.slice(0, m.index)}…`;
}
