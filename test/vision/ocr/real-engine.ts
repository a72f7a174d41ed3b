import { afterAll, beforeAll } from "vitest";
import { createOcrEngine, type PaddleOcrEngine } from "../../../src/vision/ocr/index.js";

/**
 * The real OCR engine (PP-OCRv4 models from the npm package) for one `describe` block: loaded before
 * its tests, closed after them. Returns a getter; it throws when called before the engine loaded.
 */
export function useRealOcrEngine(): () => PaddleOcrEngine {
  let engine: PaddleOcrEngine | undefined;
  beforeAll(async () => {
    engine = await createOcrEngine();
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });
  return () => {
    if (!engine) throw new Error("the OCR engine did not load");
    return engine;
  };
}
