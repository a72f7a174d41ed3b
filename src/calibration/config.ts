import { z } from "zod";

/**
 * The `calibration:` config section: options of `piclaw calibrate`. Every key has a default, so
 * `calibrationConfigSchema.parse({})` is a working calibration for the 6.1" phone.
 */

const frac = (d: number) => z.number().min(0).max(0.45).default(d);

export const calibrationConfigSchema = z
  .strictObject({
    pattern: z
      .strictObject({
        cols: z.number().int().min(3).max(12).default(5).describe("Dot columns of the camera target."),
        rows: z.number().int().min(3).max(20).default(9).describe("Dot rows of the camera target."),
      })
      .prefault({})
      .describe("The dot grid the phone shows for the camera fit."),
    camera: z
      .strictObject({
        ransacThresholdPx: z
          .number()
          .min(0.2)
          .max(20)
          .default(2)
          .describe("A dot whose centre lies farther than this from the fit (px) is an outlier."),
        minMarkers: z
          .number()
          .int()
          .min(6)
          .max(200)
          .default(12)
          .describe("Fewest dots the fit must keep as inliers."),
        maxRmsPx: z
          .number()
          .min(0.1)
          .max(20)
          .default(1.5)
          .describe("Calibration fails when the camera fit's RMS reprojection error exceeds this (px)."),
      })
      .prefault({})
      .describe("Camera↔screen homography."),
    arm: z
      .strictObject({
        roughCenterXMm: z
          .number()
          .optional()
          .describe("Where the screen centre roughly is on the bed, x (mm). Default: the travel's centre."),
        roughCenterYMm: z
          .number()
          .optional()
          .describe("Where the screen centre roughly is on the bed, y (mm). Default: the travel's centre."),
        roughRotationDeg: z
          .number()
          .min(-45)
          .max(45)
          .default(0)
          .describe("Rough phone rotation on the bed (0 = portrait, top toward bed +y)."),
        searchStepMm: z
          .number()
          .min(5)
          .max(60)
          .default(25)
          .describe("Spacing of the search taps when the rough centre misses the screen."),
        searchRadiusMm: z
          .number()
          .min(0)
          .max(300)
          .default(90)
          .describe("How far from the rough centre to search for the screen."),
        gridCols: z.number().int().min(2).max(12).default(4).describe("Columns of the fitting tap grid."),
        gridRows: z.number().int().min(2).max(20).default(6).describe("Rows of the fitting tap grid."),
        marginX: frac(0.12).describe("Left/right margin of the tap grid and validation targets (fraction)."),
        marginTop: frac(0.1).describe("Top margin (fraction): keeps taps off the status bar."),
        marginBottom: frac(0.12).describe("Bottom margin (fraction): keeps taps off the home indicator."),
        ransacThresholdMm: z
          .number()
          .min(0.05)
          .max(10)
          .default(0.5)
          .describe("A tap farther than this (bed mm) from the fit is an outlier."),
        touchTimeoutMs: z
          .number()
          .int()
          .min(50)
          .max(10_000)
          .default(800)
          .describe("How long to wait for the phone to report a tap."),
        allowedMarginMm: z
          .number()
          .min(0)
          .max(50)
          .default(5)
          .describe("Soft-limit margin around the calibrated screen."),
      })
      .prefault({})
      .describe("Screen↔arm map: search, bootstrap triangle, tap grid, robust fit."),
    validation: z
      .strictObject({
        taps: z.number().int().min(1).max(100).default(5).describe("Random validation taps."),
        passMm: z
          .number()
          .min(0.05)
          .max(10)
          .default(1)
          .describe("Every validation tap must land within this distance (glass mm) of its target."),
      })
      .prefault({})
      .describe("Validation: random targets tapped through the fitted map."),
  })
  .describe("Calibration (`piclaw calibrate`).");

export type CalibrationOptions = z.infer<typeof calibrationConfigSchema>;
