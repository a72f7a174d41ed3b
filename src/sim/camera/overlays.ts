import { type CameraView, mat3Inverse, type PixelPoint } from "./optics.js";
import type { CarriageLook, GlareSpot, Rgb } from "./options.js";
import { type Vignette, vignetteAt } from "./sensor.js";

/**
 * Things drawn over the phone and bed after the main pass: the stylus carriage (which sits between the
 * camera and the phone) and a glare spot. Each only touches the bounding box of its projection.
 */

export interface OverlayTarget {
  view: CameraView;
  out: Uint8ClampedArray;
  gain: Rgb;
  vignette: Vignette | null;
}

const clamp01 = (x: number): number => (x < 0 ? 0 : Math.min(x, 1));

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function boxOf(points: PixelPoint[], pad: number, w: number, h: number): Box | null {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    x0 = Math.min(x0, p.u);
    y0 = Math.min(y0, p.v);
    x1 = Math.max(x1, p.u);
    y1 = Math.max(y1, p.v);
  }
  const box = {
    x0: Math.max(0, Math.floor(x0 - pad)),
    y0: Math.max(0, Math.floor(y0 - pad)),
    x1: Math.min(w - 1, Math.ceil(x1 + pad)),
    y1: Math.min(h - 1, Math.ceil(y1 + pad)),
  };
  return box.x0 > box.x1 || box.y0 > box.y1 ? null : box;
}

/** Blend `color` (scene value at nominal exposure) over one pixel with coverage `c`. */
function blend(t: OverlayTarget, x: number, y: number, color: Rgb, c: number): void {
  const v = t.vignette === null ? 1 : vignetteAt(t.vignette, x, y);
  const o = (y * t.view.width + x) * 3;
  for (let k = 0; k < 3; k++) {
    const old = t.out[o + k] ?? 0;
    t.out[o + k] = old + c * ((color[k] ?? 0) * (t.gain[k] ?? 1) * v - old);
  }
}

/**
 * The carriage at bed position (x, y): the stylus (a cylinder from its tip up to the block) first, then
 * the square block over it, since the block is nearer the camera.
 */
export function drawCarriage(t: OverlayTarget, look: CarriageLook, at: { xMm: number; yMm: number }): void {
  const { view } = t;
  const W = view.width;
  const H = view.height;
  const depth = (z: number): number => view.centre.z - z;

  // Stylus: a 2D capsule between the projected tip and the block's underside, radius by perspective.
  const a = view.projectBedPoint(at.xMm, at.yMm, look.stylusTipZMm);
  const b = view.projectBedPoint(at.xMm, at.yMm, look.bottomZMm);
  const ra = (look.stylusRadiusMm * view.focalPx) / depth(look.stylusTipZMm);
  const rb = (look.stylusRadiusMm * view.focalPx) / depth(look.bottomZMm);
  const sbox = boxOf([a, b], rb + 2, W, H);
  if (sbox !== null) {
    const dx = b.u - a.u;
    const dy = b.v - a.v;
    const len2 = dx * dx + dy * dy || 1e-9;
    for (let y = sbox.y0; y <= sbox.y1; y++) {
      for (let x = sbox.x0; x <= sbox.x1; x++) {
        const px = x + 0.5 - a.u;
        const py = y + 0.5 - a.v;
        const s = clamp01((px * dx + py * dy) / len2);
        const d = Math.hypot(px - s * dx, py - s * dy);
        const c = clamp01(ra + s * (rb - ra) - d + 0.5);
        if (c > 0) blend(t, x, y, look.stylusColor, c);
      }
    }
  }

  // Block: a ray through the top face inside the square sees the top; one that misses the top but
  // meets the bottom face inside the square crossed a side wall.
  const half = look.sizeMm / 2;
  const corners: PixelPoint[] = [];
  for (const z of [look.bottomZMm, look.topZMm])
    for (const [sx, sy] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ] as const)
      corners.push(view.projectBedPoint(at.xMm + sx * half, at.yMm + sy * half, z));
  const box = boxOf(corners, 2, W, H);
  if (box === null) return;
  const gTop = mat3Inverse(view.horizontalPlaneToPixel(look.topZMm));
  const gBot = mat3Inverse(view.horizontalPlaneToPixel(look.bottomZMm));
  const ppmTop = view.focalPx / depth(look.topZMm);
  const ppmBot = view.focalPx / depth(look.bottomZMm);
  const sd = (g: typeof gTop, u: number, v: number): number => {
    const w = g[6] * u + g[7] * v + g[8];
    const x = (g[0] * u + g[1] * v + g[2]) / w - at.xMm;
    const y = (g[3] * u + g[4] * v + g[5]) / w - at.yMm;
    return Math.max(Math.abs(x), Math.abs(y)) - half;
  };
  const col: Rgb = [0, 0, 0];
  for (let y = box.y0; y <= box.y1; y++) {
    for (let x = box.x0; x <= box.x1; x++) {
      const u = x + 0.5;
      const v = y + 0.5;
      const cTop = clamp01(0.5 - sd(gTop, u, v) * ppmTop);
      const cSide = cTop < 1 ? clamp01(0.5 - sd(gBot, u, v) * ppmBot) * (1 - cTop) : 0;
      const c = cTop + cSide;
      if (c <= 0) continue;
      for (let k = 0; k < 3; k++)
        col[k] = ((look.color[k] ?? 0) * cTop + (look.sideColor[k] ?? 0) * cSide) / c;
      blend(t, x, y, col, c);
    }
  }
}

/** A soft, bright reflection: added light, so it never darkens and it clips like real highlights. */
export function drawGlare(t: OverlayTarget, glare: GlareSpot): void {
  const W = t.view.width;
  const H = t.view.height;
  const cx = glare.xFrac * W;
  const cy = glare.yFrac * H;
  const rx = Math.max(1e-3, glare.radiusXFrac * W);
  const ry = Math.max(1e-3, glare.radiusYFrac * W);
  const box = boxOf(
    [
      { u: cx - 3 * rx, v: cy - 3 * ry },
      { u: cx + 3 * rx, v: cy + 3 * ry },
    ],
    1,
    W,
    H,
  );
  if (box === null) return;
  const peak = glare.intensity * 255;
  for (let y = box.y0; y <= box.y1; y++) {
    const ny = (y + 0.5 - cy) / ry;
    for (let x = box.x0; x <= box.x1; x++) {
      const nx = (x + 0.5 - cx) / rx;
      const add = peak * Math.exp(-0.5 * (nx * nx + ny * ny));
      const o = (y * W + x) * 3;
      for (let k = 0; k < 3; k++) t.out[o + k] = (t.out[o + k] ?? 0) + add * (t.gain[k] ?? 1);
    }
  }
}
