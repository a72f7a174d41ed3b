import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";

/**
 * Controls an app floats over a picture, told from the picture's own content by what they stand on:
 * a control over media is drawn on its own fill or material so it reads over any image (HIG
 * "Materials": controls over content get a background) — a badge's or button's plate around text, a
 * round button's disc (a map's locate and zoom buttons, a video's play button) — in one flat colour
 * the picture itself hardly has. Text and shapes that are part of the picture (a map's place names on
 * its land, a photo's contours) have the picture's own colours around them.
 */

/** Points across the commonest iPhones (390 pt); the scale is width / this. */
const SCREEN_PT = 390;
/** The picture's colours are sampled on a grid of about this many points. */
const BLOCK_PT = 2;
/** Pixels of one fill differ by at most this per channel (a camera frame's noise and shading). */
const FILL_TOL = 12;
/** A plate under text: the ring this far (pt) around the text's box … */
const PLATE_RING_PT = 2;
/** … is this flat … */
const PLATE_FLAT = 0.9;
/** … in a colour covering less than this share of the picture. */
const PLATE_RARE = 0.05;
/**
 * A round button's disc is sampled on the circle at this share of its radius: between its glyph (SF
 * Symbols in a circular button take about half its diameter) and its rim.
 */
const DISC_AT = 0.8;
/** A round button's box is about square: its sides differ by at most this share. */
const DISC_SQUARE = 0.25;
/** Samples on the disc's circle. */
const DISC_SAMPLES = 48;

/** The median colour of the pixels at byte offsets `at`. */
function median(data: Buffer, at: readonly number[]): number[] {
  return [0, 1, 2].map((k) => {
    const v = at.map((o) => data[o + k] as number).sort((a, b) => a - b);
    return v[v.length >> 1] as number;
  });
}

/**
 * Whether most pixels at offsets `at` are one flat colour that covers less than `PLATE_RARE` of
 * picture `pic`: a plate or disc laid over it.
 */
function flatAndRare(screen: RgbImage, at: readonly number[], pic: FracBox): boolean {
  const { width: W, height: H, data } = screen;
  const med = median(data, at);
  const near = (o: number): boolean =>
    [0, 1, 2].every((k) => Math.abs((data[o + k] as number) - (med[k] as number)) <= FILL_TOL);
  if (at.filter(near).length < PLATE_FLAT * at.length) return false;
  // The plate's colour across the picture, sampled on a grid of ~2 pt.
  const step = Math.max(1, Math.round((BLOCK_PT * W) / SCREEN_PT));
  let n = 0;
  let same = 0;
  for (let y = Math.floor(pic[1] * H); y < pic[3] * H; y += step)
    for (let x = Math.floor(pic[0] * W); x < pic[2] * W; x += step) {
      n++;
      if (near((y * W + x) * 3)) same++;
    }
  return same < PLATE_RARE * n;
}

/**
 * Whether icon `box` is a round button over picture `pic`: about square, and the circle between its
 * glyph and its rim one flat colour the picture hardly has (see the module comment).
 */
export function onDisc(screen: RgbImage, box: FracBox, pic: FracBox): boolean {
  const { width: W, height: H } = screen;
  const w = (box[2] - box[0]) * W;
  const h = (box[3] - box[1]) * H;
  if (Math.abs(w - h) > DISC_SQUARE * Math.max(w, h)) return false;
  const cx = ((box[0] + box[2]) / 2) * W;
  const cy = ((box[1] + box[3]) / 2) * H;
  const r = (DISC_AT * Math.min(w, h)) / 2;
  const at: number[] = [];
  for (let i = 0; i < DISC_SAMPLES; i++) {
    const a = (2 * Math.PI * i) / DISC_SAMPLES;
    const x = Math.round(cx + r * Math.cos(a));
    const y = Math.round(cy + r * Math.sin(a));
    if (x >= 0 && x < W && y >= 0 && y < H) at.push((y * W + x) * 3);
  }
  return at.length > 0 && flatAndRare(screen, at, pic);
}

/**
 * Whether text `box` sits on a plate laid over picture `pic`: a control or badge on media (a photo's
 * "ALT" button, a video's duration) is drawn on its own fill or material so it reads over any image
 * (HIG "Materials": controls over content get a background) — the ring just around the text is one
 * flat colour, and one the picture itself hardly has. Text that is part of the picture (a map's place
 * names on its land, lettering in a photo) has the picture's own colours around it.
 */
export function onPlate(screen: RgbImage, box: FracBox, pic: FracBox): boolean {
  const { width: W, height: H } = screen;
  const d = Math.max(1, Math.round((PLATE_RING_PT * W) / SCREEN_PT));
  const x0 = Math.max(0, Math.floor(box[0] * W) - d);
  const x1 = Math.min(W - 1, Math.ceil(box[2] * W) + d);
  const y0 = Math.max(0, Math.floor(box[1] * H) - d);
  const y1 = Math.min(H - 1, Math.ceil(box[3] * H) + d);
  const ring: number[] = [];
  for (let x = x0; x <= x1; x++) ring.push((y0 * W + x) * 3, (y1 * W + x) * 3);
  for (let y = y0; y <= y1; y++) ring.push((y * W + x0) * 3, (y * W + x1) * 3);
  return flatAndRare(screen, ring, pic);
}
