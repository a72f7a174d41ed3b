import type { GrayImage, RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";

/**
 * Local contrast normalisation of a screen before OCR. A reflection on the glass adds the same light
 * to every channel and then clips, so white labels on a pale card end up a few grey levels above
 * their background in one channel and flat in the others; PP-OCR's detector does not see them, and
 * a global stretch cannot help because the rest of the screen already spans 0–255. This makes each
 * pixel's distance from its neighbourhood's mean, in units of the neighbourhood's mean absolute
 * deviation, the grey level the models see:
 *
 *   g   = min(R, G, B)       — added light clips the other channels first, so the smallest one keeps
 *                              what contrast is left; coloured text on a light background is darkest
 *                              there too; but a strongly saturated pixel (its brightest channel far
 *                              above its darkest) moves to the middle of the two, HSL lightness
 *                              (`inkGrey`): black on a yellow button is 0 against 0 in the darkest
 *                              channel and 0 against ~128 in lightness, a systemBlue link on black
 *                              10 against 0 and ~132 against 0. Glare and pale tones stay on the
 *                              darkest channel;
 *   out = 128 + gain · (g − mean) / (meanAbsDev + floor)
 *
 * with `mean` and `meanAbsDev` box-filtered twice (≈ a Gaussian of σ ≈ 0.8 · radius; radius ≈ 2.6% of
 * the screen width, about a line of body text). The floor keeps flat areas flat instead of amplifying
 * sensor noise. Polarity is kept (light text stays light); PP-OCR
 * reads both. Output is one grey plane (every consumer of the normalised screen reads one channel: a
 * three-channel copy was 9 MB more resident on a 3× screenshot). About 15 ms for 585×1266 on one core.
 */
export interface LocalContrastOptions {
  /** Box-filter radius as a fraction of the image width (applied twice): the same screen area at any resolution. */
  radius: number;
  /** Grey levels per mean absolute deviation. */
  gain: number;
  /** Added to the deviation so flat regions (noise only) stay near mid-grey. */
  floor: number;
}

export const DEFAULT_LOCAL_CONTRAST: LocalContrastOptions = { radius: 0.026, gain: 40, floor: 10 };

/** A normalised screen: one grey byte a pixel (`width`×`height`, row-major). */
export type NormalizedImage = GrayImage;

/**
 * `into`: an earlier result of the same size whose plane may be overwritten (the caller is done with
 * it); it is returned. A 3× screenshot's plane is 3 MB: written in place each peek, it never piles up
 * as garbage waiting for a collection (peak RSS).
 */
export function normalizeLocalContrast(
  image: RgbImage,
  options: LocalContrastOptions = DEFAULT_LOCAL_CONTRAST,
  into?: NormalizedImage,
): NormalizedImage {
  const { width: w, height: h, data } = image;
  const reuse = into && into.width === w && into.height === h ? into : undefined;
  // The mean and the deviation are smooth fields: they are box-filtered on a grid of CELL×CELL cells
  // and read back bilinearly, a fraction of the cost of filtering every pixel. Each pass walks the
  // image a row at a time and a cell at a time, keeping a cell's running sum in a local rounded to
  // float32 at every step (`Math.fround`), exactly as accumulating in the Float32Array would.
  const gw = Math.ceil(w / CELL);
  const gh = Math.ceil(h / CELL);
  const r = Math.max(1, Math.round((options.radius * w) / CELL));
  // Every byte of the plane is written before it is read.
  const grey = reuse?.data ?? new Uint8Array(w * h);
  const cells = new Float32Array(gw * gh);
  for (let y = 0, j = 0, i = 0; y < h; y++) {
    const row = ((y / CELL) | 0) * gw;
    for (let c = 0, x = 0; c < gw; c++) {
      const end = Math.min(w, x + CELL);
      let sum = cells[row + c] as number;
      for (; x < end; x++, j++, i += 3) {
        const v = inkGrey(data, i);
        grey[j] = v;
        sum = Math.fround(sum + v);
      }
      cells[row + c] = sum;
    }
  }
  const counts = cellCounts(w, h, gw, gh);
  for (let c = 0; c < cells.length; c++) cells[c] = (cells[c] as number) / (counts[c] as number);
  const scratch = new Float32Array(gw * gh);
  const meanGrid = new Float32Array(gw * gh);
  smooth(cells, meanGrid, scratch, gw, gh, r);
  const mean = new GridRows(meanGrid, gw, gh, w);
  cells.fill(0);
  // The mean is interpolated in place, rounded to float32 as a Float32Array row would hold it.
  const { x0: cols, fx } = mean;
  for (let y = 0, j = 0; y < h; y++) {
    const row = ((y / CELL) | 0) * gw;
    const mb = mean.blendRow(y);
    for (let c = 0, x = 0; c < gw; c++) {
      const end = Math.min(w, x + CELL);
      let sum = cells[row + c] as number;
      for (; x < end; x++, j++) {
        const l = mb[cols[x] as number] as number;
        const m = Math.fround(l + ((mb[(cols[x] as number) + 1] as number) - l) * (fx[x] as number));
        sum = Math.fround(sum + Math.abs((grey[j] as number) - m));
      }
      cells[row + c] = sum;
    }
  }
  for (let c = 0; c < cells.length; c++) cells[c] = (cells[c] as number) / (counts[c] as number);
  const devGrid = new Float32Array(gw * gh);
  smooth(cells, devGrid, scratch, gw, gh, r);
  // gain / (deviation + floor) is as smooth as the deviation: interpolating it saves a division a pixel.
  const { gain, floor } = options;
  for (let c = 0; c < devGrid.length; c++) devGrid[c] = gain / ((devGrid[c] as number) + floor);
  const scale = new GridRows(devGrid, gw, gh, w);
  // Each grey byte is read for the last time here: the plane takes the output in its place.
  // Both fields share the column weights.
  for (let y = 0, j = 0; y < h; y++) {
    const mb = mean.blendRow(y);
    const kb = scale.blendRow(y);
    for (let x = 0; x < w; x++, j++) {
      const c = cols[x] as number;
      const f = fx[x] as number;
      const ml = mb[c] as number;
      const kl = kb[c] as number;
      const m = Math.fround(ml + ((mb[c + 1] as number) - ml) * f);
      const k = Math.fround(kl + ((kb[c + 1] as number) - kl) * f);
      const v = 128.5 + ((grey[j] as number) - m) * k;
      const byte = v <= 0 ? 0 : v >= 255 ? 255 : v | 0;
      grey[j] = byte;
    }
  }
  return reuse ?? { width: w, height: h, data: grey };
}

/** min(R, G, B) of the pixel whose red byte is at `i`. */
function darkest(data: Buffer, i: number): number {
  const r = data[i] ?? 0;
  const g = data[i + 1] ?? 0;
  const b = data[i + 2] ?? 0;
  return r < g ? (r < b ? r : b) : g < b ? g : b;
}

/**
 * How far a pixel's brightest channel must stand above its darkest (its chroma) before `inkGrey` leaves
 * the darkest channel, and where it is all HSL lightness, (max + min) / 2: only strongly saturated
 * colours move — iOS's system colours (Apple HIG, Color: systemBlue #0A84FF 245, systemYellow
 * #FFD60A 245, systemOrange 255, systemRed ~207, systemGreen #30D158 161, purple/indigo ~140) — while
 * greys, the pale sky and glare tones (a pale blue card ~80) and the muted colours of maps stay on the
 * darkest channel, where white text on them keeps its full contrast. Before this, a colour moved only
 * when its luma stood 120+ above its darkest channel (yellow, orange), so blue text on black (10
 * against 0 in the darkest channel, luma 110) was never found: `Nemesis - Dark`, dark-mode links.
 */
const LIFT_FROM = 120;
const LIFT_FULL = 170;

/**
 * The grey text is found on: min(R, G, B), blended towards (max + min) / 2 where the pixel is strongly
 * saturated, so ink and background that share a dark channel but differ in brightness (black on a
 * yellow button, a blue link on black) still differ.
 */
export function inkGrey(data: Uint8Array, i: number): number {
  const r = data[i] ?? 0;
  const g = data[i + 1] ?? 0;
  const b = data[i + 2] ?? 0;
  const lo = r < g ? (r < b ? r : b) : g < b ? g : b;
  const hi = r > g ? (r > b ? r : b) : g > b ? g : b;
  const chroma = hi - lo;
  if (chroma <= LIFT_FROM) return lo;
  const w = chroma >= LIFT_FULL ? 1 : (chroma - LIFT_FROM) / (LIFT_FULL - LIFT_FROM);
  return lo + (w * chroma) / 2;
}

/** Side of the square cells the smooth fields are computed on, in pixels. */
const CELL = 4;

/** Pixels per cell (edge cells may be partial). */
function cellCounts(w: number, h: number, gw: number, gh: number): Float32Array {
  const counts = new Float32Array(gw * gh);
  for (let cy = 0; cy < gh; cy++)
    for (let cx = 0; cx < gw; cx++)
      counts[cy * gw + cx] = Math.min(CELL, w - cx * CELL) * Math.min(CELL, h - cy * CELL) || 1;
  return counts;
}

/**
 * Bilinear reads of a `gw`×`gh` cell grid (values at cell centres), one image row at a time: the
 * vertical blend is done once per row over the grid's columns, the horizontal one per pixel.
 */
class GridRows {
  /** Per image column: the grid column left of it and the weight of the one right of it. */
  readonly x0: Int32Array;
  readonly fx: Float32Array;
  private readonly blend: Float32Array;

  constructor(
    private readonly grid: Float32Array,
    private readonly gw: number,
    private readonly gh: number,
    width: number,
  ) {
    this.x0 = new Int32Array(width);
    this.fx = new Float32Array(width);
    for (let x = 0; x < width; x++) {
      const g = Math.min(gw - 1, Math.max(0, (x + 0.5) / CELL - 0.5));
      const x0 = Math.max(0, Math.min(gw - 2, g | 0));
      this.x0[x] = x0;
      this.fx[x] = gw > 1 ? g - x0 : 0;
    }
    this.blend = new Float32Array(gw + 1);
  }

  /**
   * The grid blended vertically for image row `y` (`gw + 1` values, the last repeating the one before;
   * a buffer reused by the next call): the field at column x is `lerp(b[x0[x]], b[x0[x] + 1], fx[x])`.
   */
  blendRow(y: number): Float32Array {
    const { grid, gw, gh, blend } = this;
    const g = Math.min(gh - 1, Math.max(0, (y + 0.5) / CELL - 0.5));
    const y0 = Math.max(0, Math.min(gh - 2, g | 0));
    const fy = gh > 1 ? g - y0 : 0;
    const a = y0 * gw;
    const b = gh > 1 ? a + gw : a;
    for (let c = 0; c < gw; c++) blend[c] = (grid[a + c] as number) * (1 - fy) + (grid[b + c] as number) * fy;
    blend[gw] = blend[gw - 1] as number;
    return blend;
  }
}

/** Two passes of a separable box filter (`src` → `dst`; `dst` may be `src`). */
function smooth(
  src: Float32Array,
  dst: Float32Array,
  scratch: Float32Array,
  w: number,
  h: number,
  radius: number,
): void {
  boxRows(src, scratch, w, h, radius);
  boxCols(scratch, dst, w, h, radius);
  boxRows(dst, scratch, w, h, radius);
  boxCols(scratch, dst, w, h, radius);
}

/** Horizontal running mean over `[x − r, x + r]`, clamped at the edges (divides by the cells inside). */
function boxRows(src: Float32Array, dst: Float32Array, w: number, h: number, r: number): void {
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let sum = 0;
    let count = 0;
    for (let x = 0; x < Math.min(r, w); x++, count++) sum += src[row + x] ?? 0;
    for (let x = 0; x < w; x++) {
      const add = x + r;
      if (add < w) {
        sum += src[row + add] ?? 0;
        count++;
      }
      const drop = x - r - 1;
      if (drop >= 0) {
        sum -= src[row + drop] ?? 0;
        count--;
      }
      dst[row + x] = sum / count;
    }
  }
}

/** Vertical running mean, as `boxRows` down each column (all columns at once, row by row). */
function boxCols(src: Float32Array, dst: Float32Array, w: number, h: number, r: number): void {
  const sum = new Float64Array(w);
  let count = 0;
  for (let y = 0; y < Math.min(r, h); y++, count++)
    for (let x = 0; x < w; x++) sum[x] = (sum[x] ?? 0) + (src[y * w + x] ?? 0);
  for (let y = 0; y < h; y++) {
    const add = y + r;
    if (add < h) {
      count++;
      for (let x = 0; x < w; x++) sum[x] = (sum[x] ?? 0) + (src[add * w + x] ?? 0);
    }
    const drop = y - r - 1;
    if (drop >= 0) {
      count--;
      for (let x = 0; x < w; x++) sum[x] = (sum[x] ?? 0) - (src[drop * w + x] ?? 0);
    }
    const inv = 1 / count;
    for (let x = 0; x < w; x++) dst[y * w + x] = (sum[x] ?? 0) * inv;
  }
}

/**
 * Below this spread of the darkest channel (grey levels) a region is washed out: worth reading again
 * from the normalised image. Clear-contrast regions that read weakly are icons or decorations, and a
 * second read only turns their strokes into confident junk (measured on 50 camera screens: 19 of 310
 * weak regions qualify; re-reading all 310 gained nothing and cost ~20 ms a peek).
 */
export const WASHED_OUT_SPREAD = 64;

/** Max − min of min(R, G, B) over `box` (every second pixel each way): the region's usable contrast. */
export function darkestChannelSpread(image: RgbImage, box: PixelBox): number {
  const { width, height, data } = image;
  const x0 = Math.max(0, Math.floor(box.x0));
  const x1 = Math.min(width, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0));
  const y1 = Math.min(height, Math.ceil(box.y1));
  let lo = 255;
  let hi = 0;
  for (let y = y0; y < y1; y += 2)
    for (let x = x0; x < x1; x += 2) {
      const v = darkest(data, (y * width + x) * 3);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  return hi >= lo ? hi - lo : 0;
}
