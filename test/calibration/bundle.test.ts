import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BUNDLE_VERSION,
  bundlePaths,
  type CalibrationBundle,
  readBundle,
  writeBundle,
} from "../../src/calibration/bundle.js";
import { rejection } from "../helpers/errors.js";

function sampleBundle(createdAt = "2026-01-05T09:41:00.000Z"): CalibrationBundle {
  return {
    version: BUNDLE_VERSION,
    createdAt,
    rigProfile: "corexy-fluidnc",
    phone: { model: "iphone-6.1", glassMm: { width: 64.6, height: 139.8 } },
    camera: {
      width: 2304,
      height: 1296,
      screenToCamera: [10, 1200, 500, -600, 5, 950, 0.0001, 0.0002, 1],
      markers: { expected: 45, found: 45, inliers: 45 },
      reprojection: { rmsPx: 0.02, maxPx: 0.05, rmsMm: 0.002, maxMm: 0.006 },
    },
    arm: {
      screenToBed: [64, 2, 70, 3, -139, 170, 0, 0, 1],
      pairs: 28,
      inliers: 28,
      residual: { rmsMm: 0.02, maxMm: 0.04 },
      allowedArea: { minXMm: 62, minYMm: 26, maxXMm: 141, maxYMm: 175 },
    },
    validation: {
      passed: true,
      thresholdMm: 1,
      taps: [
        {
          target: { x: 0.4, y: 0.5 },
          aimedBed: { xMm: 96, yMm: 100 },
          reported: { x: 0.4002, y: 0.5 },
          errorMm: 0.013,
          passed: true,
        },
        {
          target: { x: 0.7, y: 0.2 },
          aimedBed: { xMm: 115, yMm: 142 },
          reported: null,
          errorMm: null,
          passed: false,
        },
      ],
      maxErrorMm: 0.013,
    },
  };
}

const tempState = (): string => mkdtempSync(join(tmpdir(), "piclaw-cal-"));

describe("calibration bundle", () => {
  it("round-trips through an atomic write and keeps the previous bundle", () => {
    const dir = tempState();
    const first = sampleBundle();
    const path = writeBundle(dir, first);
    expect(path).toBe(join(dir, "calibration", "bundle.json"));
    expect(readBundle(path)).toEqual(first);
    expect(existsSync(bundlePaths(dir).previous)).toBe(false);

    const second = sampleBundle("2026-01-06T10:00:00.000Z");
    writeBundle(dir, second);
    expect(readBundle(path).createdAt).toBe(second.createdAt);
    expect(readBundle(bundlePaths(dir).previous).createdAt).toBe(first.createdAt);
    // No temp files are left behind.
    expect(readdirSync(join(dir, "calibration")).sort()).toEqual(["bundle.json", "bundle.prev.json"]);
  });

  it("refuses to write an invalid bundle, leaving the old one", () => {
    const dir = tempState();
    writeBundle(dir, sampleBundle());
    const bad = { ...sampleBundle(), rigProfile: "" };
    expect(() => writeBundle(dir, bad)).toThrow(/rigProfile/);
    expect(readBundle(bundlePaths(dir).current).rigProfile).toBe("corexy-fluidnc");
  });

  it("a missing bundle says to run piclaw calibrate", async () => {
    const err = await rejection(Promise.resolve().then(() => readBundle(join(tempState(), "nope.json"))));
    expect(err.code).toBe("CALIBRATION_BUNDLE_MISSING");
    expect(err.message).toMatch(/piclaw calibrate/);
  });

  const corrupt = (text: string) => {
    const path = join(tempState(), "bundle.json");
    writeFileSync(path, text);
    return rejection(Promise.resolve().then(() => readBundle(path)));
  };

  it("truncated JSON is a clear error", async () => {
    const text = JSON.stringify(sampleBundle());
    const err = await corrupt(text.slice(0, text.length / 2));
    expect(err.code).toBe("CALIBRATION_BUNDLE_INVALID");
    expect(err.message).toMatch(/not valid JSON/);
  });

  it("a bad field is named in the error", async () => {
    const b = sampleBundle() as unknown as { arm: { screenToBed: number[] } };
    b.arm.screenToBed = b.arm.screenToBed.slice(0, 8);
    const err = await corrupt(JSON.stringify(b));
    expect(err.code).toBe("CALIBRATION_BUNDLE_INVALID");
    expect(err.details.field).toBe("arm.screenToBed");
    expect(err.message).toMatch(/arm\.screenToBed: must be 9 numbers/);

    const c = sampleBundle() as unknown as { validation: { taps: { errorMm: unknown }[] } };
    (c.validation.taps[0] as { errorMm: unknown }).errorMm = "small";
    const err2 = await corrupt(JSON.stringify(c));
    expect(err2.details.field).toBe("validation.taps[0].errorMm");

    const d = sampleBundle() as unknown as Record<string, unknown>;
    delete d.camera;
    expect((await corrupt(JSON.stringify(d))).message).toMatch(/camera/);
  });

  it("an unknown version is refused with a hint to recalibrate", async () => {
    const err = await corrupt(JSON.stringify({ ...sampleBundle(), version: 2 }));
    expect(err.message).toMatch(/version 2 is not supported.*recalibrate/);
  });

  it("the written file is pretty JSON with version 1 first", () => {
    const dir = tempState();
    writeBundle(dir, sampleBundle());
    const text = readFileSync(bundlePaths(dir).current, "utf8");
    expect(text.startsWith('{\n  "version": 1,')).toBe(true);
  });
});
