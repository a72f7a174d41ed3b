import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { type RealScreen, realScreenSchema } from "../../src/lab/real/labels.js";
import type { RgbImage } from "../../src/shared/image.js";

/** The real-screen development set (datasets/real-iphone), for tests that check a pass on real screens. */
export const REAL_SET_DIR = join(import.meta.dirname, "../../datasets/real-iphone");

/** A dataset screenshot by file name, as 3-channel RGB. */
export async function loadRealImage(name: string): Promise<RgbImage> {
  const { data, info } = await sharp(join(REAL_SET_DIR, "images", name))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

/** The validated label file of a dataset screenshot. */
export function realLabel(name: string): RealScreen {
  return realScreenSchema.parse(
    JSON.parse(readFileSync(join(REAL_SET_DIR, "labels", name.replace(/\.(png|jpe?g)$/, ".json")), "utf8")),
  );
}
