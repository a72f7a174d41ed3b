import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { PiclawError } from "../../src/util/errors.js";
import type { OcrEngine, TextLine } from "../../src/vision/types.js";

/** Anything that can report what text is on screen; a `SimPhone` fits (`truth().elements`). */
export interface FakeOcrSource {
  truth(): {
    elements: readonly { kind: string; label: string; box: readonly [number, number, number, number] }[];
  };
}

/**
 * An OcrEngine for fast tests of the code above OCR: instead of reading pixels it returns the text
 * elements the source says are visible (or a fixed list), each with confidence `conf`. It keeps the
 * real engine's contract: an image under 8 px on a side reads as nothing, and `recognize` after
 * `close()` rejects with `OCR_CLOSED`.
 */
export class FakeOcrEngine implements OcrEngine {
  /** Images passed to `recognize`, oldest first (for asserting what the caller sent). */
  readonly seen: RgbImage[] = [];
  private closed = false;

  constructor(
    private readonly source: FakeOcrSource | readonly TextLine[],
    private readonly conf = 0.99,
  ) {}

  async recognize(image: RgbImage): Promise<TextLine[]> {
    if (this.closed) throw new PiclawError("OCR_CLOSED", "the OCR engine is closed");
    this.seen.push(image);
    if (image.width < 8 || image.height < 8) return [];
    if (Array.isArray(this.source)) return this.source.map((l) => ({ ...l, box: [...l.box] as FracBox }));
    const { elements } = (this.source as FakeOcrSource).truth();
    return elements
      .filter((e) => e.kind === "text" && e.label.trim() !== "")
      .map((e) => ({ text: e.label, conf: this.conf, box: [e.box[0], e.box[1], e.box[2], e.box[3]] }));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
