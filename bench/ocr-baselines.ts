import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { PaddleOcrService } from "paddleocr";
import type { RgbImage } from "../src/shared/image.js";
import { resolveModelPaths } from "../src/vision/ocr/models.js";
import type { OcrEngine, TextLine } from "../src/vision/types.js";

/**
 * Baselines the OCR bench compares the chosen engine with: the `paddleocr` npm library driving the same
 * PP-OCRv4 models, and Debian's Tesseract 5 CLI. Bench-only code: nothing here ships in `src/`.
 */

function arrayBuffer(buf: Buffer): ArrayBuffer {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}

/**
 * `paddleocr` 1.2.0's PaddleOcrService as an OcrEngine: same det/rec models and dictionary, its own
 * pre/post-processing (one recognition run per box, every crop padded to the widest box's ratio).
 * `maxSideLength` is its detection size (960 by default: 443 px wide for a 1170×2532 screen).
 */
export async function createPaddleOcrLibEngine(opts: {
  maxSideLength: number;
  threads: number;
}): Promise<OcrEngine> {
  const paths = resolveModelPaths({});
  const dictionary = readFileSync(paths.dictionary, "utf8").split(/\r?\n/);
  if (dictionary[dictionary.length - 1] === "") dictionary.pop();
  dictionary.push(" ");
  // The library calls `InferenceSession.create(buffer)` with no options; wrap it to set threads.
  const runtime = {
    Tensor: ort.Tensor,
    InferenceSession: {
      create: (model: ArrayBuffer) =>
        ort.InferenceSession.create(new Uint8Array(model), {
          intraOpNumThreads: opts.threads,
          interOpNumThreads: 1,
          extra: { session: { intra_op: { allow_spinning: "0" } } },
        }),
    },
  };
  const service = await PaddleOcrService.createInstance({
    ort: runtime as unknown as NonNullable<Parameters<typeof PaddleOcrService.createInstance>[0]>["ort"],
    detection: { modelBuffer: arrayBuffer(readFileSync(paths.det)), maxSideLength: opts.maxSideLength },
    recognition: { modelBuffer: arrayBuffer(readFileSync(paths.rec)), charactersDictionary: dictionary },
  });
  return {
    async recognize(image: RgbImage): Promise<TextLine[]> {
      const results = await service.recognize({ width: image.width, height: image.height, data: image.data });
      return results
        .filter((r) => r.confidence >= 0.5 && r.text.trim() !== "")
        .map((r) => ({
          text: r.text.trim(),
          conf: r.confidence,
          box: [
            r.box.x / image.width,
            r.box.y / image.height,
            (r.box.x + r.box.width) / image.width,
            (r.box.y + r.box.height) / image.height,
          ],
        }));
    },
    async close() {},
  };
}

/** The `tesseract` executable on PATH, or null. */
export function findTesseract(): string | null {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const candidate = join(dir, "tesseract");
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export interface TesseractRead {
  lines: TextLine[];
  ms: number;
  /** Peak resident set of the tesseract process (KB), when /usr/bin/time could report it. */
  maxRssKb: number | null;
}

/**
 * Run Tesseract 5 on a PNG (`eng+chi_sim`, sparse-text page segmentation, which suits UI screens) and
 * return its words as lines. Time includes starting the process, as a CLI integration would pay it.
 * OpenMP threads are capped at the core count (`OMP_THREAD_LIMIT`, unless set).
 */
export function runTesseract(bin: string, png: string, width: number, height: number): TesseractRead {
  const timeBin = "/usr/bin/time";
  const useTime = existsSync(timeBin);
  const args = [png, "stdout", "-l", "eng+chi_sim", "--psm", "11", "tsv"];
  // Debian's Tesseract asks OpenMP for 4 threads in its LSTM layers whatever the core count; on a 2-core
  // machine the oversubscribed, spinning threads made it ~5× slower (2.2 vs 0.4 s a screen).
  const env = {
    ...process.env,
    OMP_THREAD_LIMIT: process.env.OMP_THREAD_LIMIT ?? String(availableParallelism()),
  };
  const t0 = performance.now();
  const run = useTime
    ? spawnSync(timeBin, ["-f", "MAXRSS %M", bin, ...args], { encoding: "utf8", env })
    : spawnSync(bin, args, { encoding: "utf8", env });
  const ms = performance.now() - t0;
  const rss = /MAXRSS (\d+)/.exec(run.stderr ?? "");
  const lines: TextLine[] = [];
  for (const row of (run.stdout ?? "").split("\n").slice(1)) {
    const c = row.split("\t");
    if (c[0] !== "5" || c.length < 12) continue;
    const text = (c[11] ?? "").trim();
    const conf = Number(c[10]) / 100;
    const [left, top, w, h] = [Number(c[6]), Number(c[7]), Number(c[8]), Number(c[9])];
    if (!text || !(conf >= 0) || !(w > 0 && h > 0)) continue;
    lines.push({ text, conf, box: [left / width, top / height, (left + w) / width, (top + h) / height] });
  }
  return { lines, ms, maxRssKb: rss ? Number(rss[1]) : null };
}
