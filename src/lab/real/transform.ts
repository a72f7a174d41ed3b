import sharp from "sharp";
import type { RealScreen } from "./labels.js";

/**
 * Screenshots as people publish them: a README shows a 3× shot at half size, a 2× shot is saved at 1×,
 * a page re-encodes it as JPEG. `transformScreenshot` makes such a copy of a labelled screenshot and
 * `scaleLabel` carries its label along, so the real-screen bench can measure how the pipeline holds up
 * on inputs it was never tuned on (bench/real-screens.ts `--scale`, `--jpeg`).
 *
 * Label boxes are fractions of the image (`labels.ts`). A resize maps the whole image onto the whole
 * output, so a box's fractions name the same content after it and only the label's `width`/`height`
 * change; its pixel coordinates scale with the image, as `test/lab/real-transform.test.ts` checks on
 * drawn pixels. Evaluation rules are unchanged.
 */

export interface ScreenTransform {
  /** Resize factor on both axes (1 = unchanged); libvips' Lanczos-3 kernel, as image tools resize. */
  scale: number;
  /** Re-encode as baseline JPEG at this quality (1–100; libjpeg's 4:2:0 chroma, as most tools save). */
  jpegQuality?: number;
}

/**
 * A screenshot the transform would make narrower than this is skipped, not scored: below ~300 px a
 * 320-pt-wide screen has under one pixel per point and its 11–13 pt text is a few pixels tall, which no
 * publisher's copy of a phone screenshot shows. Screens already narrower in the dataset are kept.
 */
export const MIN_SCALED_WIDTH = 300;

/** Pixel size after `scale` (each side rounded, at least 1 px). */
export function scaledSize(width: number, height: number, scale: number): { width: number; height: number } {
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** True when `transform` leaves the bytes as they are (the bench then reads the file itself). */
export function isIdentity(transform: ScreenTransform): boolean {
  return transform.scale === 1 && transform.jpegQuality === undefined;
}

/**
 * Whether a `width`-pixel screenshot is scored under `transform`: not when the transform takes it below
 * `MIN_SCALED_WIDTH` (a screen that already was that narrow stays in).
 */
export function keepsScreen(width: number, transform: ScreenTransform): boolean {
  const scaled = scaledSize(width, 1, transform.scale).width;
  return scaled >= Math.min(MIN_SCALED_WIDTH, width);
}

/** The label of a screenshot resized to `size`: same boxes (fractions), new pixel size. */
export function scaleLabel(label: RealScreen, size: { width: number; height: number }): RealScreen {
  return { ...label, width: size.width, height: size.height };
}

/**
 * `screenshot` (PNG/JPEG bytes) transformed: alpha dropped and 8-bit sRGB (as `decodeRgb` reads it),
 * resized by `scale`, written as PNG (lossless) or as JPEG at `jpegQuality`.
 */
export async function transformScreenshot(
  screenshot: Buffer,
  transform: ScreenTransform,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  if (!(transform.scale > 0 && transform.scale <= 4))
    throw new RangeError(`scale ${transform.scale} not in (0, 4]`);
  const q = transform.jpegQuality;
  if (q !== undefined && !(Number.isInteger(q) && q >= 1 && q <= 100))
    throw new RangeError(`JPEG quality ${q} not an integer in 1–100`);
  // Decoded as the pipeline decodes (`decodeRgb`), so the transform starts from the pixels it would see.
  const raw = await sharp(screenshot, { autoOrient: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = raw.info;
  const size = scaledSize(width, height, transform.scale);
  const base = sharp(raw.data, { raw: { width, height, channels } });
  const resized =
    transform.scale === 1 ? base : base.resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" });
  const out = q === undefined ? resized.png() : resized.jpeg({ quality: q });
  const { data, info } = await out.toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
