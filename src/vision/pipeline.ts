import type { FontBook } from "../shared/fonts.js";
import type { Mat3 } from "../shared/homography.js";
import type { RgbImage } from "../shared/image.js";
import type { Clock } from "../util/clock.js";
import { type AnnotateOptions, DEFAULT_ANNOTATE_OPTIONS, ScreenAnnotator } from "./annotate.js";
import type { IconMemory } from "./icon-memory.js";
import {
  buildListing,
  DEFAULT_LISTING_OPTIONS,
  formatListing,
  type ListingEntry,
  type ListingOptions,
} from "./listing.js";
import { decodeRgb, stretchContrast, warpToScreen } from "./rectify.js";
import type { ObjectDetector, OcrEngine } from "./types.js";

/**
 * The path from a picture of the phone to what the agent reads: rectify the camera frame into the
 * screen rectangle, run OCR and the UI detector on it, merge both into the listing, and draw the
 * numbered boxes on the image the model sees. (onnxruntime-node runs a session synchronously on the JS
 * thread, so the two models take turns; each run spreads over the cores with intra-op threads.)
 * A screenshot skips rectification: it already is the screen.
 */
export interface ScreenView {
  /** The rectified (or screenshot) screen the listing describes. */
  screen: RgbImage;
  entries: ListingEntry[];
  /** The listing rows, one per line. */
  listing: string;
  /** Annotated JPEG. */
  image: Buffer;
  /** Milliseconds per stage, for logs and the bench. */
  timings: { decode: number; rectify: number; recognise: number; annotate: number; total: number };
}

export interface VisionOptions {
  /** Width of the rectified screen in pixels (height follows the phone's screen aspect). */
  rectifiedWidth: number;
  listing: ListingOptions;
  annotate: AnnotateOptions;
}

export const DEFAULT_VISION_OPTIONS: VisionOptions = {
  rectifiedWidth: 585,
  listing: DEFAULT_LISTING_OPTIONS,
  annotate: DEFAULT_ANNOTATE_OPTIONS,
};

export interface VisionDeps {
  ocr: OcrEngine;
  detector: ObjectDetector;
  fonts: FontBook;
  clock: Clock;
  /** The phone's screen size in pixels (for the rectified aspect ratio). */
  screenPx: { width: number; height: number };
  /** The phone's app-icon memory (names dock icons); one per phone, owned by the caller. */
  iconMemory?: IconMemory;
}

export class VisionPipeline {
  private readonly annotator: ScreenAnnotator;

  constructor(
    private readonly deps: VisionDeps,
    private readonly options: VisionOptions = DEFAULT_VISION_OPTIONS,
  ) {
    this.annotator = new ScreenAnnotator(deps.fonts, options.annotate);
  }

  /** Size of the rectified screen image. */
  get rectifiedSize(): { width: number; height: number } {
    const { width, height } = this.deps.screenPx;
    const w = this.options.rectifiedWidth;
    return { width: w, height: Math.round((w * height) / width) };
  }

  /** Camera frame (JPEG) → the rectified screen the listing is made from, without reading it. */
  async rectify(frame: Buffer, screenToCamera: Mat3): Promise<RgbImage> {
    return this.rectifyDecoded(await decodeRgb(frame), screenToCamera);
  }

  private rectifyDecoded(decoded: RgbImage, screenToCamera: Mat3): RgbImage {
    const { width, height } = this.rectifiedSize;
    return stretchContrast(warpToScreen(decoded, screenToCamera, width, height));
  }

  /** Camera frame (JPEG) → view, through the calibrated screen-fraction → camera-pixel homography. */
  async fromCamera(frame: Buffer, screenToCamera: Mat3): Promise<ScreenView> {
    const t0 = this.deps.clock.now();
    const decoded = await decodeRgb(frame);
    const t1 = this.deps.clock.now();
    const screen = this.rectifyDecoded(decoded, screenToCamera);
    const t2 = this.deps.clock.now();
    return this.describe(screen, { decode: t1 - t0, rectify: t2 - t1, start: t0 });
  }

  /** Already-rectified screen pixels (a screenshot, decoded) → view. */
  async fromScreen(screen: RgbImage): Promise<ScreenView> {
    const t0 = this.deps.clock.now();
    return this.describe(screen, { decode: 0, rectify: 0, start: t0 });
  }

  /** Screenshot PNG/JPEG bytes → view. */
  async fromScreenshot(image: Buffer): Promise<ScreenView> {
    const t0 = this.deps.clock.now();
    const screen = await decodeRgb(image);
    return this.describe(screen, { decode: this.deps.clock.now() - t0, rectify: 0, start: t0 });
  }

  private async describe(
    screen: RgbImage,
    t: { decode: number; rectify: number; start: number },
  ): Promise<ScreenView> {
    const { ocr, detector, clock } = this.deps;
    const t0 = clock.now();
    const [text, objects] = await Promise.all([ocr.recognize(screen), detector.detect(screen)]);
    const entries = buildListing(text, objects, this.options.listing, screen, this.deps.iconMemory);
    const t1 = clock.now();
    const image = await this.annotator.annotate(screen, entries);
    const t2 = clock.now();
    return {
      screen,
      entries,
      listing: formatListing(entries),
      image,
      timings: {
        decode: t.decode,
        rectify: t.rectify,
        recognise: t1 - t0,
        annotate: t2 - t1,
        total: t2 - t.start,
      },
    };
  }
}
