import { describe, expect, it } from "vitest";
import {
  applyHomography,
  fitHomography,
  fitHomographyRobust,
  type Mat3,
  mat3Inverse,
  mat3Mul,
  type PointPair,
} from "../../src/shared/homography.js";
import { PiclawError } from "../../src/util/errors.js";
import { seededRandom } from "../../src/util/random.js";

const H: Mat3 = [1.8, 0.12, 310, -0.09, 1.75, 120, 0.0002, -0.0001, 1];

function pairsOn(h: Mat3, n: number, seed = 3): PointPair[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const from = { x: r.next() * 1170, y: r.next() * 2532 };
    return { from, to: applyHomography(h, from.x, from.y) };
  });
}

describe("homography", () => {
  it("fits an exact perspective map from 4 and from many pairs", () => {
    for (const n of [4, 30]) {
      const h = fitHomography(pairsOn(H, n));
      for (const { from, to } of pairsOn(H, 10, 99)) {
        const p = applyHomography(h, from.x, from.y);
        expect(Math.hypot(p.x - to.x, p.y - to.y)).toBeLessThan(1e-6);
      }
    }
  });

  it("inverts: H⁻¹·H is the identity", () => {
    const i = mat3Mul(mat3Inverse(H), H);
    for (const [k, v] of [1, 0, 0, 0, 1, 0, 0, 0, 1].entries()) expect(i[k]).toBeCloseTo(v, 9);
  });

  it("refuses too few or collinear points with GEOMETRY_DEGENERATE", () => {
    expect(() => fitHomography(pairsOn(H, 3))).toThrow(PiclawError);
    const line = [0, 1, 2, 3, 4].map((k) => ({ from: { x: k, y: 2 * k }, to: { x: k, y: k } }));
    try {
      fitHomography(line);
      expect.unreachable();
    } catch (err) {
      expect((err as PiclawError).code).toBe("GEOMETRY_DEGENERATE");
    }
  });

  it("RANSAC ignores gross outliers and reports them", () => {
    const pairs = pairsOn(H, 40);
    const noisy = seededRandom(7);
    for (const p of pairs)
      p.to = { x: p.to.x + (noisy.next() - 0.5) * 0.6, y: p.to.y + (noisy.next() - 0.5) * 0.6 };
    const bad = [3, 11, 25, 31];
    for (const i of bad) {
      const p = pairs[i] as PointPair;
      p.to = { x: p.to.x + 80, y: p.to.y - 45 };
    }
    const plain = fitHomography(pairs);
    const robust = fitHomographyRobust(pairs, { threshold: 2, random: seededRandom(1) });
    expect(robust.inliers.length).toBe(36);
    for (const i of bad) expect(robust.inliers).not.toContain(i);
    const probe = { x: 600, y: 1200 };
    const truth = applyHomography(H, probe.x, probe.y);
    const err = (h: Mat3) => {
      const p = applyHomography(h, probe.x, probe.y);
      return Math.hypot(p.x - truth.x, p.y - truth.y);
    };
    expect(err(robust.h)).toBeLessThan(0.5);
    expect(err(plain)).toBeGreaterThan(2);
  });
});
