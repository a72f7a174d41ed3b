import type { RgbImage } from "../../shared/image.js";
import { type GlyphAt, type InkComponent, inkComponents } from "./dashes.js";
import type { PixelBox } from "./detect.js";

/**
 * The copyright sign, which the recogniser's dictionary (`ppocr_keys_v1.txt`) lacks (it has `®`), so
 * a credit line `© J R Eyerman/Shutterstock` decodes with blank frames where the sign stands (`O`, `@`
 * the runners-up). Its ink is unmistakable: a ring about as tall as a capital with an open letter (C)
 * inside, standing apart; a radio button or target icon holds a filled dot instead.
 */

/** Whether `inner` lies inside `ring`'s bounds without touching them. */
function inside(inner: InkComponent, ring: InkComponent): boolean {
  return inner.x0 > ring.x0 && inner.x1 < ring.x1 && inner.y0 > ring.y0 && inner.y1 < ring.y1;
}

/**
 * `text` with `© ` put back in front when the line's leftmost ink (`line`, the ink box in `image`) is
 * such a ring and the first character was read right of it (`first`: where it was read). The ring:
 * 55–100% of the line's ink height, width within 25% of its height; inside it a component 25–70% of
 * its height that fills under 60% of its bounds (a C's stroke; a dot fills ~80%).
 */
export function leadingCopyright(
  text: string,
  first: GlyphAt | undefined,
  image: RgbImage,
  line: PixelBox,
): string {
  if (first?.index !== 0 || text === "" || /^[©®]/u.test(text)) return text;
  // Cheap test first: the first character read sits a glyph and a space (≥ 1 line height) right of
  // the ink's left edge only when something before it went unread.
  if (first.x - line.x0 < line.y1 - line.y0) return text;
  const comps = inkComponents(image, line);
  const ring = comps[0];
  if (!ring) return text;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const c of comps) {
    top = Math.min(top, c.y0);
    bottom = Math.max(bottom, c.y1);
  }
  const lineH = bottom - top + 1;
  const h = ring.y1 - ring.y0 + 1;
  const w = ring.x1 - ring.x0 + 1;
  if (h < 0.55 * lineH || h > lineH || Math.abs(w - h) > 0.25 * h || first.x <= ring.x1) return text;
  const letter = comps.some((c) => {
    const ch = c.y1 - c.y0 + 1;
    const fill = c.n / ((c.x1 - c.x0 + 1) * ch);
    return c !== ring && inside(c, ring) && ch >= 0.25 * h && ch <= 0.7 * h && fill < 0.6;
  });
  return letter ? `© ${text}` : text;
}
