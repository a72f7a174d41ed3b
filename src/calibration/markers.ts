import { applyHomography, fitHomography, type Mat3, type Point } from "../shared/homography.js";
import { PiclawError } from "../util/errors.js";
import type { Blob } from "./blobs.js";
import type { CalibrationPattern, PatternDot } from "./pattern.js";

/** A pattern dot and where its centre was found in the camera frame (continuous pixels). */
export interface MarkerMatch {
  dot: PatternDot;
  px: Point;
}

export interface MarkerSearch {
  matches: MarkerMatch[];
  /** Blobs that passed the shape filter (dots and anything dot-like). */
  blobs: number;
}

/**
 * Identify the pattern's dots among the blobs of a frame: find the three large orientation dots (the
 * "L"), take the affine they imply as a first guess, match every dot to the nearest blob, then refine
 * with a homography and match again with a tighter radius. Works at any in-plane rotation; perspective
 * only has to be mild enough that the affine guess lands within half a grid step.
 * Throws CALIBRATION_PATTERN_NOT_FOUND when the orientation dots are not there.
 */
export function matchPattern(
  blobs: readonly Blob[],
  pattern: CalibrationPattern,
  glassMm: { width: number; height: number },
): MarkerSearch {
  const corners = findOrientationDots(blobs, pattern, glassMm);
  const dot = (col: number, row: number): PatternDot => {
    const d = pattern.dots.find((p) => p.col === col && p.row === row);
    if (!d) throw new PiclawError("CALIBRATION_PATTERN_INVALID", `the pattern has no dot (${col}, ${row})`);
    return d;
  };
  const tl = dot(0, 0);
  const tr = dot(pattern.cols - 1, 0);
  const bl = dot(0, pattern.rows - 1);
  let map = affineFrom3([
    { from: tl, to: corners.tl },
    { from: tr, to: corners.tr },
    { from: bl, to: corners.bl },
  ]);
  let matches: MarkerMatch[] = [];
  for (const radiusFactor of [0.45, 0.3, 0.3]) {
    matches = matchAll(blobs, pattern, map, radiusFactor);
    if (matches.length >= 4) map = fitHomography(matches.map((m) => ({ from: m.dot, to: m.px })));
  }
  return { matches, blobs: blobs.length };
}

/** Nearest blob to each predicted dot, within `radiusFactor` × the local grid step; each blob used once. */
function matchAll(
  blobs: readonly Blob[],
  pattern: CalibrationPattern,
  map: Mat3,
  radiusFactor: number,
): MarkerMatch[] {
  const sx = gridStep(pattern, "x");
  const sy = gridStep(pattern, "y");
  const used = new Set<number>();
  const out: MarkerMatch[] = [];
  for (const d of pattern.dots) {
    const p = applyHomography(map, d.x, d.y);
    const nx = applyHomography(map, d.x + sx, d.y);
    const ny = applyHomography(map, d.x, d.y + sy);
    // The grid step in the frame near this dot, as the current map sees it.
    const spacing = Math.min(Math.hypot(nx.x - p.x, nx.y - p.y), Math.hypot(ny.x - p.x, ny.y - p.y));
    let best = -1;
    let bestD = radiusFactor * spacing;
    blobs.forEach((b, i) => {
      if (used.has(i)) return;
      const dist = Math.hypot(b.x - p.x, b.y - p.y);
      if (dist < bestD) {
        bestD = dist;
        best = i;
      }
    });
    const b = blobs[best];
    if (b) {
      used.add(best);
      out.push({ dot: d, px: { x: b.x, y: b.y } });
    }
  }
  return out;
}

/** Spacing of neighbouring dots along x or y, in screen fractions. */
function gridStep(pattern: CalibrationPattern, axis: "x" | "y"): number {
  const a = pattern.dots.find((d) => d.col === 0 && d.row === 0);
  const b = pattern.dots.find((d) =>
    axis === "x" ? d.col === 1 && d.row === 0 : d.col === 0 && d.row === 1,
  );
  return a && b ? Math.abs(axis === "x" ? b.x - a.x : b.y - a.y) : 0.1;
}

interface Corners {
  tl: Point;
  tr: Point;
  bl: Point;
}

/**
 * The three big dots: blobs about (bigScale)² the area of the typical dot, forming a right angle whose
 * legs have the pattern's length ratio. The corner is the vertex opposite the longest side; which leg is
 * which comes from their lengths, so rotation (and mirroring) does not matter.
 */
function findOrientationDots(
  blobs: readonly Blob[],
  pattern: CalibrationPattern,
  glassMm: { width: number; height: number },
): Corners {
  const notFound = (why: string, details: Record<string, unknown> = {}): never => {
    throw new PiclawError("CALIBRATION_PATTERN_NOT_FOUND", `calibration pattern not found: ${why}`, {
      blobs: blobs.length,
      ...details,
    });
  };
  if (blobs.length < 4) notFound(`only ${blobs.length} dot-like blobs in the frame`);
  const typical = typicalArea(blobs);
  const small = pattern.dots.find((d) => !d.big);
  const big = pattern.dots.find((d) => d.big);
  if (!small || !big)
    throw new PiclawError("CALIBRATION_PATTERN_INVALID", "the pattern needs small and big dots");
  const expected = (big.r / small.r) ** 2;
  const candidates = blobs.filter(
    (b) => b.area >= typical * expected * 0.65 && b.area <= typical * expected * 1.5,
  );
  if (candidates.length < 3)
    notFound(`${candidates.length} of the 3 large orientation dots found`, { candidates: candidates.length });
  const legX = (pattern.cols - 1) * gridStep(pattern, "x") * glassMm.width;
  const legY = (pattern.rows - 1) * gridStep(pattern, "y") * glassMm.height;
  const ratio = Math.max(legX, legY) / Math.min(legX, legY);
  let best: { score: number; corners: Corners } | null = null;
  const list = candidates.slice(0, 24);
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++)
      for (let k = j + 1; k < list.length; k++) {
        const tri = [list[i], list[j], list[k]] as [Blob, Blob, Blob];
        const scored = scoreTriple(tri, ratio, legX <= legY);
        if (scored && (!best || scored.score < best.score)) best = scored;
      }
  if (!best || best.score > 0.5)
    return notFound("the large dots do not form the pattern's L", { candidates: candidates.length });
  return best.corners;
}

function scoreTriple(
  tri: [Blob, Blob, Blob],
  ratio: number,
  xLegShorter: boolean,
): { score: number; corners: Corners } | null {
  const d = (a: Blob, b: Blob): number => Math.hypot(a.x - b.x, a.y - b.y);
  // Corner = vertex opposite the longest side.
  const sides = [d(tri[1], tri[2]), d(tri[0], tri[2]), d(tri[0], tri[1])];
  const ci = sides.indexOf(Math.max(...sides));
  const corner = tri[ci] as Blob;
  const others = tri.filter((_, i) => i !== ci) as [Blob, Blob];
  const [near, far] = d(corner, others[0]) <= d(corner, others[1]) ? others : [others[1], others[0]];
  const a = { x: near.x - corner.x, y: near.y - corner.y };
  const b = { x: far.x - corner.x, y: far.y - corner.y };
  const la = Math.hypot(a.x, a.y);
  const lb = Math.hypot(b.x, b.y);
  if (la === 0 || lb === 0) return null;
  const cos = Math.abs((a.x * b.x + a.y * b.y) / (la * lb));
  const score = Math.abs(Math.log(lb / la / ratio)) + cos;
  const p = (q: Blob): Point => ({ x: q.x, y: q.y });
  const corners = xLegShorter
    ? { tl: p(corner), tr: p(near), bl: p(far) }
    : { tl: p(corner), tr: p(far), bl: p(near) };
  return { score, corners };
}

/** The area most blobs share (the small dots): the blob with the most others within ±35 % of its area. */
function typicalArea(blobs: readonly Blob[]): number {
  let best = blobs[0]?.area ?? 0;
  let bestCount = -1;
  for (const b of blobs) {
    let count = 0;
    for (const o of blobs) if (o.area >= b.area / 1.35 && o.area <= b.area * 1.35) count++;
    if (count > bestCount) {
      bestCount = count;
      best = b.area;
    }
  }
  return best;
}

/** The affine map (as a homography) through three point pairs. */
export function affineFrom3(pairs: readonly { from: Point; to: Point }[]): Mat3 {
  const [p0, p1, p2] = pairs;
  if (!p0 || !p1 || !p2) throw new PiclawError("GEOMETRY_DEGENERATE", "an affine map needs 3 point pairs");
  const ux = p1.from.x - p0.from.x;
  const uy = p1.from.y - p0.from.y;
  const vx = p2.from.x - p0.from.x;
  const vy = p2.from.y - p0.from.y;
  const det = ux * vy - vx * uy;
  if (Math.abs(det) < 1e-12) throw new PiclawError("GEOMETRY_DEGENERATE", "the three points are collinear");
  // Solve [a b; c d] · [u v] = [U V] where U, V are the target differences.
  const Ux = p1.to.x - p0.to.x;
  const Uy = p1.to.y - p0.to.y;
  const Vx = p2.to.x - p0.to.x;
  const Vy = p2.to.y - p0.to.y;
  const a = (Ux * vy - Vx * uy) / det;
  const b = (Vx * ux - Ux * vx) / det;
  const c = (Uy * vy - Vy * uy) / det;
  const e = (Vy * ux - Uy * vx) / det;
  return [
    a,
    b,
    p0.to.x - a * p0.from.x - b * p0.from.y,
    c,
    e,
    p0.to.y - c * p0.from.x - e * p0.from.y,
    0,
    0,
    1,
  ];
}
