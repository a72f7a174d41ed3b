import { availableParallelism } from "node:os";

/** Most threads the automatic setting gives one model: a Pi 4/5 has four cores. */
export const MAX_AUTO_THREADS = 4;

/**
 * ONNX Runtime intra-op threads for a configured value: a positive number is taken as is, 0 means one
 * per core this process may use, at most {@link MAX_AUTO_THREADS}. onnxruntime-node runs a session
 * synchronously on the JS thread, so the OCR models and the detector never overlap: each run can use
 * every core, and more threads than cores only adds switching.
 */
export function inferenceThreads(configured: number, cores: number = availableParallelism()): number {
  if (configured > 0) return Math.floor(configured);
  return Math.max(1, Math.min(MAX_AUTO_THREADS, Math.floor(cores)));
}
