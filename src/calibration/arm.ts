import type { BedArea } from "../rig/controller.js";
import type { BedPoint } from "../rig/motion.js";
import { applyHomography, fitHomographyRobust, type Mat3, type PointPair } from "../shared/homography.js";
import { PiclawError } from "../util/errors.js";
import type { ScreenTouch } from "./agent.js";
import { type Residual, stats } from "./camera.js";
import type { CalibrationOptions } from "./config.js";
import { affineFrom3 } from "./markers.js";
import { fmtBed, fmtFrac, type TapDeps, tapAndRead } from "./taps.js";

export type ArmOptions = CalibrationOptions["arm"];

export interface ArmFit {
  /** Screen fractions (0–1) → bed millimetres (gantry coordinates). */
  screenToBed: Mat3;
  /** Taps used: reported touch (screen fraction) ↔ commanded stylus position (bed mm). */
  pairs: number;
  inliers: number;
  /** Transfer error of the inliers, bed mm. */
  residual: Residual;
  /** The screen's bounding box on the bed plus the margin: the soft limits after calibration. */
  allowedArea: BedArea;
  /** Taps spent finding the screen, and taps that hit nothing during the whole fit. */
  searchTaps: number;
  misses: number;
}

const at = (h: Mat3, x: number, y: number): BedPoint => {
  const p = applyHomography(h, x, y);
  return { xMm: p.x, yMm: p.y };
};

/**
 * Screen↔arm calibration. Every tap yields an exact correspondence — the phone reports where the tip
 * landed (screen fraction) and we know where we sent it (bed mm) — so aiming only has to be good enough
 * to stay on the screen:
 * 1. search: tap at the rough screen centre, then on a widening grid, until the phone reports a touch;
 * 2. bootstrap: from that touch and the rough rotation, estimate the centre and tap a triangle around
 *    it; its three reports fit an affine map;
 * 3. grid: aim the affine at a cols×rows grid inside the margins (clear of the status bar and home
 *    indicator), then fit a homography robustly to every report.
 * Throws CALIBRATION_SCREEN_NOT_FOUND, CALIBRATION_BOOTSTRAP_MISSED or CALIBRATION_ARM_FIT.
 * The phone must show the pattern page throughout, so taps are reported and swallowed.
 */
export async function calibrateArm(deps: TapDeps, o: ArmOptions): Promise<ArmFit> {
  deps.motion.setAllowedArea(null); // before calibration the whole travel is allowed
  const travel = deps.motion.allowedArea;
  const rough: BedPoint = {
    xMm: o.roughCenterXMm ?? (travel.minXMm + travel.maxXMm) / 2,
    yMm: o.roughCenterYMm ?? (travel.minYMm + travel.maxYMm) / 2,
  };
  const pairs: PointPair[] = [];
  const record = (touch: ScreenTouch, bed: BedPoint): void => {
    pairs.push({ from: { x: touch.x, y: touch.y }, to: { x: bed.xMm, y: bed.yMm } });
  };
  let misses = 0;

  // 1. Search.
  const found = await search(deps, o, rough, travel);
  misses += found.taps - 1;
  record(found.touch, found.bed);

  // 2. Bootstrap triangle around the estimated centre (portrait, rotated by the rough rotation).
  const { width: gw, height: gh } = deps.glassMm;
  const th = (o.roughRotationDeg * Math.PI) / 180;
  const ex = { x: Math.cos(th), y: Math.sin(th) }; // +1 mm along the screen's x, in bed mm
  const ey = { x: Math.sin(th), y: -Math.cos(th) }; // +1 mm down the screen
  const offset = (p: BedPoint, ax: number, ay: number): BedPoint => ({
    xMm: p.xMm + ax * ex.x + ay * ey.x,
    yMm: p.yMm + ax * ex.y + ay * ey.y,
  });
  const centre = offset(found.bed, (0.5 - found.touch.x) * gw, (0.5 - found.touch.y) * gh);
  deps.report(`screen centre estimated at ${fmtBed(centre)}`);
  const triangle: [BedPoint, BedPoint, BedPoint] = [
    offset(centre, -0.15 * gw, -0.18 * gh),
    offset(centre, 0.15 * gw, -0.18 * gh),
    offset(centre, 0, 0.18 * gh),
  ];
  const corners: { from: ScreenTouch; to: BedPoint }[] = [];
  for (const [i, bed] of triangle.entries()) {
    const touch = await tapAndRead(deps, bed, o.touchTimeoutMs);
    if (!touch)
      throw new PiclawError(
        "CALIBRATION_BOOTSTRAP_MISSED",
        `bootstrap tap ${i + 1}/3 at ${fmtBed(bed)} was not reported by the phone; is the rough rotation right?`,
        { tap: i + 1, bed },
      );
    deps.report(`bootstrap tap ${i + 1}/3 at ${fmtBed(bed)} → screen ${fmtFrac(touch)}`);
    record(touch, bed);
    corners.push({ from: touch, to: bed });
  }
  const affine = affineFrom3(
    corners.map((c) => ({ from: { x: c.from.x, y: c.from.y }, to: { x: c.to.xMm, y: c.to.yMm } })),
  );

  // 3. Grid.
  const total = o.gridCols * o.gridRows;
  let k = 0;
  for (let row = 0; row < o.gridRows; row++)
    for (let col = 0; col < o.gridCols; col++) {
      k++;
      const fx = o.marginX + (col * (1 - 2 * o.marginX)) / (o.gridCols - 1);
      const fy = o.marginTop + (row * (1 - o.marginTop - o.marginBottom)) / (o.gridRows - 1);
      const bed = at(affine, fx, fy);
      const touch = await tapAndRead(deps, bed, o.touchTimeoutMs);
      if (!touch) {
        misses++;
        deps.report(`grid ${k}/${total} at ${fmtBed(bed)}: no touch reported`);
        continue;
      }
      record(touch, bed);
      deps.report(`grid ${k}/${total} at ${fmtBed(bed)} → screen ${fmtFrac(touch)}`);
    }
  if (pairs.length < 8)
    throw new PiclawError("CALIBRATION_ARM_FIT", `only ${pairs.length} taps were reported; need at least 8`, {
      pairs: pairs.length,
    });
  const robust = fitHomographyRobust(pairs, { threshold: o.ransacThresholdMm, random: deps.random });
  const residual = stats(robust.inliers.map((i) => robust.errors[i] ?? 0));
  if (robust.inliers.length < Math.max(8, Math.ceil(pairs.length * 0.6)))
    throw new PiclawError(
      "CALIBRATION_ARM_FIT",
      `only ${robust.inliers.length} of ${pairs.length} taps agree within ${o.ransacThresholdMm} mm`,
      { inliers: robust.inliers.length, pairs: pairs.length },
    );
  return {
    screenToBed: robust.h,
    pairs: pairs.length,
    inliers: robust.inliers.length,
    residual,
    allowedArea: screenArea(robust.h, o.allowedMarginMm),
    searchTaps: found.taps,
    misses,
  };
}

/** The bed box holding the whole screen, grown by `marginMm`. */
export function screenArea(screenToBed: Mat3, marginMm: number): BedArea {
  const corners = [
    at(screenToBed, 0, 0),
    at(screenToBed, 1, 0),
    at(screenToBed, 0, 1),
    at(screenToBed, 1, 1),
  ];
  return {
    minXMm: Math.min(...corners.map((c) => c.xMm)) - marginMm,
    minYMm: Math.min(...corners.map((c) => c.yMm)) - marginMm,
    maxXMm: Math.max(...corners.map((c) => c.xMm)) + marginMm,
    maxYMm: Math.max(...corners.map((c) => c.yMm)) + marginMm,
  };
}

/** Tap at the rough centre, then on a square grid around it (nearest first) until a touch is reported. */
async function search(
  deps: TapDeps,
  o: ArmOptions,
  rough: BedPoint,
  travel: BedArea,
): Promise<{ bed: BedPoint; touch: ScreenTouch; taps: number }> {
  const n = Math.floor(o.searchRadiusMm / o.searchStepMm);
  const inside = (p: BedPoint): boolean =>
    p.xMm >= travel.minXMm + 1 &&
    p.xMm <= travel.maxXMm - 1 &&
    p.yMm >= travel.minYMm + 1 &&
    p.yMm <= travel.maxYMm - 1;
  const candidates: BedPoint[] = [];
  for (let i = -n; i <= n; i++)
    for (let j = -n; j <= n; j++) {
      const p = { xMm: rough.xMm + i * o.searchStepMm, yMm: rough.yMm + j * o.searchStepMm };
      if (Math.hypot(i, j) * o.searchStepMm <= o.searchRadiusMm + 1e-9 && inside(p)) candidates.push(p);
    }
  candidates.sort(
    (a, b) =>
      Math.hypot(a.xMm - rough.xMm, a.yMm - rough.yMm) - Math.hypot(b.xMm - rough.xMm, b.yMm - rough.yMm),
  );
  let taps = 0;
  for (const bed of candidates) {
    taps++;
    const touch = await tapAndRead(deps, bed, o.touchTimeoutMs);
    deps.report(
      `search tap ${taps} at ${fmtBed(bed)}: ${touch ? `screen ${fmtFrac(touch)}` : "off the screen"}`,
    );
    if (touch) return { bed, touch, taps };
  }
  throw new PiclawError(
    "CALIBRATION_SCREEN_NOT_FOUND",
    `no tap within ${o.searchRadiusMm} mm of ${fmtBed(rough)} reached the screen; set calibration.arm.roughCenterXMm/YMm`,
    { rough, taps },
  );
}
