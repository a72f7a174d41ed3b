import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realCameraFrame } from "../../../src/lab/real/camera.js";
import type { RgbImage } from "../../../src/shared/image.js";
import { decodeRgb, stretchContrast, warpToScreen } from "../../../src/vision/rectify.js";
import { REAL_SET_DIR } from "../real-set.js";

/**
 * A dev-set screen filmed by the simulated camera and rectified as the pipeline does (585 px wide).
 * `seed`: the one `bench/real-screens.ts --camera` films it with (7 + the screen's index in the set).
 */
export async function filmedRealScreen(name: string, seed: number): Promise<RgbImage> {
  const shot = await realCameraFrame(readFileSync(join(REAL_SET_DIR, "images", name)), { seed });
  const w = 585;
  const h = Math.round((w * shot.screenPx.height) / shot.screenPx.width);
  return stretchContrast(warpToScreen(await decodeRgb(shot.frame), shot.screenToCamera, w, h));
}
