import type { FracBox } from "../shared/box.js";
import type { Candidate } from "./row.js";

/**
 * A slider track's round end cap read into the value label beside it. UISlider's track ends in a
 * half-disc as tall as the track (2–4 pt); apps set a value label (`20 in`, `75 %`) a few points from
 * the track's end on its centre line, and the OCR reads the cap as one more character of that line —
 * `20 in·`, the line's box running into the track. The cap is trimmed: the dot-like character at the
 * end nearer the track, when the line's box reaches past the track's end (real text stops short of it).
 */

/**
 * Characters a 2–4 pt disc reads as. Not `.`: an abbreviated label (`Satur.`) ends in one and its box may
 * run into the track through a camera (check set 3, camera: `Satur.` read `Satur` when `.` was trimmed).
 */
const CAP = /^[·•∙‧]$/u;

/** Whether a text line centred on the slider's band reaches into its box from the left or the right. */
function into(r: Candidate, s: FracBox): "left" | "right" | undefined {
  const cy = (r.box[1] + r.box[3]) / 2;
  if (cy < s[1] || cy > s[3]) return undefined;
  if (r.box[0] < s[0] && r.box[2] > s[0] && r.box[2] < s[2]) return "left";
  if (r.box[2] > s[2] && r.box[0] < s[2] && r.box[0] > s[0]) return "right";
  return undefined;
}

/**
 * `rows` with each text line that runs into a slider's box (`sliders`) from beside it cut back to the
 * slider's edge, a dot-like last (or, from the right, first) character dropped; other rows unchanged.
 */
export function trimTrackCaps(rows: readonly Candidate[], sliders: readonly FracBox[]): Candidate[] {
  return rows.map((r) => {
    if (r.kind !== "text") return r;
    for (const s of sliders) {
      const side = into(r, s);
      if (!side) continue;
      const chars = [...r.label];
      const end = side === "left" ? chars.length - 1 : 0;
      if (chars.length < 2 || !CAP.test(chars[end] ?? "")) continue;
      chars.splice(end, 1);
      const label = chars.join("").trim();
      const box: FracBox =
        side === "left" ? [r.box[0], r.box[1], s[0], r.box[3]] : [s[2], r.box[1], r.box[2], r.box[3]];
      return { ...r, label, box };
    }
    return r;
  });
}
