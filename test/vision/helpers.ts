import { type Mat3, mat3Mul } from "../../src/shared/homography.js";
import { DEFAULT_SIM_CAMERA_OPTIONS, type SimCameraOptions } from "../../src/sim/camera/options.js";
import { SimCamera } from "../../src/sim/camera/sim-camera.js";
import type { SimPhone } from "../../src/sim/phone/index.js";
import type { PhonePose } from "../../src/sim/pose.js";

export const POSES: PhonePose[] = [
  { centerXMm: 150, centerYMm: 110, rotationDeg: 0, tiltXDeg: 0.4, tiltYDeg: -0.3 },
  { centerXMm: 144, centerYMm: 114, rotationDeg: -9, tiltXDeg: 0.8, tiltYDeg: 0.2 },
  { centerXMm: 157, centerYMm: 105, rotationDeg: 8, tiltXDeg: -0.5, tiltYDeg: 1 },
];

/** A sim camera over `phone` at `pose`; `clean` drops noise, vignetting and the carriage. */
export function cameraOver(phone: SimPhone, pose: PhonePose, clean = false, seed = 5): SimCamera {
  const d = DEFAULT_SIM_CAMERA_OPTIONS;
  const camera: SimCameraOptions = clean
    ? {
        ...d,
        sensor: { ...d.sensor, vignetting: 0 },
        carriage: { ...d.carriage, parkMm: null },
        glare: null,
        noise: 0,
      }
    : d;
  return new SimCamera({ source: phone, pose, camera, seed });
}

/** The true screen-fraction → camera-pixel homography of a `width`×`height` frame (what calibration estimates). */
export function trueScreenToCamera(camera: SimCamera, phone: SimPhone, width: number, height: number): Mat3 {
  const { glassMm } = phone.geometry;
  return mat3Mul(camera.view(width, height).glassToPixel, [
    glassMm.width,
    0,
    0,
    0,
    glassMm.height,
    0,
    0,
    0,
    1,
  ]);
}
