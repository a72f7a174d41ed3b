import type { FracBox } from "../../shared/box.js";
import type { RgbImage } from "../../shared/image.js";
import type { TextLine } from "../types.js";
import type { PixelBox } from "./detect.js";
import { type BoxReader, glyphCanvas, glyphInk } from "./lone-glyphs.js";
import type { FinishedText } from "./recognize.js";

/**
 * A lone digit the detector found but the recogniser read weakly from the detector's crop. PP-OCR's
 * recogniser reads a line; a single glyph in the tight, unevenly padded crop DB's unclip gives it has
 * no context to lean on, and its reading swings with a pixel of margin (Yattee's two bold `0` counts
 * on tiles, drawn alike: one read `0` at 0.84, the other at 0.52, under `minConfidence`, so the
 * count was lost and the detector's icon row took its place). Counts, dates, keypad digits, chart
 * axis labels and a slider's value stand alone as one digit all over iOS (a widget's day, a clock's
 * hour, a badge). Such a region is read again on `glyphCanvas` — the glyph alone on its own
 * background with an even margin, as `lone-glyphs.ts` reads badges — and the reading stands when it is
 * one digit read confidently and the ink is shaped like a digit. Only digits: SF Symbols are drawn to
 * look like letters and signs (`xmark` ≈ `x`, `plus` ≈ `+`, `textformat` ≈ `A`), not like digits.
 */

/** Readings with at most this many glyphs (white space aside) are candidates: one glyph, or a split one. */
const MAX_GLYPHS = 2;
/**
 * The canvas reading is kept at this confidence or more. A weak first reading means the crop alone was
 * not convincing; an icon's ink read on a clean canvas rarely reaches it (measured on the dev set: the
 * bookmark and clock symbols beside Yattee's counts read `日` and nothing).
 */
export const LONE_DIGIT_CONF = 0.9;
/**
 * Kept at this confidence when the detector's crop read the same digit: two crops with different margins
 * agreeing on one digit (a bold `0` splits its score with `O`, 0.52 and 0.55).
 */
export const AGREED_DIGIT_CONF = 0.5;
/**
 * A digit's ink is taller than wide: SF Pro's figures are 0.5–0.65 em wide by 0.71 em tall (the
 * tabular figures of counts and clocks ~0.6 em), `1` ~0.3 em; a ring or disc icon read `0` is as wide
 * as tall. Ink width / height must lie in this range (1 px of blur either side included).
 */
const MIN_ASPECT = 0.2;
const MAX_ASPECT = 0.85;
/** Ink shorter than this (px in `detail`) is too small to read alone: a lone glyph's reading is noise. */
const MIN_INK_HEIGHT = 8;
/** The region is grown by this share of its height each way before its ink is measured. */
const GROW = 0.25;
/** At most this many regions are read again per screen. */
const MAX_REREADS = 24;

/**
 * Weakly read one-glyph regions that read as a lone digit on a clean canvas get that reading, in place
 * (the region's box stands; its text is the digit). `boxes` are the regions in `detail`'s pixels, in
 * the order of `readings`.
 */
export async function loneDigits(
  readings: FinishedText[],
  boxes: readonly PixelBox[],
  detail: RgbImage,
  minConfidence: number,
  read: BoxReader,
): Promise<void> {
  const picks: { i: number; ink: PixelBox }[] = [];
  readings.forEach((r, i) => {
    const box = boxes[i];
    if (!box || r.conf >= minConfidence || picks.length >= MAX_REREADS) return;
    if (r.text.replace(/\s/gu, "").length > MAX_GLYPHS) return;
    // DB's region hugs a lone glyph's ink; its border must be background for the ink to be measured.
    const m = GROW * (box.y1 - box.y0);
    const ink = digitInk(detail, { ...box, x0: box.x0 - m, y0: box.y0 - m, x1: box.x1 + m, y1: box.y1 + m });
    if (ink) picks.push({ i, ink });
  });
  if (picks.length === 0) return;
  const again = await readPairs(
    detail,
    picks.map((p) => p.ink),
    read,
  );
  picks.forEach(({ i }, k) => {
    const r = again[k];
    const text = r?.text ?? "";
    // Read the same digit twice on the canvas: kept when confident, or when the crop read that digit too.
    const floor = readings[i]?.text.trim() === text ? AGREED_DIGIT_CONF : LONE_DIGIT_CONF;
    if (r && r.conf >= floor && text !== "")
      // Listed at least at `minConfidence`: the agreement of two readings is the evidence, not one score.
      readings[i] = { text, conf: Math.max(r.conf, minConfidence), end: 1 };
  });
}

/** The ink of one glyph in `box` of `detail` when it is shaped like a digit (tall enough, taller than wide). */
function digitInk(detail: RgbImage, box: PixelBox): PixelBox | undefined {
  const ink = glyphInk(detail, box);
  if (!ink) return undefined;
  const w = ink.x1 - ink.x0;
  const h = ink.y1 - ink.y0;
  return h < MIN_INK_HEIGHT || w < MIN_ASPECT * h || w > MAX_ASPECT * h ? undefined : ink;
}

/**
 * Each glyph read twice side by side on a clean canvas (`glyphCanvas`): a lone glyph has no context,
 * a pair is a short line. The digit read both times (`text`, else empty) and the reading's confidence.
 */
async function readPairs(
  detail: RgbImage,
  inks: readonly PixelBox[],
  read: BoxReader,
): Promise<{ text: string; conf: number }[]> {
  const { canvas, cells } = glyphCanvas(
    detail,
    inks.map((ink) => [ink, ink]),
  );
  const again = await read(canvas, cells);
  return inks.map((_, k) => {
    const r = again[k];
    const pair = r?.text.replace(/\s/gu, "") ?? "";
    const digit = pair.slice(0, 1);
    return { text: /^\p{Nd}$/u.test(digit) && pair === digit + digit ? digit : "", conf: r?.conf ?? 0 };
  });
}

/**
 * Icon boxes (fractions of `detail`) that hold one lone digit: the box's ink is one glyph shaped like
 * a digit and reads as that digit twice over at `LONE_DIGIT_CONF` or more. The UI detector and the
 * glyph proposer box any compact ink, and a lone white digit on black or an 11–13 pt digit gets no
 * text region from the 320 px detection map (a chart's axis label, the value beside a slider's thumb,
 * a widget's date), so it came out `[icon] ""`. Per box: the digit's line (its ink's box), or undefined.
 */
export async function iconDigits(
  detail: RgbImage,
  boxes: readonly FracBox[],
  read: BoxReader,
): Promise<(TextLine | undefined)[]> {
  const W = detail.width;
  const H = detail.height;
  const inks = boxes.map((b) =>
    digitInk(detail, { x0: b[0] * W, y0: b[1] * H, x1: b[2] * W, y1: b[3] * H, score: 1 }),
  );
  const picks = inks.flatMap((ink, i) => (ink ? [{ i, ink }] : [])).slice(0, MAX_REREADS);
  const out: (TextLine | undefined)[] = boxes.map(() => undefined);
  if (picks.length === 0) return out;
  const again = await readPairs(
    detail,
    picks.map((p) => p.ink),
    read,
  );
  picks.forEach(({ i, ink }, k) => {
    const r = again[k];
    if (!r || r.text === "" || r.conf < LONE_DIGIT_CONF) return;
    out[i] = { text: r.text, conf: r.conf, box: [ink.x0 / W, ink.y0 / H, ink.x1 / W, ink.y1 / H] };
  });
  return out;
}
