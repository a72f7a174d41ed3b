import type { CtcResult } from "./ctc.js";
import { HANS_TO_HANT, HANT_TO_HANS } from "./hanzi-variants.js";

/**
 * Chinese-specific repairs of what the recogniser (PP-OCRv4 rec, `ppocr_keys_v1.txt`: 6,623 classes,
 * trained mostly on Simplified Chinese) can and cannot emit.
 *
 * - Its dictionary lacks many Traditional characters (`從 側 獎 歲 戰 輻` …) while holding their Simplified
 *   forms, so on a Traditional line (iOS sets zh-Hant in PingFang TC) it reads such a glyph as the
 *   Simplified form (`左側` → `左侧`), or, when the Simplified glyph looks too different, as a blank with the
 *   Simplified form as the runner-up (`從` → nothing, `从` second). It also reads some Traditional glyphs
 *   it does have as their Simplified form (`術` → `术`).
 * - A string on an iPhone is written in one script: an app is localised to zh-Hans or zh-Hant, and a
 *   title is typed in one. So a line is brought to the script most of its script-specific characters
 *   are in (`unifyHanScript`), and a Han glyph the decode skipped is put back from the runner-up class
 *   (`recoverSkippedHan`).
 */

const HAN = /\p{Script=Han}/u;
/** Japanese kana: kanji lines are Japanese, whose shinjitai forms are neither script's. */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

function pairs([from, to]: readonly [string, string]): ReadonlyMap<string, string> {
  const a = Array.from(from);
  const b = Array.from(to);
  return new Map(a.map((c, i) => [c, b[i] ?? c]));
}

/** Full-width digits, capitals and small letters (Unicode Halfwidth and Fullwidth Forms block). */
const FULL_WIDTH_RANGES = [
  [0xff10, 0xff19],
  [0xff21, 0xff3a],
  [0xff41, 0xff5a],
] as const;
/** A full-width form's code point minus its ASCII form's. */
const FULL_WIDTH_OFFSET = 0xfee0;

/** A full-width Latin letter or digit in `text` as its ASCII form. */
export function asciiLetters(text: string): string {
  return text.replace(/[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/gu, (c) =>
    String.fromCharCode((c.codePointAt(0) ?? 0) - FULL_WIDTH_OFFSET),
  );
}

/** Simplified-only character → its Traditional form (constant table, built once from the data). */
const TO_HANT = pairs(HANS_TO_HANT);
/** Traditional-only character → its Simplified form. */
const TO_HANS = pairs(HANT_TO_HANS);

/** Script-specific characters of `text`: how many are Simplified-only and how many Traditional-only. */
export function hanScriptCounts(text: string): { hans: number; hant: number } {
  let hans = 0;
  let hant = 0;
  for (const c of text) {
    if (TO_HANT.has(c)) hans++;
    else if (TO_HANS.has(c)) hant++;
  }
  return { hans, hant };
}

/**
 * For a recogniser's `dictionary` (entry k − 1 is CTC class k): each class's partner, the class of the
 * same character in the other script (`营` ↔ `營`, from the Simplified → Traditional table, then the
 * Traditional → Simplified one for forms the first does not reach), 0 where it has none. For
 * `ctcDecode`'s `partners`. A full-width Latin letter or digit (`Ｏ`, U+FF21–FF5A, U+FF10–FF19: the
 * dictionary holds 54 of them) is the partner of its ASCII form: the recogniser splits a widely tracked
 * capital between the two (`MNＯ` at 0.52 on a dial pad's key letters), and iOS sets ASCII.
 */
export function variantPartners(dictionary: readonly string[]): Int32Array {
  const classOf = new Map<string, number>();
  dictionary.forEach((c, i) => {
    if (!classOf.has(c)) classOf.set(c, i + 1);
  });
  const partners = new Int32Array(dictionary.length + 1);
  const link = (a: string, b: string) => {
    const ca = classOf.get(a);
    const cb = classOf.get(b);
    if (ca === undefined || cb === undefined) return;
    if (!partners[ca]) partners[ca] = cb;
    if (!partners[cb]) partners[cb] = ca;
  };
  for (const [hans, hant] of TO_HANT) link(hans, hant);
  for (const [hant, hans] of TO_HANS) link(hant, hans);
  for (const [first, last] of FULL_WIDTH_RANGES)
    for (let c = first; c <= last; c++)
      link(String.fromCharCode(c), String.fromCharCode(c - FULL_WIDTH_OFFSET));
  return partners;
}

/**
 * Most Simplified-only characters a line may hold and still be taken for Traditional on a Traditional
 * screen (`tradScreen`). The recogniser, trained mostly on Simplified text, reads a blurred Traditional
 * glyph as its Simplified form (`法律資訊` on a camera frame read `法律资讯`), never the other way: on a
 * short line one or two Simplified readings are weak evidence, Traditional readings elsewhere strong.
 */
const WEAK_HANS = 2;
/** Fewest Traditional-only characters the rest of a screen must hold to count as Traditional. */
const TRAD_SCREEN_MIN = 6;
/** …and how many times its Simplified-only ones (a zh-Hant app may list a Simplified title or two). */
const TRAD_SCREEN_RATIO = 4;

/** Whether a screen's other lines, with `hant` Traditional-only and `hans` Simplified-only characters, are Traditional. */
function tradScreen(hant: number, hans: number): boolean {
  return hant >= TRAD_SCREEN_MIN && hant >= TRAD_SCREEN_RATIO * hans;
}

/**
 * Bring each line to one Chinese script: a line with more Traditional-only than Simplified-only
 * characters has its Simplified-only ones converted (`號(近市政中心左侧` → `左側`), and the other way round;
 * a line with as many of each takes the screen's majority (a screen is one app's localisation), and one
 * with none is left alone. A line read with a Simplified-only character or two and no Traditional one, on a
 * screen whose other lines read Traditional (`tradScreen`), is Traditional (see `WEAK_HANS`). Lines with kana (Japanese) are never touched. Returns new strings, same order.
 */
export function unifyHanScript(texts: readonly string[]): string[] {
  const counts = texts.map((t) => (KANA.test(t) ? { hans: 0, hant: 0 } : hanScriptCounts(t)));
  const screen = counts.reduce((s, c) => s + c.hant - c.hans, 0);
  const unified = texts.map((text, i) => {
    const c = counts[i] ?? { hans: 0, hant: 0 };
    if (c.hans === 0 && c.hant === 0) return text;
    const lean = c.hant - c.hans !== 0 ? c.hant - c.hans : screen;
    if (lean === 0) return text;
    const map = lean > 0 ? TO_HANT : TO_HANS;
    return Array.from(text, (ch) => map.get(ch) ?? ch).join("");
  });
  // The screen's script once each line is in one: a weak Simplified line on a Traditional screen follows it.
  const after = unified.map((t, i) =>
    KANA.test(texts[i] ?? "") ? { hans: 0, hant: 0 } : hanScriptCounts(t),
  );
  const hant = after.reduce((s, c) => s + c.hant, 0);
  const hans = after.reduce((s, c) => s + c.hans, 0);
  return unified.map((text, i) => {
    const c = after[i] ?? { hans: 0, hant: 0 };
    if (c.hant > 0 || c.hans === 0 || c.hans > WEAK_HANS || !tradScreen(hant, hans - c.hans)) return text;
    return Array.from(text, (ch) => TO_HANT.get(ch) ?? ch).join("");
  });
}

/**
 * Lowest runner-up score of a Han class on a skipped glyph's frames for it to be put back. Measured on
 * the real development set: `從` (absent from the dictionary) left blank frames where `从` scored
 * 0.06–0.26; over the same set's other CJK lines no blank frame a pitch away from its neighbours had a Han
 * runner-up above 0.05 that was not a real glyph (`tests: test/vision/ocr/cjk.test.ts`).
 */
export const SKIPPED_HAN_SCORE = 0.05;

/**
 * Lowest runner-up score of a kana class on a skipped glyph's frames for it to be put back as itself.
 * Chinese names and titles borrow kana (`恋爱の审判者`: の for 的), which a recogniser trained on
 * Chinese text scores low under blur: on a camera frame `の` lost to the blank at 0.33, on the sharp
 * screenshot it was read. Unlike a Simplified runner-up standing in for an absent Traditional form, a
 * kana runner-up is the glyph's own class, so it needs a real share of the frame, not a trace.
 */
export const SKIPPED_KANA_SCORE = 0.2;

/** Fraction of the line's glyph pitch a skipped glyph's frame must lie from both emitted neighbours. */
const SKIP_DISTANCE = 0.75;

/**
 * Put back Han glyphs the greedy decode skipped. Han glyphs are square and set on a fixed pitch
 * (PingFang's ideographs are all one em wide), so on a Han line the characters' CTC steps are evenly
 * spaced; a blank stretch at least 1.5 pitches long before or between two Han characters held a glyph the
 * model had no class for. Where such a stretch's best non-blank class (on frames at least
 * `SKIP_DISTANCE` pitches from both neighbours) is a Simplified-only character scoring at least
 * `minScore`, its Traditional form is inserted there: the dictionary holds the common Simplified set
 * (GB 2312's characters) but not many Traditional ones, so a glyph it has no class for is Traditional, and
 * the runner-up is its Simplified form (`從` → `从`). A kana runner-up scoring at least
 * `SKIPPED_KANA_SCORE` is put back as itself (see there). Any other runner-up (`一`, `白` next to an icon, `壇`
 * for the absent `塭`) proves nothing and is left out. The pitch is the median step gap of adjacent Han characters (at least two
 * gaps needed); a line's end is left alone (the batch's padding frames follow it).
 */
export function recoverSkippedHan(
  r: CtcResult,
  probs: Float32Array,
  offset: number,
  classes: number,
  dictionary: readonly string[],
  minScore = SKIPPED_HAN_SCORE,
): CtcResult {
  const isHan = (i: number) => HAN.test(r.chars[i] ?? "");
  const gaps: number[] = [];
  for (let i = 1; i < r.chars.length; i++)
    if (isHan(i) && isHan(i - 1)) gaps.push((r.steps[i] ?? 0) - (r.steps[i - 1] ?? 0));
  if (gaps.length < 2) return r;
  gaps.sort((a, b) => a - b);
  const pitch = gaps[Math.floor(gaps.length / 2)] ?? 0;
  if (pitch <= 0) return r;
  const reach = SKIP_DISTANCE * pitch;
  const inserts: { at: number; char: string; score: number; step: number }[] = [];
  for (let i = 0; i < r.chars.length; i++) {
    if (!isHan(i) || (i > 0 && !isHan(i - 1))) continue;
    const next = r.steps[i] ?? 0;
    const prev = i > 0 ? (r.steps[i - 1] ?? 0) : -Infinity;
    let best = { score: minScore, char: "", step: -1 };
    for (let t = Math.max(0, Math.ceil(prev + reach)); t <= next - reach; t++) {
      const base = offset + t * classes;
      let top = 0;
      for (let c = 1; c < classes; c++) if ((probs[base + c] ?? 0) > (probs[base + top] ?? 0)) top = c;
      if (top !== 0) continue;
      for (let c = 1; c < classes; c++) {
        const s = probs[base + c] ?? 0;
        const ch = dictionary[c - 1] ?? "";
        const put = TO_HANT.get(ch) ?? (s >= SKIPPED_KANA_SCORE && KANA.test(ch) ? ch : undefined);
        if (s >= best.score && put !== undefined) best = { score: s, char: put, step: t };
      }
    }
    if (best.step >= 0) inserts.push({ at: i, ...best });
  }
  if (inserts.length === 0) return r;
  const out: CtcResult = { chars: [], scores: [], steps: [], length: r.length, spaceBefore: [] };
  r.chars.forEach((c, i) => {
    for (const ins of inserts.filter((x) => x.at === i)) {
      out.chars.push(ins.char);
      // Its presence is set by the pitch, only its identity is uncertain: the line's confidence keeps
      // the neighbour's score rather than dropping a long Traditional title below \`minConfidence\`.
      out.scores.push(r.scores[i] ?? ins.score);
      out.steps.push(ins.step);
      out.spaceBefore.push(r.spaceBefore[i] ?? 0);
    }
    out.chars.push(c);
    out.scores.push(r.scores[i] ?? 0);
    out.steps.push(r.steps[i] ?? 0);
    out.spaceBefore.push(inserts.some((x) => x.at === i) ? 0 : (r.spaceBefore[i] ?? 0));
  });
  return out;
}

/** Median step gap of adjacent Han characters in `r.chars[from…to)`, or 0 with none. */
export function hanPitch(r: CtcResult, from: number, to: number): number {
  const gaps: number[] = [];
  for (let i = from + 1; i < to; i++)
    if (HAN.test(r.chars[i] ?? "") && HAN.test(r.chars[i - 1] ?? ""))
      gaps.push((r.steps[i] ?? 0) - (r.steps[i - 1] ?? 0));
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}

/**
 * Distance, in Han glyph pitches, from a leading character to the Chinese word after it beyond which
 * the character is an icon. An icon iOS sets before a label (a symbol of 17–22 pt and a gap of 8 pt or
 * more) puts the label's first glyph ≥ 1.5 em away; a letter and a space before a Chinese word (`B 站`,
 * Apple's zh style of spacing Latin from Han) sit under 1 em away. Measured on the real set: icons read
 * as `√ S 吕 科` were 1.7–2.3 pitches from the label.
 */
const ICON_PITCHES = 1.3;

/**
 * Whether `r.chars[start]`, a single character followed by a space and then a Han character at `next`,
 * is an icon the text detector boxed with a Chinese label (`√ 转换`, `S 发件人`, `吕 控制`): Chinese sets
 * no space between Han characters, so a lone character set apart before a Chinese word is a symbol,
 * unless it is a digit (`3 个项目`) or close enough to be a letter and a space (`ICON_PITCHES`). The pitch
 * comes from the label's own adjacent Han characters; without two of them nothing is cut.
 */
export function iconBeforeHan(r: CtcResult, start: number, next: number): boolean {
  const first = r.chars[start] ?? "";
  if (next <= start + 1 || /\p{N}/u.test(first) || !HAN.test(r.chars[next] ?? "")) return false;
  const pitch = hanPitch(r, next, r.chars.length);
  return pitch > 0 && (r.steps[next] ?? 0) - (r.steps[start] ?? 0) >= ICON_PITCHES * pitch;
}

/**
 * End of the text once a trailing question mark set apart by a space is cut from a line with Han in it
 * (`近60场平均KDA ？`): Chinese punctuation follows its text with no space (GB/T 15834, each mark takes
 * its own em), so a lone `？` after a space is the ⓘ / ? help symbol iOS apps put after a label. `end`
 * unchanged otherwise.
 */
export function trailingHelpMark(chars: readonly string[], start: number, end: number): number {
  const last = chars[end - 1] ?? "";
  if (end - start < 3 || (last !== "？" && last !== "?") || (chars[end - 2] ?? "").trim() !== "") return end;
  if (!chars.slice(start, end).some((c) => HAN.test(c))) return end;
  let cut = end - 1;
  while (cut > start && (chars[cut - 1] ?? "").trim() === "") cut--;
  return cut;
}

/**
 * Distance, in Han glyph pitches, between two characters' steps beyond which a line holds two labels the
 * detector boxed together (a rank and a name `13 云风`, a title and a radio button `预览 ● 原图`). Inside
 * one Chinese label the next glyph follows within a pitch (punctuation takes its own em; a space before
 * a Latin word adds a quarter em); a gap of 1.6 em or more is layout, not text.
 */
export const SPLIT_PITCHES = 1.6;

/**
 * Between two Han characters a gap must be wider than this many pitches to split: a glyph the dictionary
 * has no class for leaves a blank of one pitch between its neighbours (a gap of 2 pitches, ± half a
 * pitch of emission jitter; `水萍塭公園` read `水萍 公園`), which is one label, not two.
 */
export const HAN_SPLIT_PITCHES = 2.5;

/** One label of a split line: its characters and the fractions of the crop's width it spans. */
export interface LinePiece {
  r: CtcResult;
  begin: number;
  end: number;
}

/**
 * Split a decoded line where two characters, one of them Han, stand `SPLIT_PITCHES` Han pitches apart
 * or more, or two Han characters more than `HAN_SPLIT_PITCHES` (spaces between them ignored). Needs two adjacent Han characters for the pitch;
 * otherwise, and with no such gap, the line is one piece spanning the crop. Piece edges lie halfway
 * between the characters on either side of the gap. `cropWidth`/`paddedWidth` as for `finishText`.
 */
export function splitAtHanGaps(r: CtcResult, cropWidth: number, paddedWidth: number): LinePiece[] {
  const whole = [{ r, begin: 0, end: 1 }];
  const pitch = hanPitch(r, 0, r.chars.length);
  if (pitch <= 0 || r.length <= 0) return whole;
  const colPerStep = paddedWidth / r.length;
  const cuts: { at: number; x: number }[] = [];
  let prev = -1;
  r.chars.forEach((c, i) => {
    if (c.trim() === "") return;
    const p = r.chars[prev] ?? "";
    const gap = (r.steps[i] ?? 0) - (r.steps[prev] ?? 0);
    const han = HAN.test(c) && HAN.test(p);
    const wide = han ? gap > HAN_SPLIT_PITCHES * pitch : gap >= SPLIT_PITCHES * pitch;
    if (prev >= 0 && (HAN.test(c) || HAN.test(p)) && wide) {
      const mid = ((r.steps[prev] ?? 0) + (r.steps[i] ?? 0)) / 2 + 0.5;
      cuts.push({ at: i, x: Math.max(0, Math.min(1, (mid * colPerStep) / cropWidth)) });
    }
    prev = i;
  });
  if (cuts.length === 0) return whole;
  const bounds = [{ at: 0, x: 0 }, ...cuts, { at: r.chars.length, x: 1 }];
  return bounds.slice(1).map((b, k) => {
    const a = bounds[k] ?? { at: 0, x: 0 };
    return {
      r: {
        chars: r.chars.slice(a.at, b.at),
        scores: r.scores.slice(a.at, b.at),
        steps: r.steps.slice(a.at, b.at),
        length: r.length,
        spaceBefore: r.spaceBefore.slice(a.at, b.at),
        ...(r.alts && r.altScores
          ? { alts: r.alts.slice(a.at, b.at), altScores: r.altScores.slice(a.at, b.at) }
          : {}),
      },
      begin: a.x,
      end: b.x,
    };
  });
}
