import { describe, expect, it } from "vitest";
import { IPHONE_61 } from "../../src/shared/phone-model.js";
import { bedToGlass, glassFrame, glassToBed } from "../../src/sim/pose.js";

describe("phone pose on the bed", () => {
  it("puts the screen centre at the pose centre, glass z at the phone's thickness", () => {
    const frame = glassFrame(IPHONE_61, {
      centerXMm: 100,
      centerYMm: 80,
      rotationDeg: 7,
      tiltXDeg: 0,
      tiltYDeg: 0,
    });
    const c = glassToBed(frame, IPHONE_61.glassMm.width / 2, IPHONE_61.glassMm.height / 2);
    expect(c.x).toBeCloseTo(100, 9);
    expect(c.y).toBeCloseTo(80, 9);
    expect(c.z).toBeCloseTo(IPHONE_61.body.thicknessMm, 9);
  });

  it("at rotation 0 the top of the screen points to the back of the bed (+y)", () => {
    const frame = glassFrame(IPHONE_61, {
      centerXMm: 0,
      centerYMm: 0,
      rotationDeg: 0,
      tiltXDeg: 0,
      tiltYDeg: 0,
    });
    const top = glassToBed(frame, 32, 0);
    const bottom = glassToBed(frame, 32, 139);
    expect(top.y).toBeGreaterThan(bottom.y);
    const left = glassToBed(frame, 0, 50);
    const right = glassToBed(frame, 60, 50);
    expect(right.x - left.x).toBeCloseTo(60, 9);
  });

  it("bedToGlass inverts glassToBed for rotated and tilted poses", () => {
    for (const pose of [
      { centerXMm: 120, centerYMm: 90, rotationDeg: -9.5, tiltXDeg: 2, tiltYDeg: -1.5 },
      { centerXMm: 60, centerYMm: 140, rotationDeg: 10, tiltXDeg: 0, tiltYDeg: 3 },
    ]) {
      const frame = glassFrame(IPHONE_61, pose);
      const bed = glassToBed(frame, 12.5, 101.25);
      const back = bedToGlass(frame, bed.x, bed.y);
      expect(back.xMm).toBeCloseTo(12.5, 9);
      expect(back.yMm).toBeCloseTo(101.25, 9);
    }
  });
});
