import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realCameraFrame } from "../../../src/lab/real/camera.js";
import type { RgbImage } from "../../../src/shared/image.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../../src/vision/rectify.js";
import { REAL_SET_DIR } from "../real-set.js";

/**
 * A screenshot filmed by the simulated camera and rectified as the pipeline does (585 px wide).
 * `seed`: the camera simulator's seed (bench/real-screens.ts films screen i of a set with 7 + i).
 */
export async function filmScreenshot(bytes: Buffer, seed: number): Promise<RgbImage> {
  const shot = await realCameraFrame(bytes, { seed });
  const w = 585;
  const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
  return stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
}

/**
 * A dev-set screen filmed by the simulated camera and rectified as the pipeline does (585 px wide).
 * `seed`: the camera simulator's seed. `bench/real-screens.ts --camera` films screen i with 7 + i; a test pins
 * the seed of the frame it was written against, which stops matching the bench when screens are added
 * before it in the set (the FordPass widget tests film with the bench's seeds from before session 15's
 * five widget screens). The frame a test reads is what it pins, whichever index it had.
 */
export function filmedRealScreen(name: string, seed: number): Promise<RgbImage> {
  return filmScreenshot(readFileSync(join(REAL_SET_DIR, "images", name)), seed);
}
