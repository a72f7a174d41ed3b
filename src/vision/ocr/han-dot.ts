import type { RgbImage } from "../../shared/image.js";
import { inkComponents } from "./dashes.js";
import type { PixelBox } from "./detect.js";

/**
 * The radical `丶` (U+4E36, a lone dot; a common flourish at the end of a player's or user's name) read
 * as the ideographic comma `、` (U+3001) at the end of a Chinese line. Through a camera's blur the two
 * strokes look alike and the recogniser picks the comma; their place in the em does not change: the
 * comma sits low in its em, the radical's dot high. In Noto Sans SC's outlines (`assets/fonts/`; iOS
 * draws PingFang, whose comma and radical sit alike) a Han glyph's ink spans y −80…834 (units of
 * 1000), the comma's −56…224 (its top 0.67 of the Han ink height down), the radical's 211…616 (0.24
 * down); on a leaderboard (`战场求败丶`) the radical's top measures 0.26 down in the screenshot, 0.29 filmed.
 * A comma ends no label (it separates two items), so only a
 * line's last character is judged: the last ink component, a dot (small both ways), whose top lies in
 * the upper half of the line's ink is the radical.
 */

/** The dot's top above this share of the line's ink height, from the top: the radical's dot. */
const RADICAL_TOP = 0.5;
/** A dot's largest side, as a share of the line's ink height (an ideograph is ~1). */
const DOT_SIZE = 0.5;

/** `text` with a trailing `、` after a Han character made `丶` when its ink stands high in the line. */
export function trailingHanDot(text: string, image: RgbImage, line: PixelBox): string {
  if (!/\p{Script=Han}、$/u.test(text)) return text;
  const comps = inkComponents(image, line);
  const dot = comps[comps.length - 1];
  if (!dot || comps.length < 2) return text;
  const top = Math.min(...comps.map((c) => c.y0));
  const bottom = Math.max(...comps.map((c) => c.y1));
  const h = bottom - top + 1;
  if (dot.x1 - dot.x0 + 1 > DOT_SIZE * h || dot.y1 - dot.y0 + 1 > DOT_SIZE * h) return text;
  // The dot must be the last glyph alone: nothing else ink ends to its right.
  if (comps.some((c) => c !== dot && c.x1 >= dot.x0)) return text;
  return (dot.y0 - top) / h < RADICAL_TOP ? `${text.slice(0, -1)}丶` : text;
}
