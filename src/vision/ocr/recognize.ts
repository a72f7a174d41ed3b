import { appleNames } from "./apple-names.js";
import { asciiLetters, iconBeforeHan, trailingHelpMark } from "./cjk.js";
import type { CtcResult } from "./ctc.js";
import type { PixelBox } from "./detect.js";
import type { InkImage } from "./ink.js";
import { lookAlikes } from "./look-alikes.js";
import { monospacePitch } from "./monospace.js";
import { pronounI } from "./pronoun-i.js";
import { slashCandidate } from "./slashes.js";

/**
 * CRNN/SVTR text recognition pre- and post-processing for PaddleOCR's rec models: crops of the
 * full-resolution image resampled to the model's fixed height, batched by width, CTC-decoded.
 */

/** Height every crop is resampled to (PP-OCRv3/v4 rec input is `[N, 3, 48, W]`). */
export const REC_HEIGHT = 48;
/** Widest crop sent to the recogniser (ratio 40:1); wider lines are squeezed, not cut. */
export const REC_MAX_WIDTH = REC_HEIGHT * 40;

/** The quote marks whose glyphs `typography.ts` measures. */
const QUOTE_MARK = /^['"‘’“”]$/u;

/**
 * Width (a multiple of 4) a crop of `box` takes at `REC_HEIGHT`, aspect kept. (Squeezing crops
 * horizontally was measured: ×0.85 saved ~10% OCR CPU but raised English CER from 4.3% to 5.7%.)
 */
export function recognitionWidth(box: PixelBox): number {
  const w = box.x1 - box.x0;
  const h = Math.max(1, box.y1 - box.y0);
  return Math.min(REC_MAX_WIDTH, Math.max(8, Math.ceil((REC_HEIGHT * w) / h / 4) * 4));
}

/**
 * Resample `box` of `image` to `width`×REC_HEIGHT into `dst` (planar `[3, REC_HEIGHT, stride]` at
 * `offset`, values (v/127.5 − 1)), with area averaging when shrinking so thin strokes survive. Columns
 * from `width` to `stride` repeat the crop's last column: padding that looks like the background reads
 * better than the flat grey PaddleOCR pads with.
 */
export function writeCrop(
  image: InkImage,
  box: PixelBox,
  width: number,
  dst: Float32Array,
  offset: number,
  stride: number,
): void {
  // The pixel loop sees numbers and typed arrays only: box objects come in several shapes, and each new
  // one deoptimised this loop, which then ran unoptimised, boxing every float (~17 MB of garbage a peek).
  cropPixels(
    image.data,
    // A grey plane reads as three equal channels (same arithmetic per channel, so the same floats).
    "channels" in image ? 3 : 1,
    image.width,
    image.height,
    box.x0,
    box.y0,
    box.x1,
    box.y1,
    width,
    dst,
    offset,
    stride,
  );
}

/** `writeCrop` on the box's corners. */
function cropPixels(
  data: Uint8Array,
  ch: number,
  iw: number,
  ih: number,
  bx0: number,
  by0: number,
  bx1: number,
  by1: number,
  width: number,
  dst: Float32Array,
  offset: number,
  stride: number,
): void {
  const sx = (bx1 - bx0) / width;
  const sy = (by1 - by0) / REC_HEIGHT;
  // Samples per output pixel and axis: enough to cover the source footprint when shrinking.
  const nx = Math.max(1, Math.min(4, Math.ceil(sx)));
  const ny = Math.max(1, Math.min(4, Math.ceil(sy)));
  const inv = 1 / (nx * ny);
  const plane = REC_HEIGHT * stride;
  const maxX = iw - 1;
  const maxY = ih - 1;
  const g1 = ch === 3 ? 1 : 0;
  const g2 = ch === 3 ? 2 : 0;
  for (let oy = 0; oy < REC_HEIGHT; oy++) {
    for (let ox = 0; ox < width; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = 0; j < ny; j++) {
        const fy = Math.min(maxY, Math.max(0, by0 + (oy + (j + 0.5) / ny) * sy - 0.5));
        const y0 = Math.floor(fy);
        const y1 = Math.min(maxY, y0 + 1);
        const wy = fy - y0;
        for (let i = 0; i < nx; i++) {
          const fx = Math.min(maxX, Math.max(0, bx0 + (ox + (i + 0.5) / nx) * sx - 0.5));
          const x0 = Math.floor(fx);
          const x1 = Math.min(maxX, x0 + 1);
          const wx = fx - x0;
          const a = (y0 * iw + x0) * ch;
          const c = (y0 * iw + x1) * ch;
          const e = (y1 * iw + x0) * ch;
          const f = (y1 * iw + x1) * ch;
          const w00 = (1 - wx) * (1 - wy);
          const w01 = wx * (1 - wy);
          const w10 = (1 - wx) * wy;
          const w11 = wx * wy;
          r += (data[a] ?? 0) * w00 + (data[c] ?? 0) * w01 + (data[e] ?? 0) * w10 + (data[f] ?? 0) * w11;
          g +=
            (data[a + g1] ?? 0) * w00 +
            (data[c + g1] ?? 0) * w01 +
            (data[e + g1] ?? 0) * w10 +
            (data[f + g1] ?? 0) * w11;
          b +=
            (data[a + g2] ?? 0) * w00 +
            (data[c + g2] ?? 0) * w01 +
            (data[e + g2] ?? 0) * w10 +
            (data[f + g2] ?? 0) * w11;
        }
      }
      const o = offset + oy * stride + ox;
      dst[o] = (r * inv) / 127.5 - 1;
      dst[o + plane] = (g * inv) / 127.5 - 1;
      dst[o + 2 * plane] = (b * inv) / 127.5 - 1;
    }
    for (let c = 0; c < 3; c++) {
      const row = offset + c * plane + oy * stride;
      dst.fill(dst[row + width - 1] ?? 0, row + width, row + stride);
    }
  }
}

/** Crops grouped for batched recognition: indices into the caller's box list, and the padded width. */
export interface RecBatch {
  indices: number[];
  width: number;
}

/**
 * Sort crops by width and group neighbours whose widths differ by at most `slack` (a fraction), up to
 * `size` per batch; each batch is padded to its widest member. Recogniser cost grows with the padded
 * columns, and batching saves only per-run overhead, so padding is kept small rather than batches large.
 */
export function planBatches(widths: readonly number[], size: number, slack = 0.1): RecBatch[] {
  const order = widths.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w);
  const batches: RecBatch[] = [];
  let current: { w: number; i: number }[] = [];
  const flush = () => {
    if (current.length === 0) return;
    batches.push({ indices: current.map((p) => p.i), width: Math.max(...current.map((p) => p.w)) });
    current = [];
  };
  for (const item of order) {
    const first = current[0];
    if (first && (current.length >= size || item.w > first.w * (1 + slack))) flush();
    current.push(item);
  }
  flush();
  return batches;
}

/** Disclosure chevrons iOS draws at the end of list rows; the recogniser reads them as characters. */
const CHEVRONS = new Set([">", "〉", "›", "»"]);

/**
 * Icons iOS draws just left of a label, which the recogniser reads as a character of the line when the
 * text detector boxes them together: the back chevron (`< Back`, `<设置`; also read as `‹`, `〈`, `、`),
 * the search field's magnifier (`Q Search`), the info symbol (`i VERSION`), close and warning marks,
 * stars, clock faces (`③ · 8h`) and tag marks (`# swiftui`). Each is cut when a space follows it (the
 * recogniser's word gap, which a real word's first letter does not have: `Quit`, `#tag`); the chevron-like
 * ones also without a space, since no label starts with `<`.
 */
const LEADING_ICONS = new Set([
  "<",
  "‹",
  "〈",
  "«",
  "、",
  "Q",
  "i",
  "×",
  "✕",
  "★",
  "☆",
  "#",
  "！",
  "!",
  "●",
  "•",
]);
const LEADING_CHEVRONS = new Set(["<", "‹", "〈", "«"]);
/**
 * A lone capital `O`, a space, then a capitalised word (`O Tires (psi)`, `O Enable IPv6`): a round symbol
 * before a label — a widget's SF Symbol (a tyre, a clock), a radio circle — read as the nearest letter.
 * English UI text has no one-letter word `O` (`look-alikes.ts`; before a small-letter word it is a count,
 * `0 items`, which that rule makes a digit), and a capital after it rules the count out. On camera frames
 * the blur rounds the symbol into an `O` whose ink `lead-icon.ts` cannot tell from the letter (fill 0.66,
 * one hole, 0.76 em tall on the FordPass widgets), so the reading decides.
 */
const ROUND_ICON = "O";
const CAPITALISED = /^\p{Lu}\p{Ll}/u;
/** Circled digits (①–⑳): a clock or a count badge drawn as an icon, never the start of a label. */
const CIRCLED = /^[\u2460-\u2473]$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/**
 * One Chinese character, a space, then text without any: an icon or avatar read as the nearest
 * ideograph (`蔡 Michael Tsai`, `副 48%`). Chinese puts no space after a lone character before Latin
 * text or digits, and an English label never starts with one.
 */
const HAN = /\p{Script=Han}/u;
/** What `dashes.ts` measures: the recogniser's dash-like characters (and a line's first digit). */
const DASH_LIKE = /^[-－—–一]$/u;

/**
 * iOS truncates a label that does not fit with an ellipsis (`…`, UILabel's default `byTruncatingTail`);
 * the recogniser reads its three close dots as two (`Working..`), and no text ends in exactly two dots.
 */
function ellipsis(text: string): string {
  return /[^.]\.\.$/u.test(text) ? `${text.slice(0, -2)}…` : text;
}

/**
 * Capital I read as lower-case l, which SF Pro draws as nearly the same bar (the l only a little taller):
 * `lcons`, `lf`, `APl`, `UlKit`. An `l` becomes `I` where English puts an I and almost never an l — at
 * the start of a word before c, f, m, n, s or t (`Icons`, `If`, `Image`, `Install`, `Issue`, `It`; `lbs`
 * and `llama` keep theirs), or inside a run of capitals of three letters or more (`API`, `UIKit`).
 */
export function capitalI(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => {
    if (!word.includes("l")) return word;
    const chars = Array.from(word);
    const upper = (c: string | undefined) => c !== undefined && /\p{Lu}/u.test(c);
    return chars
      .map((c, i) => {
        if (c !== "l") return c;
        if (i === 0 && chars.length > 1 && /^[cfmnst]$/.test(chars[1] ?? "")) return "I";
        const caps = chars.filter((x) => upper(x)).length;
        return chars.length >= 3 &&
          caps >= 2 &&
          (upper(chars[i - 1]) || i === 0) &&
          (upper(chars[i + 1]) || i === chars.length - 1)
          ? "I"
          : c;
      })
      .join("");
  });
}

/** A decoded line ready for output: text, confidence, and where along the crop the text begins and ends. */
export interface FinishedText {
  text: string;
  conf: number;
  /** Left edge of the kept text as a fraction of the crop's width (0 when nothing was cut). */
  begin?: number;
  /** Right edge of the kept text as a fraction of the crop's width (1 when nothing was cut). */
  end: number;
  /**
   * Quote marks (`'`, `"`, and the curly `‘ ’ “ ”` the recogniser also emits) in `text`: their index and
   * where they were read, as a fraction of the crop's width (from the CTC time step), so their glyphs
   * can be measured (`typography.ts`).
   */
  marks?: { index: number; at: number }[];
  /**
   * Spaces in `text`, likewise: where a line holding two labels may be cut (`split.ts`); `restored`, the
   * space class's score where `restoreSpaces` put the space back (absent for a space read as such).
   */
  spaces?: { index: number; at: number; restored?: number }[];
  /** Dash-like characters and a leading digit, likewise: their ink says which dash (`dashes.ts`). */
  dashes?: { index: number; at: number }[];
  /** Characters a slash or backslash is read as (V, W, I, l, brackets), likewise (`slashes.ts`). */
  slashes?: { index: number; at: number }[];
  /** Latin letters and digits, likewise: their ink's height says their case (`letter-case.ts`). */
  glyphs?: { index: number; at: number }[];
  /** The character pitch, as a fraction of the crop's width, when the line is monospaced (`monospace.ts`). */
  pitch?: number;
}

/**
 * Trim surrounding spaces and, with `stripChevrons`, a trailing chevron (only when text remains), so
 * `Mon >` reads `Mon`; the box's right edge moves to halfway between the last kept character and the
 * first cut one. `cropWidth` is the crop's width in recogniser columns and `paddedWidth` the width of
 * the tensor it was run in (the output's time steps span the padded width).
 */
export function finishText(
  read: CtcResult,
  cropWidth: number,
  paddedWidth: number,
  stripChevrons: boolean,
): FinishedText {
  // Look-alike glyphs (`I`/`l`, `O`/`0`) chosen from the recogniser's runner-up by context first: every
  // rule after this one sees the characters a reader would.
  // Then a bar before `’m` is the pronoun `I`, its score its kind's (`pronoun-i.ts`).
  const r: CtcResult = {
    ...read,
    ...pronounI(lookAlikes(read.chars, read.alts, read.altScores), read.scores, read.alts, read.altScores),
  };
  const blank = (c: string) => c.trim() === "";
  let start = 0;
  while (start < r.chars.length && blank(r.chars[start] ?? "")) start++;
  const trimEnd = (cut: (c: string) => boolean): number => {
    let end = r.chars.length;
    while (end > start && cut(r.chars[end - 1] ?? "")) end--;
    return end;
  };
  let end = trimEnd(blank);
  if (end <= start) return { text: "", conf: 0, end: 1 };
  if (stripChevrons) {
    const shorter = trimEnd((c) => blank(c) || CHEVRONS.has(c));
    if (shorter > start) end = shorter;
    end = trailingHelpMark(r.chars, start, end);
  }
  // A leading icon glyph (`< Back`, `Q Search`): cut, with the box's left edge moved past it.
  let begin = 0;
  const colPerStep = r.length > 0 ? paddedWidth / r.length : 0;
  if (stripChevrons) {
    const first = r.chars[start] ?? "";
    let next = start + 1;
    while (next < end && blank(r.chars[next] ?? "")) next++;
    const spaced = next > start + 1;
    const rest = r.chars.slice(next, end).join("");
    const icon =
      LEADING_CHEVRONS.has(first) ||
      CIRCLED.test(first) ||
      (LEADING_ICONS.has(first) && spaced) ||
      (first === ROUND_ICON && spaced && CAPITALISED.test(rest)) ||
      (HAN.test(first) && spaced && !HAN.test(rest)) ||
      iconBeforeHan(r, start, next);
    if (icon && next < end && LETTER_OR_DIGIT.test(rest)) {
      const mid = ((r.steps[start] ?? 0) + (r.steps[next] ?? 0)) / 2 + 0.5;
      begin = Math.max(0, Math.min(1, (mid * colPerStep) / cropWidth));
      start = next;
    }
  }
  // Only a chevron cut moves the edge: trailing spaces take no room in the image.
  const cutChevron = r.chars.slice(end).some((c) => c.trim() !== "");
  let edge = 1;
  if (cutChevron && r.length > 0) {
    const lastKept = r.steps[end - 1] ?? 0;
    const firstCut = r.steps.slice(end).find((_, k) => (r.chars[end + k] ?? "").trim() !== "") ?? lastKept;
    edge = Math.min(1, (((lastKept + firstCut) / 2 + 0.5) * colPerStep) / cropWidth);
  }
  const scores = r.scores.slice(start, end);
  const marks: { index: number; at: number }[] = [];
  const spaces: { index: number; at: number; restored?: number }[] = [];
  const dashes: { index: number; at: number }[] = [];
  const slashes: { index: number; at: number }[] = [];
  const glyphs: { index: number; at: number }[] = [];
  const grid: number[] = [];
  let index = 0;
  for (let i = start; i < end; i++) {
    const c = r.chars[i] ?? "";
    const at = cropWidth > 0 ? Math.min(1, (((r.steps[i] ?? 0) + 0.5) * colPerStep) / cropWidth) : 0;
    if (QUOTE_MARK.test(c)) marks.push({ index, at });
    if (c === " " || c === "\u3000") {
      const restored = r.restored?.[i] ?? 0;
      spaces.push(restored > 0 ? { index, at, restored } : { index, at });
    }
    if (DASH_LIKE.test(c) || (index === 0 && /\d/u.test(c))) dashes.push({ index, at });
    if (slashCandidate(c)) slashes.push({ index, at });
    if (/^[A-Za-z0-9]$/u.test(c)) glyphs.push({ index, at });
    for (let k = 0; k < c.length; k++) grid.push(at);
    index += c.length;
  }
  const pitch = monospacePitch(r.chars.slice(start, end).join(""), grid);
  return {
    text: appleNames(capitalI(ellipsis(asciiLetters(r.chars.slice(start, end).join(""))))),
    conf: scores.reduce((a, b) => a + b, 0) / scores.length,
    ...(begin > 0 ? { begin } : {}),
    end: edge,
    ...(marks.length > 0 ? { marks } : {}),
    ...(spaces.length > 0 ? { spaces } : {}),
    ...(dashes.length > 0 ? { dashes } : {}),
    ...(slashes.length > 0 ? { slashes } : {}),
    ...(glyphs.length > 0 ? { glyphs } : {}),
    ...(pitch !== undefined ? { pitch } : {}),
  };
}
