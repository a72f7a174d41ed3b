import type { PhoneGeometry } from "../../shared/phone-model.js";
import { applyHomography, type CameraView, mat3Inverse, type PixelPoint } from "./optics.js";
import type { BedLook, PhoneLook, Rgb } from "./options.js";
import type { Vignette } from "./sensor.js";

/**
 * The phone-on-the-bed part of a frame: for every output pixel, walk its ray back onto the body's top
 * plane (glass, bezel, frame rim), the body's bottom plane (side walls) and the bed (cutting mat).
 * Everything runs off incremental inverse homographies, so a pixel costs a few adds, three divides and
 * one bilinear screen sample; edges are antialiased with signed distances instead of supersampling.
 */

/** The screen resampled to about the size it occupies in the frame (RGB). */
export interface PrefilteredScreen {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface SceneInput {
  view: CameraView;
  geometry: PhoneGeometry;
  bed: BedLook;
  phone: PhoneLook;
  screen: PrefilteredScreen;
  /** Gamma-domain exposure × white-balance factor per channel for room-lit surfaces. */
  gain: Rgb;
  /** The same for the emissive screen (includes the panel's tint). */
  screenGain: Rgb;
  /** Gamma-domain vignetting, or null for none. */
  vignette: Vignette | null;
  /** RGB output; values are rounded and clamped here (a plain Uint8Array stores faster than a clamped one). */
  out: Uint8Array;
}

const clamp01 = (x: number): number => (x < 0 ? 0 : Math.min(x, 1));

/** Signed distance (mm) to a rounded rectangle given by its centre, half sizes and corner radius. */
function roundedRectSd(x: number, y: number, cx: number, cy: number, hx: number, hy: number, r: number) {
  const qx = Math.abs(x - cx) - (hx - r);
  const qy = Math.abs(y - cy) - (hy - r);
  // Only the corner quadrants need the square root.
  if (qx > 0 && qy > 0) return Math.sqrt(qx * qx + qy * qy) - r;
  return Math.max(qx, qy) - r;
}

export function renderScene(input: SceneInput): void {
  const { view, geometry, bed, phone, screen, gain, screenGain, vignette, out } = input;
  const W = view.width;
  const H = view.height;
  const gt = mat3Inverse(view.bodyTopToPixel);
  const gb = mat3Inverse(view.bodyBottomToPixel);
  const gd = mat3Inverse(view.bedToPixel);
  // Pixels per mm on each plane, for antialiasing widths (constant over the frame is close enough).
  const ppmTop = view.focalPx / view.glassDistanceMm;
  const ppmBed = view.focalPx / (view.glassDistanceMm + geometry.body.thicknessMm);

  const body = geometry.body;
  const bcx = body.widthMm / 2;
  const bcy = body.heightMm / 2;
  const br = body.cornerRadiusMm;
  const sx0 = body.screenInsetMm.x;
  const sy0 = body.screenInsetMm.y;
  const shx = geometry.glassMm.width / 2;
  const shy = geometry.glassMm.height / 2;
  const scx = sx0 + shx;
  const scy = sy0 + shy;
  const sr = geometry.screenCornerRadiusMm;
  const frameW = phone.frameWidthMm;
  // Fast-path bounds: well inside the screen (no edge within 1.5 px), or so far outside the body that
  // neither its side walls nor its contact shadow can show.
  const m = 1.5 / ppmTop;
  const inAx = shx - m;
  const inAy = shy - sr - m;
  const inBx = shx - sr - m;
  const inBy = shy - m;
  const far = SHADOW_REACH_MM + body.thicknessMm;
  // The near region (body outline + `far`) projects to a convex quad; per row, only its span needs the
  // phone planes, the rest of the row is plain bed.
  const quad = [
    [-far, -far],
    [body.widthMm + far, -far],
    [body.widthMm + far, body.heightMm + far],
    [-far, body.heightMm + far],
  ].map(([qx = 0, qy = 0]) => applyHomography(view.bodyTopToPixel, qx, qy));

  const [gr, gg, gbl] = gain;
  const bez = phone.bezelColor;
  const frm = phone.frameColor;
  const side = phone.sideColor;
  const shadow = bed.contactShadow;
  const c = new Float64Array(3);
  const vlut = vignette?.lut ?? new Float32Array(1);
  const vdx2 = vignette?.dx2 ?? new Float64Array(1);
  const vscale = vignette?.scale ?? 0;
  const sp = screenParams(screen, geometry, phone, screenGain, gain);
  const bp = bedParams(bed, ppmBed);

  const [t0, t1, t2, t3, t4, t5, t6, t7, t8] = gt;
  const [b0, b1, b2, b3, b4, b5, b6, b7, b8] = gb;
  const [d0, d1, d2, d3, d4, d5, d6, d7, d8] = gd;
  for (let y = 0; y < H; y++) {
    const py = y + 0.5;
    // Numerators and denominators at the row's first pixel centre; step by the first column per pixel.
    let tX = t0 * 0.5 + t1 * py + t2;
    let tY = t3 * 0.5 + t4 * py + t5;
    let tW = t6 * 0.5 + t7 * py + t8;
    let bX = b0 * 0.5 + b1 * py + b2;
    let bY = b3 * 0.5 + b4 * py + b5;
    let bW = b6 * 0.5 + b7 * py + b8;
    let dX = d0 * 0.5 + d1 * py + d2;
    let dY = d3 * 0.5 + d4 * py + d5;
    let dW = d6 * 0.5 + d7 * py + d8;
    let o = y * W * 3;
    const vdy = vignette === null ? 0 : (vignette.dy2[y] ?? 0);
    const [spanA, spanB] = rowSpan(quad, py);
    for (let x = 0; x < W; x++, o += 3) {
      let r: number;
      let g: number;
      let b: number;
      let bx = 0;
      let by = 0;
      let inner = false;
      const near = x >= spanA && x <= spanB;
      if (near) {
        bx = tX / tW;
        by = tY / tW;
        const qx = Math.abs(bx - scx);
        const qy = Math.abs(by - scy);
        inner = (qx < inAx && qy < inAy) || (qx < inBx && qy < inBy);
      }
      if (!near) {
        bedColor(bp, dX / dW, dY / dW, c);
        r = (c[0] ?? 0) * gr;
        g = (c[1] ?? 0) * gg;
        b = (c[2] ?? 0) * gbl;
      } else if (inner) {
        sampleScreen(sp, bx, by, 1, c);
        r = c[0] ?? 0;
        g = c[1] ?? 0;
        b = c[2] ?? 0;
      } else {
        r = 0;
        g = 0;
        b = 0;
        const sdBody = roundedRectSd(bx, by, bcx, bcy, bcx, bcy, br);
        const covBody = clamp01(0.5 - sdBody * ppmTop);
        if (covBody > 0) {
          // Top of the phone: screen inside its rounded corners, black glass around it, metal rim outside.
          const covScreen = clamp01(0.5 - roundedRectSd(bx, by, scx, scy, shx, shy, sr) * ppmTop);
          if (covScreen > 0) {
            sampleScreen(sp, bx, by, covScreen, c);
          } else {
            c[0] = bez[0] * gr;
            c[1] = bez[1] * gg;
            c[2] = bez[2] * gbl;
          }
          const covFrame = clamp01(0.5 + (sdBody + frameW) * ppmTop);
          r = ((c[0] ?? 0) + covFrame * (frm[0] * gr - (c[0] ?? 0))) * covBody;
          g = ((c[1] ?? 0) + covFrame * (frm[1] * gg - (c[1] ?? 0))) * covBody;
          b = ((c[2] ?? 0) + covFrame * (frm[2] * gbl - (c[2] ?? 0))) * covBody;
        }
        if (covBody < 1) {
          // Beyond the top outline: the side wall if the ray meets the phone's back inside its outline
          // (it crossed the wall on the way down), the bed otherwise.
          const sdBottom = roundedRectSd(bX / bW, bY / bW, bcx, bcy, bcx, bcy, br);
          const covSide = clamp01(0.5 - sdBottom * ppmBed);
          bedColor(bp, dX / dW, dY / dW, c);
          let k = 1 - covSide;
          if (sdBottom > 0 && sdBottom < SHADOW_REACH_MM) {
            const q = 1 + sdBottom / 3;
            k *= 1 - shadow / (q * q);
          }
          const rest = 1 - covBody;
          r += ((c[0] ?? 0) * k + side[0] * covSide) * gr * rest;
          g += ((c[1] ?? 0) * k + side[1] * covSide) * gg * rest;
          b += ((c[2] ?? 0) * k + side[2] * covSide) * gbl * rest;
        }
      }
      if (vignette !== null) {
        const v = vlut[(((vdx2[x] ?? 0) + vdy) * vscale) | 0] ?? 1;
        r *= v;
        g *= v;
        b *= v;
      }
      out[o] = r < 254.5 ? r + 0.5 : 255;
      out[o + 1] = g < 254.5 ? g + 0.5 : 255;
      out[o + 2] = b < 254.5 ? b + 0.5 : 255;
      tX += t0;
      tY += t3;
      tW += t6;
      bX += b0;
      bY += b3;
      bW += b6;
      dX += d0;
      dY += d3;
      dW += d6;
    }
  }
}

/** Columns [a, b] where row line v = `py` crosses a convex quad (a > b when it misses). */
function rowSpan(quad: PixelPoint[], py: number): [number, number] {
  let a = Number.POSITIVE_INFINITY;
  let b = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < quad.length; i++) {
    const p = quad[i];
    const q = quad[(i + 1) % quad.length];
    if (p === undefined || q === undefined) continue;
    if ((p.v <= py && q.v >= py) || (q.v <= py && p.v >= py)) {
      const u = q.v === p.v ? Math.min(p.u, q.u) : p.u + ((py - p.v) / (q.v - p.v)) * (q.u - p.u);
      const u2 = q.v === p.v ? Math.max(p.u, q.u) : u;
      a = Math.min(a, u);
      b = Math.max(b, u2);
    }
  }
  return [Math.floor(a) - 1, Math.ceil(b) + 1];
}

/** How far from the phone's outline its contact shadow reaches. */
const SHADOW_REACH_MM = 12;

interface ScreenParams {
  sx0: number;
  sy0: number;
  spx: number;
  spy: number;
  sw: number;
  sh: number;
  d: Uint8Array;
  gr: number;
  gg: number;
  gb: number;
  lr: number;
  lg: number;
  lb: number;
  zr: number;
  zg: number;
  zb: number;
  refl: number;
}

function screenParams(
  screen: PrefilteredScreen,
  geometry: PhoneGeometry,
  phone: PhoneLook,
  screenGain: Rgb,
  gain: Rgb,
): ScreenParams {
  return {
    sx0: geometry.body.screenInsetMm.x,
    sy0: geometry.body.screenInsetMm.y,
    spx: screen.width / geometry.glassMm.width,
    spy: screen.height / geometry.glassMm.height,
    sw: screen.width,
    sh: screen.height,
    d: screen.data,
    gr: gain[0],
    gg: gain[1],
    gb: gain[2],
    lr: phone.screenLevel * screenGain[0],
    lg: phone.screenLevel * screenGain[1],
    lb: phone.screenLevel * screenGain[2],
    zr: phone.bezelColor[0],
    zg: phone.bezelColor[1],
    zb: phone.bezelColor[2],
    refl: phone.glassReflection,
  };
}

/**
 * Bilinear sample of the prefiltered screen at body point (bx, by), as light reaching the sensor:
 * glass reflection plus the panel's own light, over the black bezel by screen coverage `cov`.
 * (Plain functions over a params object rather than per-frame closures: V8 keeps them inlined.)
 */
function sampleScreen(p: ScreenParams, bx: number, by: number, cov: number, c: Float64Array): void {
  const sw = p.sw;
  const sh = p.sh;
  const d = p.d;
  const fx = (bx - p.sx0) * p.spx - 0.5;
  const fy = (by - p.sy0) * p.spy - 0.5;
  let x0 = Math.floor(fx);
  let y0 = Math.floor(fy);
  const ax = fx - x0;
  const ay = fy - y0;
  let x1 = x0 + 1;
  let y1 = y0 + 1;
  x0 = x0 < 0 ? 0 : x0 >= sw ? sw - 1 : x0;
  x1 = x1 < 0 ? 0 : x1 >= sw ? sw - 1 : x1;
  y0 = y0 < 0 ? 0 : y0 >= sh ? sh - 1 : y0;
  y1 = y1 < 0 ? 0 : y1 >= sh ? sh - 1 : y1;
  const i00 = (y0 * sw + x0) * 3;
  const i01 = (y0 * sw + x1) * 3;
  const i10 = (y1 * sw + x0) * 3;
  const i11 = (y1 * sw + x1) * 3;
  const w00 = (1 - ax) * (1 - ay);
  const w01 = ax * (1 - ay);
  const w10 = (1 - ax) * ay;
  const w11 = ax * ay;
  const pr = (d[i00] ?? 0) * w00 + (d[i01] ?? 0) * w01 + (d[i10] ?? 0) * w10 + (d[i11] ?? 0) * w11;
  const pg =
    (d[i00 + 1] ?? 0) * w00 + (d[i01 + 1] ?? 0) * w01 + (d[i10 + 1] ?? 0) * w10 + (d[i11 + 1] ?? 0) * w11;
  const pb =
    (d[i00 + 2] ?? 0) * w00 + (d[i01 + 2] ?? 0) * w01 + (d[i10 + 2] ?? 0) * w10 + (d[i11 + 2] ?? 0) * w11;
  // The glass reflects the room whatever the panel shows; the panel adds its own light on top.
  const refl = p.refl;
  c[0] = p.zr * p.gr + cov * ((refl - p.zr) * p.gr + pr * p.lr);
  c[1] = p.zg * p.gg + cov * ((refl - p.zg) * p.gg + pg * p.lg);
  c[2] = p.zb * p.gb + cov * ((refl - p.zb) * p.gb + pb * p.lb);
}

interface BedParams {
  mr: number;
  mg: number;
  mb: number;
  dr: number;
  dg: number;
  db: number;
  ur: number;
  ug: number;
  ub: number;
  spacing: number;
  inv: number;
  half: number;
  major: number;
  reach: number;
  ppm: number;
  w: number;
  h: number;
}

function bedParams(bed: BedLook, ppm: number): BedParams {
  const half = bed.gridLineMm / 2;
  return {
    mr: bed.color[0],
    mg: bed.color[1],
    mb: bed.color[2],
    dr: bed.gridColor[0] - bed.color[0],
    dg: bed.gridColor[1] - bed.color[1],
    db: bed.gridColor[2] - bed.color[2],
    ur: bed.surroundColor[0],
    ug: bed.surroundColor[1],
    ub: bed.surroundColor[2],
    spacing: bed.gridSpacingMm,
    inv: 1 / bed.gridSpacingMm,
    half,
    major: Math.max(1, Math.round(bed.majorEvery)),
    reach: half * 2 + 1 / ppm,
    ppm,
    w: bed.widthMm,
    h: bed.heightMm,
  };
}

/** Coverage of the nearest grid line at coordinate `v` (mm), antialiased by the line's pixel width. */
function gridLine(p: BedParams, v: number): number {
  const n = Math.floor(v * p.inv + 0.5);
  const d = Math.abs(v - n * p.spacing);
  if (d > p.reach) return 0;
  const hw = n - Math.floor(n / p.major) * p.major === 0 ? p.half * 2 : p.half;
  return clamp01((hw - d) * p.ppm + 0.5);
}

/** The cutting mat at bed point (x, y) with its grid, or the table beyond the bed. */
function bedColor(p: BedParams, x: number, y: number, c: Float64Array): void {
  if (x < 0 || y < 0 || x > p.w || y > p.h) {
    c[0] = p.ur;
    c[1] = p.ug;
    c[2] = p.ub;
    return;
  }
  const lx = gridLine(p, x);
  const ly = gridLine(p, y);
  const line = Math.max(lx, ly);
  c[0] = p.mr + line * p.dr;
  c[1] = p.mg + line * p.dg;
  c[2] = p.mb + line * p.db;
}
