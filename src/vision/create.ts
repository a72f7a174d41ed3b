import sharp from "sharp";
import type { FontBook } from "../shared/fonts.js";
import type { Clock } from "../util/clock.js";
import type { VisionConfig } from "./config.js";
import { OnnxDetector } from "./detector/index.js";
import type { IconMemory } from "./icon-memory.js";
import { createOcrEngine } from "./ocr/index.js";
import { DEFAULT_VISION_OPTIONS, VisionPipeline } from "./pipeline.js";
import type { ObjectDetector, OcrEngine } from "./types.js";

/** A vision pipeline with its model sessions; `close()` releases them. */
export interface VisionStack {
  pipeline: VisionPipeline;
  ocr: OcrEngine;
  detector: ObjectDetector;
  close(): Promise<void>;
}

/** Load the OCR and detector models named by the config (local files only) and build the pipeline. */
export async function createVision(
  config: { vision: VisionConfig },
  deps: {
    fonts: FontBook;
    clock: Clock;
    screenPx: { width: number; height: number };
    /** The phone's app-icon memory (one per phone); none for screenshots of unrelated phones. */
    iconMemory?: IconMemory;
  },
): Promise<VisionStack> {
  // libvips' operation cache (process-wide; 50 MB / 100 operations by default) only holds memory here:
  // every frame and screenshot is new, so a cached decode or resize is never asked for again. Measured
  // on 25 real 3× screenshots × 2 rounds: peak RSS 356 → 330 MB with it off (bench/README.md).
  sharp.cache(false);
  const ocr = await createOcrEngine(config.vision.ocr);
  let detector: ObjectDetector;
  try {
    detector = await OnnxDetector.create(config.vision.detector);
  } catch (err) {
    await ocr.close();
    throw err;
  }
  const pipeline = new VisionPipeline(
    {
      ocr,
      detector,
      fonts: deps.fonts,
      clock: deps.clock,
      screenPx: deps.screenPx,
      ...(deps.iconMemory ? { iconMemory: deps.iconMemory } : {}),
    },
    {
      ...DEFAULT_VISION_OPTIONS,
      rectifiedWidth: config.vision.rectifiedWidth,
      screenshotWidth: config.vision.screenshotWidth,
    },
  );
  return {
    pipeline,
    ocr,
    detector,
    async close() {
      await Promise.all([ocr.close(), detector.close()]);
    },
  };
}
