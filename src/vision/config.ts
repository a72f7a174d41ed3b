import { z } from "zod";
import { detectorConfigSchema } from "./detector/config.js";
import { ocrConfigSchema } from "./ocr/config.js";

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
    ocr: ocrConfigSchema.prefault({}),
    detector: detectorConfigSchema.prefault({}),
  })
  .describe("Seeing: rectification, OCR and the UI-element detector.");

export type VisionConfig = z.infer<typeof visionConfigSchema>;
