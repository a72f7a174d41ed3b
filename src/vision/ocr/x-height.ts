import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop } from "./ink.js";

/**
 * The line's x-height top (image row): the median of the topmost ink row of each inked column of
 * `line` right of `fromX`. Prose is mostly x-height letters (SF Pro: x-height 0.53 em, cap height 0.705,
 * ascenders ≈ 0.75), so the median column top is the x-height line, with capitals and ascenders the
 * few columns above it. Undefined with too little ink (fewer than `MIN_COLUMNS` inked columns).
 *
 * Why a measured line and not a ratio: a camera frame's blur (~1.4 px per point on the rectified
 * screen) grows every glyph by about a pixel at each edge, which moves a small letter's height over
 * the line's ink height from 0.60–0.70 (screenshots) to 0.70–0.77 (filmed `settings`, `chat` on the
 * real dev set) — into the capitals' range — while the x-height line and a glyph's top shift alike.
 */
export function xHeightTop(image: RgbImage, line: PixelBox, fromX: number): number | undefined {
  const g = greyCrop(image, { ...line, x0: Math.max(line.x0, fromX) }, 3, 3);
  if (!g || g.maxDiff < 48) return undefined;
  const t = g.maxDiff / 2;
  const tops: number[] = [];
  for (let x = 0; x < g.w; x++)
    for (let y = 0; y < g.h; y++)
      if (Math.abs((g.grey[y * g.w + x] ?? 0) - g.bg) > t) {
        tops.push(y);
        break;
      }
  if (tops.length < MIN_COLUMNS) return undefined;
  tops.sort((a, b) => a - b);
  return g.y0 + (tops[Math.floor(tops.length / 2)] ?? 0);
}

/** Inked columns needed for a median: a few letters' worth on the smallest camera text (~2 px a stem). */
const MIN_COLUMNS = 12;

/**
 * Whether a first glyph from `top` down to the baseline `bottom` stands at the x-height rather than the
 * cap height, against the line's ink top `capTop` and x-height line `xTop`: its top lies nearer the
 * x-height line. Undefined (no say) when the line shows no x-height line below its top (all capitals
 * or ascenders: `Off`'s `ff`).
 */
export function smallByXHeight(
  top: number,
  bottom: number,
  capTop: number,
  xTop: number | undefined,
): boolean | undefined {
  if (xTop === undefined || xTop - capTop < 0.15 * (bottom - capTop)) return undefined;
  return top - capTop > 0.5 * (xTop - capTop);
}
