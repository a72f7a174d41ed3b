import type { PixelBox } from "./detect.js";

/**
 * The detection map's word on a stretch of a line, where the DB post-process kept no region: how sure
 * the map was, at its surest pixel, that text lies in a box of the screen.
 *
 * Small, dimmed or grey text (a caption 11–12 pt on the page UIKit dims behind a sheet or alert with a
 * black overlay, `secondaryLabel` grey on black) is a few map rows tall on the 320 px map, and the map
 * fires on parts of it only: `Last Checkin: 1 Hour ago` behind FordPass's action sheet gives `Last Ch` a
 * region and the rest of the line one blip of 5 × 2 map pixels over `ago` (peak 0.89), which the
 * post-process drops (shorter than `minSide`). A blip like that is no region (picture fragments fire
 * alike: h-camtext4 found 21 of 26 dropped thin kernels on no text), but beside a region whose line's ink
 * runs on across a word space to it, it says that ink is text: `extend.ts` asks it only there.
 */
export type MapHint = (box: PixelBox) => number;

/**
 * A `MapHint` over a DB map `width`×`height` computed for an image `fx`×`fy` times larger (box
 * coordinates are the image's). Reads the map in place; a box outside the map scores 0.
 */
export function mapHint(prob: Float32Array, width: number, height: number, fx: number, fy: number): MapHint {
  return (box) => {
    const x0 = Math.max(0, Math.floor(box.x0 / fx));
    const x1 = Math.min(width, Math.ceil(box.x1 / fx));
    const y0 = Math.max(0, Math.floor(box.y0 / fy));
    const y1 = Math.min(height, Math.ceil(box.y1 / fy));
    let peak = 0;
    for (let y = y0; y < y1; y++) {
      const row = y * width;
      for (let x = x0; x < x1; x++) peak = Math.max(peak, prob[row + x] ?? 0);
    }
    return peak;
  };
}
