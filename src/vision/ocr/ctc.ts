/**
 * CTC decoding of PaddleOCR's recogniser output (`[N, T, C]` softmax scores; class 0 the blank): the
 * greedy decode, the word spaces it drops, and a line's confidence. `recognize.ts` finishes the text.
 */

/** One decoded sequence: characters (one dictionary entry each), their scores and time steps. */
export interface CtcResult {
  chars: string[];
  scores: number[];
  /** Time step each character was emitted at (its first frame), for placing it along the crop. */
  steps: number[];
  /** Number of time steps in the sequence (the model's output length for the padded crop). */
  length: number;
  /**
   * Per character: the highest score the space class reached on the frames between the previous
   * character and this one (0 for the first). The recogniser often prefers a blank over the space
   * class between words, yet still leans towards a space there; `finishText` uses this to restore them.
   */
  spaceBefore: number[];
  /**
   * Per character: for a space `restoreSpaces` put back, the space class's score it was put back on
   * (0 for every other character; absent before `restoreSpaces`). A weak one may sit inside a word
   * (`word-spaces.ts` asks the ink).
   */
  restored?: number[];
  /**
   * Per character: the recogniser's runner-up character on the frames it won (the best non-blank class
   * other than it, over its run of frames) and that class's highest score there (`""` / 0 for none).
   * `look-alikes.ts` lets a line's context choose between a glyph and its runner-up (`I`/`l`, `O`/`0`).
   */
  alts?: string[];
  altScores?: number[];
}

/**
 * Greedy CTC decode of one sequence: `probs` holds `steps`×`classes` softmax scores; class 0 is the
 * blank, class k ≥ 1 is `dictionary[k − 1]`; repeats without a blank between collapse into one.
 *
 * With `partners` (class → the class of the same character's other Chinese script, 0 for none:
 * `variantPartners` in `cjk.ts`), a character's score on a frame is the sum of both forms' scores: the
 * recogniser, trained mostly on Simplified text, splits a Traditional glyph's score between its two
 * forms (`營` 0.38, `营` 0.20, `管` 0.18), which a line's script fixes afterwards (`unifyHanScript`), so
 * the character wins the frame (over a look-alike or the blank) with their sum, emitted as the
 * higher-scoring form. Both forms of one character on adjacent frames are one emission.
 */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  dictionary: readonly string[],
  partners?: Int32Array,
): CtcResult {
  const alts: string[] = [];
  const altScores: number[] = [];
  const out: CtcResult = { ...emptyResult(steps), alts, altScores };
  // The space class is the dictionary's last entry (PaddleOCR's use_space_char), CTC class `classes − 1`.
  const spaceClass = dictionary[classes - 2] === " " ? classes - 1 : -1;
  // Both forms of a character share one key, so a run switching between them collapses.
  const key = (c: number) => Math.min(c, partners?.[c] || c);
  let last = 0;
  let space = 0;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestScore = -1;
    // The runners-up (second and third), for a character whose two forms together outscore `best`.
    let second = 0;
    let secondScore = -1;
    let third = 0;
    let thirdScore = -1;
    for (let c = 0; c < classes; c++) {
      const s = probs[base + c] ?? 0;
      if (s <= thirdScore) continue;
      if (s > bestScore) {
        third = second;
        thirdScore = secondScore;
        second = best;
        secondScore = bestScore;
        best = c;
        bestScore = s;
      } else if (s > secondScore) {
        third = second;
        thirdScore = secondScore;
        second = c;
        secondScore = s;
      } else {
        third = c;
        thirdScore = s;
      }
    }
    if (partners) {
      const merged = (c: number) => {
        const p = partners[c] ?? 0;
        return (probs[base + c] ?? 0) + (c > 0 && p > 0 ? (probs[base + p] ?? 0) : 0);
      };
      bestScore = merged(best);
      for (const c of [second, third])
        if (c > 0 && (partners[c] ?? 0) > 0) {
          const m = merged(c);
          if (m > bestScore) {
            best = c;
            bestScore = m;
          }
        }
      const other = best > 0 ? (partners[best] ?? 0) : 0;
      if (other > 0 && (probs[base + other] ?? 0) > (probs[base + best] ?? 0)) best = other;
    }
    // The runner-up on this frame: the best non-blank class that is not the winner's character.
    const runnerUp = second !== 0 && key(second) !== key(best) ? second : third;
    const runnerScore = runnerUp !== 0 && key(runnerUp) !== key(best) ? (probs[base + runnerUp] ?? 0) : 0;
    if (best !== 0 && key(best) !== last) {
      out.chars.push(dictionary[best - 1] ?? "");
      out.scores.push(Math.min(1, bestScore));
      out.steps.push(t);
      out.spaceBefore.push(out.chars.length > 1 ? space : 0);
      alts.push(runnerScore > 0 ? (dictionary[runnerUp - 1] ?? "") : "");
      altScores.push(runnerScore);
      space = 0;
    } else if (best !== 0) {
      // The same character's run goes on: keep its strongest runner-up.
      const k = alts.length - 1;
      if (runnerScore > (altScores[k] ?? 0)) {
        alts[k] = dictionary[runnerUp - 1] ?? "";
        altScores[k] = runnerScore;
      }
    } else if (spaceClass > 0) {
      space = Math.max(space, probs[base + spaceClass] ?? 0);
    }
    last = best === 0 ? 0 : key(best);
  }
  return out;
}

/**
 * The space class's score between two characters above which a space is restored. Measured on the 24
 * simulated screens at the default rectified width: the recogniser emitted 62 of 70 word gaps as spaces;
 * the missed ones scored 0.06–0.5 here while no gap inside a word scored above 0.005.
 */
export const SPACE_SCORE = 0.02;

/** A result with no characters yet, over `length` time steps (what decode and restoreSpaces fill in). */
function emptyResult(length: number): CtcResult {
  return { chars: [], scores: [], steps: [], length, spaceBefore: [] };
}

/**
 * Put back the spaces the greedy decode dropped between words: where the space class scored at least
 * `SPACE_SCORE` between two characters, and after a comma (`Today,-5HRS` → `Today, -5HRS`) unless it
 * sits between digits (`1,000`). Inserted spaces take the next character's score and the step halfway
 * between their neighbours' (the gap's middle: `split.ts` looks for a space inside a wide gap).
 */
export function restoreSpaces(r: CtcResult, minScore = SPACE_SCORE): CtcResult {
  const restored: number[] = [];
  const alts: string[] = [];
  const altScores: number[] = [];
  const out: CtcResult = { ...emptyResult(r.length), restored, ...(r.alts ? { alts, altScores } : {}) };
  const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
  r.chars.forEach((c, i) => {
    const prev = out.chars[out.chars.length - 1];
    const score = r.scores[i] ?? 0;
    const step = r.steps[i] ?? 0;
    // An ASCII comma only: Chinese text puts no space after its full-width comma.
    const afterComma = prev === "," && !(isDigit(out.chars[out.chars.length - 2]) && isDigit(c));
    const gap = (r.spaceBefore[i] ?? 0) >= minScore || afterComma;
    if (i > 0 && prev !== undefined && prev !== " " && c !== " " && gap) {
      out.chars.push(" ");
      out.scores.push(score);
      out.steps.push(((out.steps[out.steps.length - 1] ?? step) + step) / 2);
      out.spaceBefore.push(0);
      alts.push("");
      altScores.push(0);
      // After a comma the space is certain (no weak score to record).
      restored.push(afterComma ? 0 : (r.spaceBefore[i] ?? 0));
    }
    out.chars.push(c);
    out.scores.push(score);
    out.steps.push(step);
    out.spaceBefore.push(r.spaceBefore[i] ?? 0);
    alts.push(r.alts?.[i] ?? "");
    altScores.push(r.altScores?.[i] ?? 0);
    restored.push(0);
  });
  return out;
}

/** Mean character score (0 for no characters): the line's confidence. */
export function ctcConfidence(r: CtcResult): number {
  return r.scores.length > 0 ? r.scores.reduce((a, b) => a + b, 0) / r.scores.length : 0;
}
