/**
 * Shapes shared by the vision pipeline. Boxes are `[left, top, right, bottom]` in 0–1 fractions of the
 * image they were found in (for the pipeline: the rectified phone screen), so they never depend on the
 * resolution a stage happened to run at.
 */

import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";

/** One line (or word) of recognised text. */
export interface TextLine {
  text: string;
  box: FracBox;
  /** Recognition confidence, 0–1. */
  conf: number;
  /**
   * Where each space of `text` was read (the recogniser's CTC time step), in order, as x fractions of
   * the image; absent when unknown. Lets a later pass cut the text at a place in the image (`links.ts`).
   */
  spaces?: readonly number[];
}

/** Reads text in an image. Implementations own model sessions: call `close()` when done. */
export interface OcrEngine {
  /**
   * Every text line found, in no particular order; never throws for an image without text. With
   * `detail` (the same screen at a higher resolution), lines are found on `image` and read from
   * `detail`'s pixels: small text reads better from a sharp crop than from an upsampled one.
   */
  recognize(image: RgbImage, detail?: RgbImage): Promise<TextLine[]>;
  /**
   * Per box (fractions of `detail`), the lone digit it holds as a text line (its ink's box), or
   * undefined: icon boxes offered after `recognize` (`icon-digits.ts`). Optional: engines without it
   * read no digits from icons.
   */
  readDigits?(detail: RgbImage, boxes: readonly FracBox[]): Promise<(TextLine | undefined)[]>;
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
