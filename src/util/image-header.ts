import { PiclawError } from "./errors.js";

/**
 * Image dimensions read from the PNG/JPEG header alone, so a size can be refused before any decoder
 * allocates for it: a 31 KB PNG can declare 16000×16000 and decode to a 768 MB buffer (issue 19).
 * Formats: PNG (ISO/IEC 15948 / W3C PNG: the first chunk is IHDR, width and height as 4-byte big-
 * endian at offsets 16 and 20) and JPEG (ITU-T T.81 B.2.2: the frame header SOFn has the sample
 * precision byte, then height and width as 2-byte big-endian; markers before it are skipped by
 * their 2-byte lengths).
 */

/** Largest image decoded or accepted anywhere in PiClaw: 40 MP (a 12 MP phone screenshot ×3). */
export const MAX_IMAGE_PIXELS = 40_000_000;

export interface ImageHeader {
  type: "png" | "jpeg";
  width: number;
  height: number;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The header's type and size, or null when `bytes` is not a PNG/JPEG whose size can be read. */
export function imageHeader(bytes: Buffer): ImageHeader | null {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_MAGIC)) {
    if (bytes.toString("latin1", 12, 16) !== "IHDR") return null;
    return { type: "png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes);
  return null;
}

function jpegHeader(bytes: Buffer): ImageHeader | null {
  let at = 2;
  // Each step moves forward by at least 2 bytes, so the loop ends within bytes.length / 2 steps.
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Standalone markers (TEM, RSTn) carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan before any frame header
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return null;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.length) return null;
      return { type: "jpeg", height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

/**
 * Throw unless `bytes` is a PNG/JPEG of at most `maxPixels` pixels (and non-zero size). Codes:
 * `<prefix>_IMAGE_UNREADABLE` (no readable header) and `<prefix>_IMAGE_TOO_LARGE`.
 */
export function checkImageSize(
  bytes: Buffer,
  errorPrefix: string,
  maxPixels = MAX_IMAGE_PIXELS,
): ImageHeader {
  const header = imageHeader(bytes);
  if (!header || header.width === 0 || header.height === 0)
    throw new PiclawError(
      `${errorPrefix}_IMAGE_UNREADABLE`,
      "the image has no readable PNG/JPEG size header",
    );
  checkPixelCount(header, errorPrefix, maxPixels);
  return header;
}

/** Throw `<prefix>_IMAGE_TOO_LARGE` when `header` declares more than `maxPixels` pixels. */
export function checkPixelCount(
  header: ImageHeader,
  errorPrefix: string,
  maxPixels = MAX_IMAGE_PIXELS,
): void {
  if (header.width * header.height <= maxPixels) return;
  throw new PiclawError(
    `${errorPrefix}_IMAGE_TOO_LARGE`,
    `the image is ${header.width}×${header.height} (${((header.width * header.height) / 1e6).toFixed(1)} MP), over the ${maxPixels / 1e6} MP limit`,
    { width: header.width, height: header.height, maxPixels },
  );
}
