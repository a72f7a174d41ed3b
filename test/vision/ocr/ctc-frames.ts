import type { CtcResult } from "../../../src/vision/ocr/ctc.js";

/**
 * The greedy decode of synthetic frames for the CJK tests: each frame is a character (read at 0.9) or
 * `_` (blank); no spaces.
 */
export function decoded(frames: string[]): CtcResult {
  const r: CtcResult = { chars: [], scores: [], steps: [], length: frames.length, spaceBefore: [] };
  frames.forEach((f, t) => {
    if (f === "_") return;
    r.chars.push(f);
    r.scores.push(0.9);
    r.steps.push(t);
    r.spaceBefore.push(0);
  });
  return r;
}
