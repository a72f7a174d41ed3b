import sharp from "sharp";
import { type Mat3, mat3Mul } from "../../shared/homography.js";
import type { RawImage } from "../../shared/image.js";
import { IPHONE_61, type PhoneGeometry } from "../../shared/phone-model.js";
import { DEFAULT_SIM_CAMERA_OPTIONS } from "../../sim/camera/options.js";
import { SimCamera } from "../../sim/camera/sim-camera.js";
import { simConfigSchema } from "../../sim/config.js";
import type { ScreenSource } from "../../sim/types.js";
import { harshOptics } from "../eval/harsh-optics.js";

/**
 * Camera-style images of real screenshots: the simulated overhead camera (`sim/camera/`) films a phone
 * whose screen shows the screenshot instead of the simulated phone's own rendering. The seam is the
 * camera's `ScreenSource`: anything with a geometry and a `renderScreen()`; here the screenshot's pixels
 * on a 6.1-inch phone whose glass takes the screenshot's aspect (same width, so a 16:9 screenshot lies on
 * a shorter glass, undistorted). The phone lies at the simulated rig's default pose — where calibration
 * finds it — and the frame comes with the true screen-fraction → camera-pixel homography (what
 * calibration estimates), so `pipeline.fromCamera(frame, screenToCamera)` sees the screen as the
 * product would, and label boxes (screen fractions) need no mapping.
 */

export interface RealCameraFrame {
  /** Camera JPEG, `width`×`height` (2304×1296 by default, the rig's stream size). */
  frame: Buffer;
  /**
   * `frame` and the frames after it (`frames` of them in all, oldest first): the same still scene
   * filmed again, each with its own sensor noise (successive frame indices of one `SimCamera`).
   */
  frames: Buffer[];
  screenToCamera: Mat3;
  /** The screenshot's size: the phone's screen in pixels (the rectified image takes its aspect). */
  screenPx: { width: number; height: number };
}

/**
 * Screens at least this tall for their width are Face ID iPhones' (19.5:9, ≈ 2.16); the home-button
 * iPhones' are 16:9 (≈ 1.78) or 3:2.
 */
const FACE_ID_ASPECT = 2;

/**
 * A phone like `IPHONE_61` whose screen is `width`×`height` pixels at the same glass width. Only Face ID
 * iPhones have a display with rounded corners (the footnote of Apple's technical specifications of
 * iPhone X and later: rounded corners within a standard rectangle; the iPhone 6–8 and SE LCDs are plain
 * rectangles), so a home-button screenshot is filmed on square glass corners — otherwise the corners
 * would hide labels a real phone of that shape shows (a tab bar's outer labels).
 */
export function phoneForScreenshot(width: number, height: number): PhoneGeometry {
  const base = IPHONE_61;
  const glassW = base.glassMm.width;
  const glassH = (glassW * height) / width;
  const marginY = base.body.heightMm - base.glassMm.height;
  const bodyH = glassH + marginY;
  return {
    ...base,
    name: `${base.name}-${width}x${height}`,
    screenPx: { width, height },
    screenPt: { width: base.screenPt.width, height: Math.round((base.screenPt.width * height) / width) },
    glassMm: { width: glassW, height: glassH },
    body: { ...base.body, heightMm: bodyH, screenInsetMm: { x: base.body.screenInsetMm.x, y: marginY / 2 } },
    screenCornerRadiusMm: height / width >= FACE_ID_ASPECT ? base.screenCornerRadiusMm : 0,
  };
}

/** A screen source that always shows one decoded screenshot. */
class ScreenshotScreen implements ScreenSource {
  constructor(
    readonly geometry: PhoneGeometry,
    private readonly image: RawImage,
  ) {}
  async renderScreen(): Promise<RawImage> {
    return this.image;
  }
}

/**
 * Film `screenshot` (PNG/JPEG bytes) with the simulated camera; `harsh` applies `HARSH_OPTICS`.
 * Deterministic for a seed (the sensor noise). `frames` > 1 films the still screen that many times;
 * `noise` scales the sensor noise (0: none, for a clean reference).
 */
export async function realCameraFrame(
  screenshot: Buffer,
  opts: {
    harsh?: boolean;
    seed?: number;
    width?: number;
    height?: number;
    frames?: number;
    noise?: number;
  } = {},
): Promise<RealCameraFrame> {
  const { data, info } = await sharp(screenshot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const geometry = phoneForScreenshot(info.width, info.height);
  const source = new ScreenshotScreen(geometry, {
    width: info.width,
    height: info.height,
    channels: 3,
    data,
  });
  const pose = simConfigSchema.parse({}).pose;
  const camera = new SimCamera({
    source,
    pose,
    camera: {
      ...(opts.harsh ? harshOptics(DEFAULT_SIM_CAMERA_OPTIONS) : DEFAULT_SIM_CAMERA_OPTIONS),
      ...(opts.noise === undefined ? {} : { noise: opts.noise }),
    },
    seed: opts.seed ?? 7,
  });
  const size = { width: opts.width ?? 2304, height: opts.height ?? 1296 };
  const view = camera.view(size.width, size.height);
  const frames: Buffer[] = [];
  for (let k = 0; k < Math.max(1, opts.frames ?? 1); k++) frames.push(await camera.capture(size));
  const frame = frames[0] as Buffer;
  const { glassMm } = geometry;
  return {
    frame,
    frames,
    screenToCamera: mat3Mul(view.glassToPixel, [glassMm.width, 0, 0, 0, glassMm.height, 0, 0, 0, 1]),
    screenPx: { width: info.width, height: info.height },
  };
}
