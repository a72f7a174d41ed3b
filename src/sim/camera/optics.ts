import {
  applyHomography as applyPlaneMap,
  type Mat3,
  mat3Inverse,
  mat3Mul,
} from "../../shared/homography.js";
import type { PhoneGeometry } from "../../shared/phone-model.js";
import { type GlassFrame, glassFrame, glassToBed, type PhonePose, type Vec3 } from "../pose.js";
import type { CameraLens, CameraPlacement } from "./options.js";

/**
 * Pinhole model of the overhead camera. Pixel coordinates are continuous: pixel (i, j) covers
 * [i, i+1) × [j, j+1), so its centre is (i + 0.5, j + 0.5) and the principal point of a W×H frame is
 * (W/2, H/2). No lens distortion, so every plane maps to the sensor by an exact homography.
 */

export type { Mat3 } from "../../shared/homography.js";
export { mat3Inverse, mat3Mul };

export interface PixelPoint {
  u: number;
  v: number;
}

/** A plane in bed space: point (a, b) of the plane is origin + a·ex + b·ey. */
export interface PlaneFrame {
  origin: Vec3;
  ex: Vec3;
  ey: Vec3;
}

const rad = (deg: number): number => (deg * Math.PI) / 180;

/** Apply a homography to (x, y), as pixel coordinates. */
export function applyHomography(h: Mat3, x: number, y: number): PixelPoint {
  const p = applyPlaneMap(h, x, y);
  return { u: p.x, v: p.y };
}

/** Focal length in pixels for an output `widthPx` wide (binned modes keep the field of view). */
export function focalLengthPx(lens: CameraLens, widthPx: number): number {
  const fxRef = lens.focalLengthMm / (lens.pixelPitchUm / 1000);
  return fxRef * (widthPx / lens.referenceWidthPx);
}

/** Intrinsic matrix K: square pixels, principal point at the frame centre. */
export function intrinsics(lens: CameraLens, widthPx: number, heightPx: number): Mat3 {
  const f = focalLengthPx(lens, widthPx);
  return [f, 0, widthPx / 2, 0, f, heightPx / 2, 0, 0, 1];
}

/**
 * World-to-camera rotation R. Camera axes: x = image right, y = image down, z = optical axis. Rows of R
 * are those axes in bed space. Yaw turns the camera about the vertical; pitch and roll are small tilts
 * applied in the camera's own frame.
 */
export function cameraRotation(p: CameraPlacement): Mat3 {
  const cy = Math.cos(rad(p.yawDeg));
  const sy = Math.sin(rad(p.yawDeg));
  // Columns: image right, image down, forward (straight down) in bed space before the tilts.
  const m0: Mat3 = [cy, sy, 0, sy, -cy, 0, 0, 0, -1];
  const cp = Math.cos(rad(p.pitchDeg));
  const sp = Math.sin(rad(p.pitchDeg));
  const cr = Math.cos(rad(p.rollDeg));
  const sr = Math.sin(rad(p.rollDeg));
  // Pitch turns the optical axis toward −y (image top); roll toward +x (image right).
  const rx: Mat3 = [1, 0, 0, 0, cp, -sp, 0, sp, cp];
  const ry: Mat3 = [cr, 0, sr, 0, 1, 0, -sr, 0, cr];
  const w = mat3Mul(m0, mat3Mul(rx, ry)); // camera-to-world: columns are the camera axes
  return [w[0], w[3], w[6], w[1], w[4], w[7], w[2], w[5], w[8]];
}

function rotate(r: Mat3, v: Vec3): Vec3 {
  return {
    x: r[0] * v.x + r[1] * v.y + r[2] * v.z,
    y: r[3] * v.x + r[4] * v.y + r[5] * v.z,
    z: r[6] * v.x + r[7] * v.y + r[8] * v.z,
  };
}

/** Homography from plane coordinates (mm) to sensor pixels: K·R·[ex ey (origin − C)]. */
export function planeToPixelHomography(k: Mat3, r: Mat3, centre: Vec3, plane: PlaneFrame): Mat3 {
  const a = rotate(r, plane.ex);
  const b = rotate(r, plane.ey);
  const c = rotate(r, {
    x: plane.origin.x - centre.x,
    y: plane.origin.y - centre.y,
    z: plane.origin.z - centre.z,
  });
  return mat3Mul(k, [a.x, b.x, c.x, a.y, b.y, c.y, a.z, b.z, c.z]);
}

/** Unit normal of the glass pointing up, away from the bed. */
export function glassNormal(frame: GlassFrame): Vec3 {
  const { ex, ey } = frame;
  let n = { x: ex.y * ey.z - ex.z * ey.y, y: ex.z * ey.x - ex.x * ey.z, z: ex.x * ey.y - ex.y * ey.x };
  const len = Math.hypot(n.x, n.y, n.z);
  n = { x: n.x / len, y: n.y / len, z: n.z / len };
  return n.z < 0 ? { x: -n.x, y: -n.y, z: -n.z } : n;
}

/**
 * Everything projective about one camera, phone pose and output size. Homographies map plane
 * millimetres to pixels; the inverse of each maps a pixel back onto its plane.
 */
export interface CameraView {
  readonly width: number;
  readonly height: number;
  readonly focalPx: number;
  readonly centre: Vec3;
  /** Glass mm (origin at the active area's top-left corner) → pixels. */
  readonly glassToPixel: Mat3;
  /** Body-top mm (origin at the body's top-left corner, same plane as the glass) → pixels. */
  readonly bodyTopToPixel: Mat3;
  /** The phone's back (the glass plane moved down by the body thickness), body mm → pixels. */
  readonly bodyBottomToPixel: Mat3;
  /** Bed mm (z = 0) → pixels. */
  readonly bedToPixel: Mat3;
  /** Distance from the optical centre to the glass along the optical axis (focus distance). */
  readonly glassDistanceMm: number;
  projectGlassPoint(xMm: number, yMm: number): PixelPoint;
  projectBodyPoint(xMm: number, yMm: number): PixelPoint;
  /** Any bed-space point (z up from the bed). */
  projectBedPoint(xMm: number, yMm: number, zMm?: number): PixelPoint;
  /** Homography of the horizontal plane at height z (bed coordinates x, y) → pixels. */
  horizontalPlaneToPixel(zMm: number): Mat3;
}

export interface CameraViewInput {
  placement: CameraPlacement;
  lens: CameraLens;
  geometry: PhoneGeometry;
  pose: PhonePose;
  width: number;
  height: number;
}

/** Build the projective model of one frame. */
export function cameraView(input: CameraViewInput): CameraView {
  const { placement, lens, geometry, pose, width, height } = input;
  const k = intrinsics(lens, width, height);
  const r = cameraRotation(placement);
  const centre: Vec3 = { x: placement.xMm, y: placement.yMm, z: placement.heightMm };
  const glass = glassFrame(geometry, pose);
  const inset = geometry.body.screenInsetMm;
  const bodyTop: PlaneFrame = {
    origin: {
      x: glass.origin.x - inset.x * glass.ex.x - inset.y * glass.ey.x,
      y: glass.origin.y - inset.x * glass.ex.y - inset.y * glass.ey.y,
      z: glass.origin.z - inset.x * glass.ex.z - inset.y * glass.ey.z,
    },
    ex: glass.ex,
    ey: glass.ey,
  };
  const n = glassNormal(glass);
  const t = geometry.body.thicknessMm;
  const bodyBottom: PlaneFrame = {
    origin: { x: bodyTop.origin.x - t * n.x, y: bodyTop.origin.y - t * n.y, z: bodyTop.origin.z - t * n.z },
    ex: glass.ex,
    ey: glass.ey,
  };
  const horizontal = (z: number): PlaneFrame => ({
    origin: { x: 0, y: 0, z },
    ex: { x: 1, y: 0, z: 0 },
    ey: { x: 0, y: 1, z: 0 },
  });
  const glassToPixel = planeToPixelHomography(k, r, centre, glass);
  const bodyTopToPixel = planeToPixelHomography(k, r, centre, bodyTop);
  const bedToPixel = planeToPixelHomography(k, r, centre, horizontal(0));
  const glassCentre = glassToBed(glass, geometry.glassMm.width / 2, geometry.glassMm.height / 2);
  const glassDistanceMm = rotate(r, {
    x: glassCentre.x - centre.x,
    y: glassCentre.y - centre.y,
    z: glassCentre.z - centre.z,
  }).z;
  return {
    width,
    height,
    focalPx: k[0],
    centre,
    glassToPixel,
    bodyTopToPixel,
    bodyBottomToPixel: planeToPixelHomography(k, r, centre, bodyBottom),
    bedToPixel,
    glassDistanceMm,
    projectGlassPoint: (x, y) => applyHomography(glassToPixel, x, y),
    projectBodyPoint: (x, y) => applyHomography(bodyTopToPixel, x, y),
    projectBedPoint: (x, y, z = 0) => {
      const p = rotate(r, { x: x - centre.x, y: y - centre.y, z: z - centre.z });
      return { u: k[0] * (p.x / p.z) + k[2], v: k[4] * (p.y / p.z) + k[5] };
    },
    horizontalPlaneToPixel: (z) => planeToPixelHomography(k, r, centre, horizontal(z)),
  };
}
