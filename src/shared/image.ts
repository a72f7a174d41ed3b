/**
 * The image family every layer shares: raw interleaved pixels as decoders and renderers produce them,
 * row-major with a top-left origin.
 */

/** Raw interleaved pixels, row-major, top-left origin. */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}

/** Raw interleaved RGB pixels (3 channels), row-major, top-left origin. */
export interface RgbImage {
  width: number;
  height: number;
  data: Buffer;
}

/** An 8-bit greyscale image, row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}
