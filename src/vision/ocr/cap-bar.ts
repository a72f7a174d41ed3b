import type { RgbImage } from "../../shared/image.js";
import { inkComponents } from "./dashes.js";
import type { PixelBox } from "./detect.js";
import { type GlyphAt, measured } from "./letter-case.js";

/**
 * A capital `I` read as `l` after a capital (`AI` read `Al`). In SF Pro the two are one plain stem and
 * differ only in height: `I` stands at cap height (0.705 em), `l` reaches the ascender line, above it
 * by ~0.05 em (measured 2 px over caps 36 px tall on rc-icecubes-news-dark: `Publishes` `l`/`b`/`h`
 * at 1595, `P` and the stem after `A` at 1597). A bar read `l` after a capital, not followed by a small
 * letter, whose ink top is no higher than that capital's is `I`. Only on lines whose capitals are at
 * least `MIN_CAP` px tall, where the ascender's extra height is over a pixel.
 */

/** Least capital height (px) at which an `l`'s extra height (~0.07 cap heights) shows: 1.7 px. */
const MIN_CAP = 24;
/** An `l` after a capital, not followed by a small letter (`Al-`, `AlOS`; not `Alex`). */
const BAR_AFTER_CAP = /(?<=[A-Z])l(?![a-z])/gu;

/** `text` with each `l` after a capital whose ink stands at the capital's height made `I`. */
export function capitalBars(
  text: string,
  glyphs: readonly GlyphAt[],
  image: RgbImage,
  line: PixelBox,
): string {
  if ([...text].length !== text.length || !/[A-Z]l(?![a-z])/u.test(text)) return text;
  const comps = measured(inkComponents(image, line), glyphs, line.y1 - line.y0);
  const chars = [...text];
  for (const m of text.matchAll(BAR_AFTER_CAP)) {
    const bar = comps.get(m.index);
    const cap = comps.get(m.index - 1);
    if (!bar || !cap || cap.y1 - cap.y0 + 1 < MIN_CAP) continue;
    // Both stand on the baseline; the bar rises no higher than the capital.
    if (Math.abs(bar.y1 - cap.y1) <= 1 && bar.y0 >= cap.y0) chars[m.index] = "I";
  }
  return chars.join("");
}
