/**
 * The image family every layer shares: raw interleaved pixels as decoders and renderers produce them,
 * row-major with a top-left origin. One family, not three look-alikes: `RgbImage` is a `RawImage`
 * whose type says it has 3 channels, so a 4-channel frame cannot reach RGB-only code without
 * `toRgb`, the one conversion. `GrayImage` (1 channel, from a greyscale decode) stays separate: its
 * data is a plain Uint8Array and nothing converts an RGB image into it; per-pixel grey is `luma`.
 */

/** Raw interleaved pixels, row-major, top-left origin. */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}

/** A RawImage known to hold 3 channels (R, G, B): what vision works on. */
export type RgbImage = RawImage & { channels: 3 };

/** An 8-bit greyscale image, row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Interleaved RGB from a 3- or 4-channel raw image (alpha dropped; a 3-channel image shares its data). */
export function toRgb(img: RawImage): RgbImage {
  if (img.channels === 3) return { width: img.width, height: img.height, channels: 3, data: img.data };
  const data = Buffer.alloc(img.width * img.height * 3);
  for (let i = 0, j = 0; j < data.length; i += 4, j += 3) {
    data[j] = img.data[i] ?? 0;
    data[j + 1] = img.data[i + 1] ?? 0;
    data[j + 2] = img.data[i + 2] ?? 0;
  }
  return { width: img.width, height: img.height, channels: 3, data };
}

/**
 * Rec. 601 luma (0–255, unrounded) of the RGB pixel starting at `offset` in interleaved `data`; a
 * missing byte counts as 0.
 */
export function luma(data: Uint8Array, offset: number): number {
  return 0.299 * (data[offset] ?? 0) + 0.587 * (data[offset + 1] ?? 0) + 0.114 * (data[offset + 2] ?? 0);
}

/**
 * `luma` in 8-bit fixed point (weights 77 / 150 / 29 over 256, truncated): an integer for byte planes
 * and level comparisons, where the float's fraction buys nothing.
 */
export function lumaByte(data: Uint8Array, offset: number): number {
  return (77 * (data[offset] ?? 0) + 150 * (data[offset + 1] ?? 0) + 29 * (data[offset + 2] ?? 0)) >> 8;
}
