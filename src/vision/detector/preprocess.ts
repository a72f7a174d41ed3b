import sharp from "sharp";
import type { RgbImage } from "../../shared/image.js";
import { PiclawError } from "../../util/errors.js";

/** Grey the padding is filled with (YOLO's letterbox colour; PiClaw's model is trained with it too). */
export const PAD_VALUE = 114;

/** Where the image sits inside the model input after letterboxing. */
export interface Letterbox {
  /** Input pixels per image pixel on each axis (equal up to the rounding of the resized size). */
  scaleX: number;
  scaleY: number;
  padX: number;
  padY: number;
  /** Size of the original image, to turn input pixels back into 0–1 fractions of it. */
  srcWidth: number;
  srcHeight: number;
}

/**
 * Fit `srcWidth`×`srcHeight` into the model input keeping aspect, centred, as YOLO and
 * models/icon-detector/photo.py do (same rounding, so training and inference agree).
 */
export function letterboxGeometry(
  srcWidth: number,
  srcHeight: number,
  inputWidth: number,
  inputHeight: number,
): Letterbox & { width: number; height: number } {
  const scale = Math.min(inputWidth / srcWidth, inputHeight / srcHeight);
  const width = Math.max(1, Math.round(srcWidth * scale));
  const height = Math.max(1, Math.round(srcHeight * scale));
  return {
    scaleX: width / srcWidth,
    scaleY: height / srcHeight,
    width,
    height,
    padX: Math.floor((inputWidth - width) / 2),
    padY: Math.floor((inputHeight - height) / 2),
    srcWidth,
    srcHeight,
  };
}

/**
 * Letterbox an RGB image into a planar float tensor [3, H, W] in 0–1 (the `images` input). Resizing
 * uses sharp (antialiased), padding is filled with {@link PAD_VALUE}.
 */
export async function toInputTensor(
  image: RgbImage,
  inputWidth: number,
  inputHeight: number,
): Promise<{ data: Float32Array; box: Letterbox }> {
  const { width, height, data } = image;
  if (!(width > 0 && height > 0) || data.length !== width * height * 3)
    throw new PiclawError("DETECTOR_BAD_IMAGE", "image must be RGB with width*height*3 bytes", {
      width,
      height,
      bytes: data.length,
    });
  const g = letterboxGeometry(width, height, inputWidth, inputHeight);
  const resized =
    g.width === width && g.height === height
      ? data
      : await sharp(data, { raw: { width, height, channels: 3 } })
          .resize(g.width, g.height, { fit: "fill" })
          .raw()
          .toBuffer();
  const plane = inputWidth * inputHeight;
  const out = new Float32Array(3 * plane).fill(PAD_VALUE / 255);
  for (let y = 0; y < g.height; y++) {
    const row = (y + g.padY) * inputWidth + g.padX;
    for (let x = 0; x < g.width; x++) {
      const src = (y * g.width + x) * 3;
      const dst = row + x;
      out[dst] = (resized[src] ?? 0) / 255;
      out[plane + dst] = (resized[src + 1] ?? 0) / 255;
      out[2 * plane + dst] = (resized[src + 2] ?? 0) / 255;
    }
  }
  return {
    data: out,
    box: {
      scaleX: g.scaleX,
      scaleY: g.scaleY,
      padX: g.padX,
      padY: g.padY,
      srcWidth: width,
      srcHeight: height,
    },
  };
}
