import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * A passcode field's indicators: the lock screen's "Enter Passcode" and the many app passcode views
 * modelled on it draw one glyph per digit — 4 or 6 empty circles or dashes that fill in as digits are
 * typed — in one centred row under a centred prompt, above a numeric keypad. They show progress and
 * take no taps (the keypad does the typing), yet the detector boxes each as an icon.
 *
 * So: three or more icon rows on one line (centres within half their height), each narrower than a
 * 44 pt button of a 320 pt screen (two indicators run together may come out as one box, up to twice
 * that), the group centred on the screen and under a centred text row (the prompt) no further than
 * three of their heights above, with a numeric keypad (`key` rows for at least nine digits) on screen.
 */

/** Indicators on one line: at least this many (the field has 4 or 6; a few may be missed). */
const MIN_DOTS = 3;
/** An indicator is narrower than this fraction of the width (a 44 pt button on a 320 pt screen). */
const MAX_DOT_W = 0.14;
/** The group's midpoint is within this fraction of the width of the screen's middle. */
const CENTRED = 0.06;
/** The prompt is no further above the indicators than this many of their heights. */
const PROMPT_GAP = 3;

/** The icon rows of `rows` that are a passcode field's indicators (see the module comment). */
export function passcodeDots(rows: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const digits = new Set(rows.filter((r) => r.kind === "key" && /^[0-9]$/.test(r.label)).map((r) => r.label));
  if (digits.size < 9) return out;
  const icons = rows.filter((r) => r.kind === "icon" && boxWidth(r.box) < 2 * MAX_DOT_W);
  for (const seed of icons) {
    if (out.has(seed)) continue;
    const line = icons.filter(
      (r) =>
        Math.abs(centreY(r.box) - centreY(seed.box)) < 0.5 * Math.max(boxHeight(r.box), boxHeight(seed.box)),
    );
    if (line.filter((r) => boxWidth(r.box) < MAX_DOT_W).length < MIN_DOTS) continue;
    const left = Math.min(...line.map((r) => r.box[0]));
    const right = Math.max(...line.map((r) => r.box[2]));
    if (Math.abs((left + right) / 2 - 0.5) > CENTRED) continue;
    const top = Math.min(...line.map((r) => r.box[1]));
    const h = Math.max(...line.map((r) => boxHeight(r.box)));
    const prompt = rows.some(
      (r) =>
        r.kind === "text" &&
        Math.abs(centreX(r.box) - 0.5) < CENTRED &&
        r.box[3] <= top + 0.25 * h &&
        r.box[3] > top - PROMPT_GAP * h,
    );
    if (!prompt) continue;
    // A keypad sits below the field: the indicators are above every digit key.
    const keysTop = Math.min(...rows.filter((r) => r.kind === "key").map((r) => r.box[1]));
    if (keysTop < top) continue;
    for (const r of line) out.add(r);
  }
  return out;
}
