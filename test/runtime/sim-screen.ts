import type { ScreenFrame, ScreenFrameSource } from "../../src/runtime/frames.js";
import type { Mat3 } from "../../src/shared/homography.js";
import type { SimPhone } from "../../src/sim/phone/index.js";
import type { Clock } from "../../src/util/clock.js";
import { decodeRgb, warpToScreen } from "../../src/vision/rectify.js";
import { POSE } from "../tools/fast-rig.js";
import { cameraOver, trueScreenToCamera } from "../vision/helpers.js";

const FRAME = { width: 1152, height: 648 };

/**
 * Rectified screens of a simulated phone as the overhead camera sees them (noise, vignetting and the
 * parked carriage included), through the true screen→camera map a perfect calibration would find.
 */
export function simScreenFrames(
  phone: SimPhone,
  clock: Clock,
  width = 120,
): ScreenFrameSource & { grabs: number } {
  const camera = cameraOver(phone, POSE, false);
  const map = trueScreenToCamera(camera, phone, FRAME.width, FRAME.height) as Mat3;
  const height = Math.round((width * phone.geometry.screenPx.height) / phone.geometry.screenPx.width);
  const source = {
    grabs: 0,
    async grab(): Promise<ScreenFrame> {
      source.grabs++;
      const atMs = clock.now();
      const jpeg = await camera.capture(FRAME);
      return { image: warpToScreen(await decodeRgb(jpeg), map, width, height), atMs };
    },
  };
  return source;
}
