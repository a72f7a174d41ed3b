import { BUNDLE_VERSION, type CalibrationBundle } from "../../src/calibration/bundle.js";

/** A calibration bundle for the default simulated rig (corexy-fluidnc, iphone-6.1), made at `createdAtMs`. */
export function sampleBundle(createdAtMs: number, passed = true): CalibrationBundle {
  return {
    version: BUNDLE_VERSION,
    createdAt: new Date(createdAtMs).toISOString(),
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
      passed,
      thresholdMm: 1,
      taps: [
        {
          target: { x: 0.4, y: 0.5 },
          aimedBed: { xMm: 96, yMm: 100 },
          reported: { x: 0.4002, y: 0.5 },
          errorMm: passed ? 0.21 : 1.7,
          passed,
        },
      ],
      maxErrorMm: passed ? 0.21 : 1.7,
    },
  };
}
