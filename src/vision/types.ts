/**
 * Shapes shared by the vision pipeline. Boxes are `[left, top, right, bottom]` in 0–1 fractions of the
 * image they were found in (for the pipeline: the rectified phone screen), so they never depend on the
 * resolution a stage happened to run at.
 */

/** `[left, top, right, bottom]`, each in 0–1, left < right, top < bottom. */
export type FracBox = [left: number, top: number, right: number, bottom: number];

/** Raw interleaved RGB pixels (3 channels), row-major, top-left origin. */
export interface RgbImage {
  width: number;
  height: number;
  data: Buffer;
}

/** One line (or word) of recognised text. */
export interface TextLine {
  text: string;
  box: FracBox;
  /** Recognition confidence, 0–1. */
  conf: number;
}

/** Reads text in an image. Implementations own model sessions: call `close()` when done. */
export interface OcrEngine {
  /** Every text line found, in no particular order; never throws for an image without text. */
  recognize(image: RgbImage): Promise<TextLine[]>;
  close(): Promise<void>;
}

/** One object found by a detector; `cls` is a class name from the model's class list (e.g. `icon`). */
export interface DetectedObject {
  cls: string;
  box: FracBox;
  /** Detection confidence, 0–1. */
  conf: number;
}

/** Finds UI objects (icons, controls, text blocks) in an image. Call `close()` when done. */
export interface ObjectDetector {
  readonly classes: readonly string[];
  detect(image: RgbImage): Promise<DetectedObject[]>;
  close(): Promise<void>;
}
