import { existsSync, readFileSync } from "node:fs";
import type { parseConfig } from "../src/app/config/load.js";
import type { FontBook } from "../src/shared/fonts.js";
import type { Mat3 } from "../src/shared/homography.js";
import type { IPHONE_61 } from "../src/shared/phone-model.js";
import type { createVision } from "../src/vision/create.js";
import type { DEFAULT_VISION_OPTIONS, VisionPipeline } from "../src/vision/pipeline.js";

/**
 * The peek path as the daemon runs it, shared by `vision-peek.ts` (one build, its own process) and
 * `peek-ab.ts` (two builds' `dist` trees in one process): a screenshot goes through
 * `fromScreenshot`, a camera frame through a pipeline for its screen's size (built once per size, as
 * the daemon holds one for its one phone).
 */

/** One peek's input: a screenshot, or a camera frame with its homography and filmed screen size. */
export interface PeekInput {
  bytes: Buffer;
  /** Absent for a screenshot; `screenPx` absent means the 6.1-inch phone's screen. */
  camera?: { h: Mat3; screenPx?: { width: number; height: number } };
}

/** The modules the peek path is built from: static imports, or one `dist` tree's dynamic imports. */
export interface PeekModules {
  parseConfig: typeof parseConfig;
  FontBook: typeof FontBook;
  IPHONE_61: typeof IPHONE_61;
  createVision: typeof createVision;
  DEFAULT_VISION_OPTIONS: typeof DEFAULT_VISION_OPTIONS;
  VisionPipeline: typeof VisionPipeline;
}

export type PeekResult = Awaited<ReturnType<VisionPipeline["fromScreenshot"]>>;

/** Builds the peek path from `m` with the default config; `close` releases the models. */
export async function makePeek(
  m: PeekModules,
): Promise<{ peek: (f: PeekInput) => Promise<PeekResult>; close: () => Promise<void> }> {
  const config = m.parseConfig({});
  const clock = { now: () => performance.now() };
  const fonts = new m.FontBook();
  const vision = await m.createVision(config, { fonts, clock, screenPx: m.IPHONE_61.screenPx });
  const pipelines = new Map<string, VisionPipeline>();
  const peek = (f: PeekInput): Promise<PeekResult> => {
    if (!f.camera) return vision.pipeline.fromScreenshot(f.bytes);
    const screenPx = f.camera.screenPx ?? m.IPHONE_61.screenPx;
    const key = `${screenPx.width}x${screenPx.height}`;
    let p = pipelines.get(key);
    if (!p) {
      const options = { ...m.DEFAULT_VISION_OPTIONS, rectifiedWidth: config.vision.rectifiedWidth };
      p = new m.VisionPipeline(
        { ocr: vision.ocr, detector: vision.detector, fonts, clock, screenPx },
        options,
      );
      pipelines.set(key, p);
    }
    return p.fromCamera(f.bytes, f.camera.h);
  };
  return { peek, close: () => vision.close() };
}

/**
 * CPU time of this process's main (JS) thread in ms, from /proc's per-task schedstat (ns); NaN where
 * there is none. The peek's serial part: on a shared machine it moves less than the wall time, and
 * work moved off the JS thread (ONNX Runtime's pool, a worker, libuv) shows as the gap to `cpuMs`.
 */
export function mainThreadCpuMs(): number {
  const path = `/proc/self/task/${process.pid}/schedstat`;
  if (!existsSync(path)) return Number.NaN;
  return Number(readFileSync(path, "utf8").split(" ")[0]) / 1e6;
}

/** The middle value (upper middle for an even count); NaN for none. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
