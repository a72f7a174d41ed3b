import { hanPitch } from "./cjk.js";
import type { CtcResult } from "./ctc.js";
import type { PixelBox } from "./detect.js";

/**
 * Chinese lines whose crop ends inside their last glyph. On a camera frame the 320 px detection map
 * often stops short of a small line's last ideograph (`法律資訊` boxed to the middle of `訊`, on a map
 * where `extend.ts` cannot follow the line: the band guard meets the map's roads). The recogniser then
 * drops the cut glyph, or reads a look-alike. Chinese is set on a fixed advance — every ideograph of
 * PingFang is one em wide, with no space between them (Apple, *Human Interface Guidelines*,
 * Typography; W3C *Requirements for Chinese Text Layout* §3.1, "square" character frames) — so the
 * decode itself says where the next glyph would stand: one pitch after the last Han character. When
 * that place reaches the crop's end and the recogniser saw a glyph there (a non-blank class with a real
 * share of a frame, though below the blank), the line runs on past its box, which is widened by an em
 * and read again.
 */

/**
 * Lowest share of a frame past the last Han glyph that the non-blank classes together must take for it
 * to hold a glyph the crop cut. A cut glyph is no character the model knows, so its score spreads over
 * look-alikes (`法律資訊` cut in `訊`: blank 0.30, `拼` 0.15, `#` 0.08, …); past a line's real end the
 * blank takes 0.97 or more of every frame.
 */
export const RUN_ON_SHARE = 0.5;

/**
 * Whether the decoded Han line `r` runs on past its crop's right end: its last character is Han (two
 * gaps between adjacent Han characters give the pitch), the next glyph's place (one pitch on) lies within half a pitch
 * of the crop's end or past it, and a frame from half a pitch after the last glyph to the crop's end
 * gives the non-blank classes `RUN_ON_SHARE` of its score or more. `probs` as for `recoverSkippedHan`; `cropWidth`
 * and `paddedWidth` as for `finishText`.
 */
export function hanRunsOn(
  r: CtcResult,
  probs: Float32Array,
  offset: number,
  classes: number,
  cropWidth: number,
  paddedWidth: number,
): boolean {
  let last = r.chars.length - 1;
  while (last >= 0 && (r.chars[last] ?? "").trim() === "") last--;
  if (last < 1 || !/\p{Script=Han}/u.test(r.chars[last] ?? "") || r.length <= 0) return false;
  // The pitch from two gaps at least, as `recoverSkippedHan` takes it: one gap may hold a skipped glyph.
  let gaps = 0;
  for (let i = 1; i < r.chars.length; i++)
    if (/\p{Script=Han}/u.test(r.chars[i] ?? "") && /\p{Script=Han}/u.test(r.chars[i - 1] ?? "")) gaps++;
  const pitch = hanPitch(r, 0, r.chars.length);
  if (gaps < 2 || pitch <= 0) return false;
  const cropSteps = (cropWidth * r.length) / paddedWidth;
  const step = r.steps[last] ?? 0;
  if (step + pitch < cropSteps - pitch / 2) return false;
  for (let t = Math.ceil(step + pitch / 2); t < Math.min(r.length, cropSteps); t++)
    if (1 - (probs[offset + t * classes] ?? 1) >= RUN_ON_SHARE) return true;
  return false;
}

/** `box` widened on the right by an em (its height: a Chinese line's box is about an em tall), in `width`. */
export function widenByEm(box: PixelBox, width: number): PixelBox {
  return { ...box, x1: Math.min(width, box.x1 + (box.y1 - box.y0)) };
}

/** Whitespace characters in `text`. */
function spaces(text: string): number {
  return Array.from(text).filter((c) => c.trim() === "").length;
}

/** Han characters in `text`. */
export function hanCount(text: string): number {
  return Array.from(text).filter((c) => /\p{Script=Han}/u.test(c)).length;
}

/** A region's reading as the engine keeps it; `runsOn` from `hanRunsOn`. */
interface Reading {
  text: string;
  conf: number;
  runsOn?: boolean;
}

/**
 * Each reading flagged `runsOn` read again from its box widened by an em (`read(boxes, which)` reads the
 * listed boxes of a list); the wider reading replaces the first, and its box the region's, when it holds
 * more Han characters and no more spaces, at `minConfidence` or more. `readings` and `boxes` are updated in place.
 */
export async function readOnPastCuts<T extends Reading>(
  readings: T[],
  boxes: PixelBox[],
  width: number,
  minConfidence: number,
  read: (boxes: readonly PixelBox[], which: readonly number[]) => Promise<T[]>,
): Promise<void> {
  const cut = readings.flatMap((r, i) => (r.runsOn ? [i] : []));
  if (cut.length === 0) return;
  const wider = boxes.map((b, i) => (cut.includes(i) ? widenByEm(b, width) : b));
  const again = await read(wider, cut);
  for (const i of cut) {
    const first = readings[i];
    const second = again[i];
    const box = wider[i];
    if (!first || !second || !box || second.conf < minConfidence) continue;
    // More Han, and no new space: Chinese sets none between glyphs, so a spaced word is the next label.
    if (hanCount(second.text) <= hanCount(first.text) || spaces(second.text) > spaces(first.text)) continue;
    readings[i] = second;
    boxes[i] = box;
  }
}
