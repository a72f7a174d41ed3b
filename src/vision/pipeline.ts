import type { FontBook } from "../shared/fonts.js";
import type { Mat3 } from "../shared/homography.js";
import type { RgbImage } from "../shared/image.js";
import type { Clock } from "../util/clock.js";
import { type AnnotateOptions, DEFAULT_ANNOTATE_OPTIONS, ScreenAnnotator } from "./annotate.js";
import { SCREENSHOT_WIDTH } from "./config.js";
import { stackStill } from "./frame-stack.js";
import { digitsInIcons } from "./icon-digits.js";
import type { IconMemory } from "./icon-memory.js";
import {
  buildListing,
  DEFAULT_LISTING_OPTIONS,
  formatListing,
  type ListingEntry,
  type ListingOptions,
} from "./listing.js";
import { decodeRgb, shrinkRgb, stretchContrast, warpToScreen } from "./rectify.js";
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
  timings: {
    decode: number;
    rectify: number;
    recognise: number;
    annotate: number;
    total: number;
    /** Camera frames averaged into the screen (`fromCamera` given several; absent otherwise). */
    frames?: number;
  };
}

export interface VisionOptions {
  /** Width of the rectified screen in pixels (height follows the phone's screen aspect). */
  rectifiedWidth: number;
  /**
   * A screenshot is divided by the whole factor that brings its width closest to this (`workingWidth`;
   * area-averaged) before text is found, the detector runs and the rows get their meaning: a 3× phone
   * screenshot holds far more pixels than those need. Text is still read from the full-size pixels.
   * Boxes are screen fractions, so the listing does not change form; the view's `screen` and
   * annotated image are at the working size.
   */
  screenshotWidth: number;
  listing: ListingOptions;
  annotate: AnnotateOptions;
}

export const DEFAULT_VISION_OPTIONS: VisionOptions = {
  rectifiedWidth: 585,
  screenshotWidth: SCREENSHOT_WIDTH,
  listing: DEFAULT_LISTING_OPTIONS,
  annotate: DEFAULT_ANNOTATE_OPTIONS,
};

/**
 * Width a `width`-pixel screenshot is worked on at: divided by the whole factor that brings it closest
 * to `target` (for 585: 1170 → 585, 1242 → 621, 750 and 828 unchanged), so every working pixel averages a whole
 * block of source pixels.
 */
export function workingWidth(width: number, target: number): number {
  return Math.round(width / Math.max(1, Math.round(width / target)));
}

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

  /**
   * Camera frame (JPEG) → view, through the calibrated screen-fraction → camera-pixel homography.
   * Given successive frames (oldest first), each is rectified and the newest together with the frames
   * before it that show the same picture are averaged (`frame-stack.ts`): the sensor noise falls by
   * √N, and a frame from before a change is never mixed in. `timings.frames` says how many were.
   */
  async fromCamera(frame: Buffer | readonly Buffer[], screenToCamera: Mat3): Promise<ScreenView> {
    const t0 = this.deps.clock.now();
    const jpegs = Buffer.isBuffer(frame) ? [frame] : frame;
    let decodeMs = 0;
    const rectified: RgbImage[] = [];
    // One frame decoded at a time: each 2304 × 1296 decode (9 MB) is dropped once rectified.
    for (const jpeg of jpegs) {
      const a = this.deps.clock.now();
      const decoded = await decodeRgb(jpeg);
      decodeMs += this.deps.clock.now() - a;
      const { width, height } = this.rectifiedSize;
      rectified.push(warpToScreen(decoded, screenToCamera, width, height));
    }
    const stack = stackStill(rectified);
    const screen = stretchContrast(stack.image);
    const t2 = this.deps.clock.now();
    const view = await this.describe(screen, { decode: decodeMs, rectify: t2 - t0 - decodeMs, start: t0 });
    return { ...view, timings: { ...view.timings, frames: stack.frames } };
  }

  /**
   * Already-rectified screen pixels (a screenshot, decoded) → view. A screenshot much wider than
   * `screenshotWidth` is shrunk by a whole factor for finding text and everything else, while text is
   * still read from `screen` itself.
   */
  async fromScreen(screen: RgbImage): Promise<ScreenView> {
    const t0 = this.deps.clock.now();
    const working = shrinkRgb(screen, workingWidth(screen.width, this.options.screenshotWidth));
    const t1 = this.deps.clock.now();
    return this.describe(working, { decode: 0, rectify: t1 - t0, start: t0 }, screen);
  }

  /** Screenshot PNG/JPEG bytes → view (as `fromScreen`; `rectify` times the shrink). */
  async fromScreenshot(image: Buffer): Promise<ScreenView> {
    const t0 = this.deps.clock.now();
    const decoded = await decodeRgb(image, { autoOrient: true });
    const t1 = this.deps.clock.now();
    const working = shrinkRgb(decoded, workingWidth(decoded.width, this.options.screenshotWidth));
    const t2 = this.deps.clock.now();
    return this.describe(working, { decode: t1 - t0, rectify: t2 - t1, start: t0 }, decoded);
  }

  /** `detail`: the same screen sharper (a full-size screenshot), for reading text only. */
  private async describe(
    screen: RgbImage,
    t: { decode: number; rectify: number; start: number },
    detail: RgbImage = screen,
  ): Promise<ScreenView> {
    const { ocr, detector, clock } = this.deps;
    const t0 = clock.now();
    const [lines, found] = await Promise.all([ocr.recognize(screen, detail), detector.detect(screen)]);
    // Lone digits the text detector missed and the UI detector boxed as icons (`icon-digits.ts`).
    const { text, objects } = await digitsInIcons(
      lines,
      found,
      detail,
      ocr,
      this.options.listing.iconClasses,
    );
    // The annotation's canvas (a full-size screenshot shrunk to the JPEG's size, in libuv's pool) is
    // made on the other core while the listing's semantics run on this one. Started after the models
    // ran, so it is not alive while their arenas are at their largest (peak RSS).
    const canvas = this.annotator.canvas(screen);
    canvas.catch(() => undefined); // awaited below; a listing error must not leave it unhandled
    const entries = buildListing(text, objects, this.options.listing, screen, this.deps.iconMemory);
    const t1 = clock.now();
    const image = await this.annotator.annotate(screen, entries, canvas);
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
