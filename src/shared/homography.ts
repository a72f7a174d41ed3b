import { PiclawError } from "../util/errors.js";
import type { Random } from "../util/random.js";

/**
 * Plane-to-plane maps. A homography is a row-major 3×3 matrix H taking (x, y) to
 * ((h0 x + h1 y + h2) / w, (h3 x + h4 y + h5) / w) with w = h6 x + h7 y + h8. Used for camera↔screen
 * (perspective) and screen↔arm (nearly affine) maps alike.
 */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

export interface Point {
  x: number;
  y: number;
}

/** A correspondence: `from` in the source plane maps to `to` in the target plane. */
export interface PointPair {
  from: Point;
  to: Point;
}

const at = (m: readonly number[], i: number): number => m[i] ?? 0;

export function mat3Mul(a: Mat3, b: Mat3): Mat3 {
  const r = new Array<number>(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      r[i * 3 + j] =
        at(a, i * 3) * at(b, j) + at(a, i * 3 + 1) * at(b, 3 + j) + at(a, i * 3 + 2) * at(b, 6 + j);
  return r;
}

export function mat3Inverse(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0 || !Number.isFinite(det)) throw new RangeError("mat3Inverse: singular matrix");
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}

/** Apply a homography to (x, y). */
export function applyHomography(h: Mat3, x: number, y: number): Point {
  const w = h[6] * x + h[7] * y + h[8];
  return { x: (h[0] * x + h[1] * y + h[2]) / w, y: (h[3] * x + h[4] * y + h[5]) / w };
}

/** Scale so the matrix's last element is 1 (when it can be), for stable comparison and storage. */
export function normalizeHomography(h: Mat3): Mat3 {
  const s = Math.abs(h[8]) > 1e-12 ? h[8] : 1;
  return h.map((v) => v / s) as Mat3;
}

/** Hartley normalisation: translate to the centroid, scale to mean distance √2. */
function normalizer(points: readonly Point[]): Mat3 {
  let cx = 0;
  let cy = 0;
  for (const p of points) {
    cx += p.x;
    cy += p.y;
  }
  cx /= points.length;
  cy /= points.length;
  let d = 0;
  for (const p of points) d += Math.hypot(p.x - cx, p.y - cy);
  d /= points.length;
  const s = d > 0 ? Math.SQRT2 / d : 1;
  return [s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1];
}

/** Solve the n×n system A x = b in place (Gaussian elimination, partial pivoting); null when singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(a[r]?.[col] ?? 0) > Math.abs(a[pivot]?.[col] ?? 0)) pivot = r;
    const pr = a[pivot] as number[];
    if (Math.abs(pr[col] ?? 0) < 1e-12) return null;
    [a[col], a[pivot]] = [pr, a[col] as number[]];
    [b[col], b[pivot]] = [b[pivot] ?? 0, b[col] ?? 0];
    const row = a[col] as number[];
    for (let r = col + 1; r < n; r++) {
      const other = a[r] as number[];
      const f = (other[col] ?? 0) / (row[col] ?? 1);
      if (f === 0) continue;
      for (let k = col; k < n; k++) other[k] = (other[k] ?? 0) - f * (row[k] ?? 0);
      b[r] = (b[r] ?? 0) - f * (b[col] ?? 0);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = a[r] as number[];
    let s = b[r] ?? 0;
    for (let k = r + 1; k < n; k++) s -= (row[k] ?? 0) * (x[k] ?? 0);
    x[r] = s / (row[r] ?? 1);
  }
  return x;
}

/**
 * Least-squares homography through ≥4 pairs (normalised DLT with h8 = 1, solved by normal equations).
 * With exactly 4 pairs it interpolates them. Throws GEOMETRY_DEGENERATE for collinear or too few points.
 */
export function fitHomography(pairs: readonly PointPair[]): Mat3 {
  if (pairs.length < 4)
    throw new PiclawError(
      "GEOMETRY_DEGENERATE",
      `a homography needs at least 4 point pairs, got ${pairs.length}`,
    );
  const tFrom = normalizer(pairs.map((p) => p.from));
  const tTo = normalizer(pairs.map((p) => p.to));
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  const add = (row: number[], rhs: number): void => {
    for (let i = 0; i < 8; i++) {
      const ri = row[i] ?? 0;
      if (ri === 0) continue;
      const line = ata[i] as number[];
      for (let j = 0; j < 8; j++) line[j] = (line[j] ?? 0) + ri * (row[j] ?? 0);
      atb[i] = (atb[i] ?? 0) + ri * rhs;
    }
  };
  for (const { from, to } of pairs) {
    const p = applyHomography(tFrom, from.x, from.y);
    const q = applyHomography(tTo, to.x, to.y);
    add([p.x, p.y, 1, 0, 0, 0, -q.x * p.x, -q.x * p.y], q.x);
    add([0, 0, 0, p.x, p.y, 1, -q.y * p.x, -q.y * p.y], q.y);
  }
  const h = solve(ata, atb);
  if (!h || h.some((v) => !Number.isFinite(v)))
    throw new PiclawError(
      "GEOMETRY_DEGENERATE",
      "the points are collinear or repeated: no unique homography",
    );
  const hn = [...h, 1] as Mat3;
  return normalizeHomography(mat3Mul(mat3Inverse(tTo), mat3Mul(hn, tFrom)));
}

/** Distance between where `h` sends each pair's `from` and its `to`. */
export function transferErrors(h: Mat3, pairs: readonly PointPair[]): number[] {
  return pairs.map(({ from, to }) => {
    const p = applyHomography(h, from.x, from.y);
    return Math.hypot(p.x - to.x, p.y - to.y);
  });
}

export interface RobustFit {
  h: Mat3;
  /** Indices of the pairs within the threshold of the final fit. */
  inliers: number[];
  /** Transfer error of every pair under the final fit (target-plane units). */
  errors: number[];
}

/**
 * RANSAC over minimal 4-point samples, then a least-squares refit on the consensus set (repeated
 * until it stops growing). `thresholdPx` is in target-plane units. Deterministic for a given `random`.
 */
export function fitHomographyRobust(
  pairs: readonly PointPair[],
  options: { threshold: number; random: Random; iterations?: number },
): RobustFit {
  if (pairs.length < 4)
    throw new PiclawError(
      "GEOMETRY_DEGENERATE",
      `a homography needs at least 4 point pairs, got ${pairs.length}`,
    );
  const iterations = options.iterations ?? 300;
  let best: number[] = [];
  for (let it = 0; it < iterations && best.length < pairs.length; it++) {
    const pick = new Set<number>();
    while (pick.size < 4) pick.add(Math.floor(options.random.next() * pairs.length));
    let h: Mat3;
    try {
      h = fitHomography([...pick].map((i) => pairs[i] as PointPair));
    } catch {
      continue;
    }
    const inliers = inliersOf(h, pairs, options.threshold);
    if (inliers.length > best.length) best = inliers;
  }
  if (best.length < 4) best = pairs.map((_, i) => i);
  let h = fitHomography(best.map((i) => pairs[i] as PointPair));
  for (let round = 0; round < 5; round++) {
    const next = inliersOf(h, pairs, options.threshold);
    if (next.length < 4 || next.length <= best.length) break;
    best = next;
    h = fitHomography(best.map((i) => pairs[i] as PointPair));
  }
  return { h, inliers: inliersOf(h, pairs, options.threshold), errors: transferErrors(h, pairs) };
}

function inliersOf(h: Mat3, pairs: readonly PointPair[], threshold: number): number[] {
  const errors = transferErrors(h, pairs);
  const out: number[] = [];
  errors.forEach((e, i) => {
    if (Number.isFinite(e) && e <= threshold) out.push(i);
  });
  return out;
}
