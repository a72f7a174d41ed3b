import { z } from "zod";
import { detectorConfigSchema } from "./detector/config.js";
import { ocrConfigSchema } from "./ocr/config.js";

/**
 * Default `vision.screenshotWidth`: the widest current iPhone screenshot (1320 px), so phone screenshots
 * are read at full size. 585 halves a 3× shot for ~14% less CPU per peek at a small measured accuracy
 * cost on the real set (bench/README.md, 2026-11-27), which is why it is not the default.
 */
export const SCREENSHOT_WIDTH = 1320;

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
