import { z } from "zod";
import { detectorConfigSchema } from "./detector/config.js";
import { ocrConfigSchema } from "./ocr/config.js";

/** Default `vision.screenshotWidth` (see its description). */
export const SCREENSHOT_WIDTH = 585;

/** The `vision:` config section. */
export const visionConfigSchema = z
  .strictObject({
    rectifiedWidth: z
      .number()
      .int()
      .min(160)
      .max(1600)
      .default(585)
      .describe(
        "Width (px) of the rectified screen image the listing is made from and the agent sees (height follows the phone's aspect).",
      ),
    screenshotWidth: z
      .number()
      .int()
      .min(160)
      .max(4096)
      .default(SCREENSHOT_WIDTH)
      .describe(
        "Working width (px) for screenshots: a screenshot is divided by the whole factor (2×, 3×…) that brings its width closest to this, area-averaged, before text is found, the UI detector runs and the rows get their meaning; text is still read from the full-size pixels. Boxes are screen fractions either way. Measured on the real-screen set (bench/README.md).",
      ),
    ocr: ocrConfigSchema.prefault({}),
    detector: detectorConfigSchema.prefault({}),
  })
  .describe("Seeing: rectification, OCR and the UI-element detector.");

export type VisionConfig = z.infer<typeof visionConfigSchema>;
