import type { RgbImage } from "../../shared/image.js";
import { type InkComponent, inkComponents } from "./dashes.js";
import type { PixelBox } from "./detect.js";

/**
 * Trailing dots counted from the ink. A line ending in a run of periods (`Scanning for networks....`,
 * an app's own `...`) is read with a dot lost when the recogniser's crop or its CTC decode merges the
 * last two (`networks...`). Each dot is its own small round component on the baseline, so the run's
 * length is in the image: when the ink ends in more dots than were read (up to `MAX_DOTS`), the read
 * run is made that long. Only ever lengthened: blur can merge two dots into one component (a camera
 * frame), never split one, so fewer dots in the ink is no evidence. `…` counts as three dots (UIKit's
 * truncation ellipsis is one glyph of three; the evaluation's NFKC folds it to `...`).
 */

/** Longest run of dots rewritten (a "loading" line's dots; more is a leader or a rule). */
const MAX_DOTS = 5;
/** The box is looked at this share of the line's height past its end: the crop may stop before a dot. */
const REACH = 0.6;

/** Whether `c` is a period's dot on a line whose ink spans `top`…`bottom`: small, round, low. */
function isDot(c: InkComponent, top: number, bottom: number): boolean {
  const lineH = bottom - top + 1;
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  return w <= 0.2 * lineH && h <= 0.2 * lineH && w <= 2 * h && h <= 2 * w && c.y0 > top + 0.5 * lineH;
}

/** `text` with its trailing dot run as long as the ink's (`line`: the line's ink box in `image`). */
export function trailingDots(text: string, image: RgbImage, line: PixelBox): string {
  const m = /(?:\.|…)+$/u.exec(text);
  if (!m || m.index === 0) return text;
  const read = [...m[0]].reduce((n, c) => n + (c === "…" ? 3 : 1), 0);
  if (read < 2 || read >= MAX_DOTS) return text;
  const lineH = line.y1 - line.y0;
  const comps = inkComponents(image, { ...line, x1: Math.min(image.width, line.x1 + REACH * lineH) });
  const letters = comps.filter((c) => c.y1 - c.y0 + 1 > 0.3 * lineH);
  if (letters.length === 0) return text;
  const top = Math.min(...letters.map((c) => c.y0));
  const bottom = Math.max(...letters.map((c) => c.y1));
  let n = 0;
  while (n < comps.length && isDot(comps[comps.length - 1 - n] as InkComponent, top, bottom)) n++;
  if (n <= read || n > MAX_DOTS) return text;
  // The dots evenly spaced (a run of periods), not a dot after a gap (a sentence's full stop, a page dot).
  const run = comps.slice(comps.length - n);
  const steps = run.slice(1).map((c, i) => c.x0 - (run[i] as InkComponent).x0);
  const mean = steps.reduce((s, v) => s + v, 0) / steps.length;
  if (steps.some((s) => Math.abs(s - mean) > 0.25 * mean)) return text;
  return text.slice(0, m.index) + ".".repeat(n);
}
