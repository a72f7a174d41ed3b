/**
 * Look-alike glyphs chosen by the line's context, as a reader does. In SF Pro (and most UI faces) the
 * capital `I` and the small `l` are one plain stem that differ only by the ascender's ~0.05 em over the
 * cap height, and the capital `O` and the digit `0` are ovals a few percent apart in width (Apple, SF Pro
 * font metrics); on a 13–17 pt label, and through a camera's blur, that is a pixel or less, so the
 * recogniser's choice between them is close to a coin toss. It still ranks the other glyph as its
 * runner-up on those frames (`CtcResult.alts`, `ctc.ts`): a character is swapped only for the runner-up
 * the recogniser itself offered, and only where English spelling or number formatting leaves one of the
 * two possible:
 *
 * - **A doubled bar after a word's capital** (`AII`, `AlI` → `All`): no English word has `II` or `lI`
 *   after its first letter except Roman numerals (`XII`, `VII`), which use only I V X L C D M; `ll` is
 *   common (`All`, `Allow`). The camera's blur reads `All` as `AlI` (a stem smeared into the next).
 * - **A bar starting a word before a letter that never follows an initial `l`** (`ldle` → `Idle`,
 *   `lD` → `ID`): English words begin `l` + vowel, `y` or `l` (`llama`); `I` + d, g, k, r, v, z
 *   (`Idle`, `Ignore`, `Ikea`, `Iron`, `Ivory`, `Izmir`) or a capital (`ID`, `IP`) is common.
 *   (`capitalI` in `recognize.ts` already takes c f m n s t without asking the recogniser.)
 * - **A lone `O` before a small-letter word** (`O items` → `0 items`): a count stands there; English
 *   has no one-letter word `O` in UI text (the vocative is poetry). An `O` inside a run of digits and
 *   separators (`1O`, `O,5`) is a digit likewise.
 * - **A lone `1` or `I` after a decimal quantity** (`0,5 1` → `0,5 l`): a quantity with a fraction is a
 *   measurement, which takes a unit; neither `1` nor `I` is one, the litre symbol `l` is (Foundation's
 *   `MeasurementFormatter` prints `l` for litres in most locales).
 * - **A lone round glyph before a bar, the whole line** (`ol` → `0l`): a text field's one character and
 *   its caret (UIKit's 2 pt tinted insertion bar, which `caret.ts` then cuts); no word is `ol`, and a
 *   numeric field's value or placeholder (`0`) is what stands alone in a field.
 */

/** Roman numerals' letters: a word of one of these and `I`s may be a numeral (`XII`, `VII`). */
const ROMAN = /^[IVXLCDM]$/u;
/** Letters no English word puts after an initial `l`, but many after an initial `I`. */
const AFTER_INITIAL_I = /^[dgkrvzA-Z]$/u;
const LETTER = /^[A-Za-z]$/u;
const SMALL = /^[a-z]$/u;
const DIGIT = /^[0-9]$/u;
/** The stems `I` and `l`. */
const BAR = /^[lI]$/u;

/** The recogniser's runner-up for character `i` when it is one of `wanted` (with any score), else undefined. */
function offered(alts: readonly string[], scores: readonly number[], i: number, wanted: string): boolean {
  return (scores[i] ?? 0) > 0 && wanted.includes(alts[i] ?? "\u0000");
}

/**
 * `chars` (one decoded character each, as `finishText` holds them) with look-alikes swapped for their
 * runner-up where the context above allows only that one. `alts`/`altScores` parallel `chars`; without
 * them nothing changes. Returns a new array of the same length (indices into it stay valid).
 */
export function lookAlikes(
  chars: readonly string[],
  alts: readonly string[] | undefined,
  altScores: readonly number[] | undefined,
): string[] {
  const out = [...chars];
  if (!alts || !altScores || alts.length !== chars.length) return out;
  const at = (i: number) => out[i] ?? "";
  const isLetter = (i: number) => LETTER.test(at(i));
  if (
    out.length === 2 &&
    /^[oO]$/u.test(at(0)) &&
    /^[lI|1]$/u.test(at(1)) &&
    offered(alts, altScores, 0, "0")
  )
    out[0] = "0";
  for (let i = 0; i < out.length; i++) {
    const c = at(i);
    const startsWord = !isLetter(i - 1) && !DIGIT.test(at(i - 1));
    // A run of two or more bars after the word's first letter, a capital that is no Roman numeral's:
    // each `I` in it must have had `l` as its runner-up (`AII`, `AlI` through a camera's blur).
    if (BAR.test(c) && BAR.test(at(i + 1)) && /^[A-Z]$/u.test(at(i - 1)) && !ROMAN.test(at(i - 1))) {
      const first = i - 1;
      let end = i;
      while (BAR.test(at(end))) end++;
      const wordStart = !isLetter(first - 1) && !DIGIT.test(at(first - 1));
      const tail = (k: number): boolean => !isLetter(k) || (SMALL.test(at(k)) && tail(k + 1));
      let capitals = 0;
      let runnerUps = true;
      for (let k = i; k < end; k++)
        if (at(k) === "I") {
          capitals++;
          runnerUps &&= offered(alts, altScores, k, "l");
        }
      if (wordStart && tail(end) && capitals > 0 && runnerUps) for (let k = i; k < end; k++) out[k] = "l";
      i = end - 1;
      continue;
    }
    // A bar starting a word before a letter that follows `I`, never `l`.
    if (c === "l" && startsWord && AFTER_INITIAL_I.test(at(i + 1)) && offered(alts, altScores, i, "I")) {
      out[i] = "I";
      continue;
    }
    if (c === "O" && offered(alts, altScores, i, "0")) {
      // A lone `O` before a small-letter word.
      const lone = startsWord && at(i + 1) === " " && SMALL.test(at(i + 2));
      // An `O` among digits and separators (`1O`, `O,5`), in a run holding no letter.
      let k0 = i;
      while (k0 > 0 && /^[0-9O.,:]$/u.test(at(k0 - 1))) k0--;
      let k1 = i + 1;
      while (k1 < out.length && /^[0-9O.,:]$/u.test(at(k1))) k1++;
      const run = out.slice(k0, k1);
      const numeric = !isLetter(k0 - 1) && !isLetter(k1) && run.some((x) => DIGIT.test(x));
      if (lone || numeric) out[i] = "0";
      continue;
    }
    // A lone `1` / `I` after a decimal quantity, ending the line or before punctuation.
    if (
      (c === "1" || c === "I") &&
      at(i - 1) === " " &&
      !isLetter(i + 1) &&
      !DIGIT.test(at(i + 1)) &&
      decimalBefore(out, i - 1) &&
      offered(alts, altScores, i, c === "1" ? "lI" : "l1")
    )
      out[i] = "l";
  }
  return out;
}

/** Whether the characters before index `space` end in a number with a decimal fraction (`0,5`, `1.25`). */
function decimalBefore(chars: readonly string[], space: number): boolean {
  let k = space - 1;
  let after = 0;
  while (DIGIT.test(chars[k] ?? "")) {
    k--;
    after++;
  }
  if (after === 0 || (chars[k] !== "," && chars[k] !== ".")) return false;
  k--;
  if (!DIGIT.test(chars[k] ?? "")) return false;
  while (DIGIT.test(chars[k] ?? "")) k--;
  return !LETTER.test(chars[k] ?? "");
}
