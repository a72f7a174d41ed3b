import type { PhoneGeometry } from "../shared/phone-model.js";

/**
 * Where the phone lies on the rig's bed. Bed coordinates: millimetres, origin at the bed's front-left
 * corner, x to the right, y away from the user, z up. At rotation 0 the phone lies portrait with its top
 * toward the back (+y). The screen centre sits at (centerXMm, centerYMm); the phone is turned by
 * `rotationDeg` (counter-clockwise seen from above) about that centre, and tilted by `tiltXDeg` (about
 * the phone's left–right axis: positive lifts the top) and `tiltYDeg` (about its long axis: positive
 * lifts the right edge), e.g. from a case or a cable under one edge.
 */
export interface PhonePose {
  centerXMm: number;
  centerYMm: number;
  rotationDeg: number;
  tiltXDeg: number;
  tiltYDeg: number;
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/**
 * The glass plane in bed space: `origin` is the active area's top-left corner, `ex` the unit step of
 * +1 mm along glass x, `ey` along glass y. Glass point (gx, gy) is origin + gx·ex + gy·ey.
 */
export interface GlassFrame {
  origin: Vec3;
  ex: Vec3;
  ey: Vec3;
}

const rad = (deg: number): number => (deg * Math.PI) / 180;

export function glassFrame(geometry: PhoneGeometry, pose: PhonePose): GlassFrame {
  const { width, height } = geometry.glassMm;
  const c = Math.cos(rad(pose.rotationDeg));
  const s = Math.sin(rad(pose.rotationDeg));
  const tx = rad(pose.tiltXDeg);
  const ty = rad(pose.tiltYDeg);
  // In the phone's own frame (u right, v toward its top, w out of the glass), tilts lift the glass.
  // Glass +x is phone +u; glass +y (down the screen) is phone −v.
  const exLocal = { u: Math.cos(ty), v: 0, w: Math.sin(ty) };
  const eyLocal = { u: 0, v: -Math.cos(tx), w: -Math.sin(tx) };
  const toBed = (l: { u: number; v: number; w: number }): Vec3 => ({
    x: c * l.u - s * l.v,
    y: s * l.u + c * l.v,
    z: l.w,
  });
  const ex = toBed(exLocal);
  const ey = toBed(eyLocal);
  const center: Vec3 = { x: pose.centerXMm, y: pose.centerYMm, z: geometry.body.thicknessMm };
  const origin: Vec3 = {
    x: center.x - (width / 2) * ex.x - (height / 2) * ey.x,
    y: center.y - (width / 2) * ex.y - (height / 2) * ey.y,
    z: center.z - (width / 2) * ex.z - (height / 2) * ey.z,
  };
  return { origin, ex, ey };
}

/** Bed-space point of a glass point. */
export function glassToBed(frame: GlassFrame, gxMm: number, gyMm: number): Vec3 {
  return {
    x: frame.origin.x + gxMm * frame.ex.x + gyMm * frame.ey.x,
    y: frame.origin.y + gxMm * frame.ex.y + gyMm * frame.ey.y,
    z: frame.origin.z + gxMm * frame.ex.z + gyMm * frame.ey.z,
  };
}

/**
 * Where a stylus coming straight down at bed (x, y) meets the glass plane, in glass millimetres.
 * The result may lie outside the active area; callers decide what that means (a miss).
 */
export function bedToGlass(frame: GlassFrame, xMm: number, yMm: number): { xMm: number; yMm: number } {
  // Solve origin.xy + gx·ex.xy + gy·ey.xy = (x, y) for (gx, gy): a 2×2 linear system.
  const a = frame.ex.x;
  const b = frame.ey.x;
  const c = frame.ex.y;
  const d = frame.ey.y;
  const det = a * d - b * c;
  const rx = xMm - frame.origin.x;
  const ry = yMm - frame.origin.y;
  return { xMm: (d * rx - b * ry) / det, yMm: (a * ry - c * rx) / det };
}
