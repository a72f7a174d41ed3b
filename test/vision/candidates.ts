import type { RealScreen } from "../../src/lab/real/labels.js";
import type { Candidate } from "../../src/vision/row.js";

/** A listing candidate as tests build them: kind, label, box, and a middling confidence. */
export const row = (
  kind: Candidate["kind"],
  label: string,
  box: Candidate["box"],
  conf = 0.5,
): Candidate => ({
  kind,
  label,
  box,
  conf,
});

/** A labelled screen's text lines as the text rows a perfect OCR would give. */
export const labelTexts = (label: RealScreen): Candidate[] =>
  label.text.map((t) => row("text", t.text, t.box));
