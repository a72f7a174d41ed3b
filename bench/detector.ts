import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { addCounts, type ClassCounts, countMatches, precisionRecall } from "../src/lab/detector-evaluate.js";
import { scaledGeometry, syntheticScreen } from "../src/lab/synth/dataset.js";
import { FontBook } from "../src/shared/fonts.js";
import type { RgbImage } from "../src/shared/image.js";
import { toRgb } from "../src/shared/image.js";
import { OnnxDetector } from "../src/vision/detector/onnx-detector.js";
import { toInputTensor } from "../src/vision/detector/preprocess.js";

/**
 * UI-element detector benchmark: per-frame time of the committed model (median of ≥ 20, whole
 * detect() and the letterbox alone) and precision/recall per class at IoU 0.5 on ~50 freshly generated
 * synthetic screens (a seed the training never used; clean renders, no camera treatment).
 * Prints; never fails on time. `node dist/bench/detector.js [screens]`; also run by `npm run bench`.
 */

const SEED = 424_242; // training uses seed 1
const screens = Math.max(10, Number(process.env.DETECTOR_BENCH_SCREENS ?? 50));

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function detectorBench(): Promise<void> {
  const fonts = new FontBook();
  const det = await OnnxDetector.create();
  // Screens at 780 px wide (2 px per point): a size the training renders (576 px) never used.
  const geometry = scaledGeometry(780);
  const total = new Map<string, ClassCounts>();
  const bySource = { phone: new Map<string, ClassCounts>(), layout: new Map<string, ClassCounts>() };
  let first: RgbImage | null = null;
  for (let i = 0; i < screens; i++) {
    const s = await syntheticScreen(SEED, i, fonts, geometry);
    const image = toRgb(s.image);
    first ??= image;
    const truth = s.boxes.map((b) => ({
      cls: b.cls,
      box: [
        b.box[0] / image.width,
        b.box[1] / image.height,
        b.box[2] / image.width,
        b.box[3] / image.height,
      ] as [number, number, number, number],
    }));
    const counts = countMatches(await det.detect(image), truth, 0.5, image.height / image.width);
    addCounts(total, counts);
    addCounts(bySource[s.source], counts);
  }
  if (!first) return;
  const frame = first;
  const detectMs: number[] = [];
  const prepMs: number[] = [];
  await det.detect(frame); // warm-up
  for (let i = 0; i < 25; i++) {
    let t0 = performance.now();
    await det.detect(frame);
    detectMs.push(performance.now() - t0);
    t0 = performance.now();
    await toInputTensor(frame, 288, 640);
    prepMs.push(performance.now() - t0);
  }
  await det.close();
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out(`detector bench on ${cpus().length}× ${cpus()[0]?.model ?? "CPU"}, node ${process.version}`);
  out(
    `  detect() ${frame.width}×${frame.height} → 288×640: median ${median(detectMs).toFixed(1)} ms (n=25), of which letterbox ${median(prepMs).toFixed(1)} ms`,
  );
  out(`  P/R at IoU 0.5, conf 0.3, ${screens} fresh synthetic screens (seed ${SEED}):`);
  const row = (label: string, c: ClassCounts | undefined): void => {
    if (!c) return;
    const pr = precisionRecall(c);
    out(
      `    ${label.padEnd(16)} P ${pr.precision.toFixed(3)}  R ${pr.recall.toFixed(3)}  (truth ${c.truth})`,
    );
  };
  for (const cls of det.classes) row(cls, total.get(cls));
  const sum = (m: Map<string, ClassCounts>): ClassCounts =>
    [...m.values()].reduce(
      (a, c) => ({ tp: a.tp + c.tp, detected: a.detected + c.detected, truth: a.truth + c.truth }),
      {
        tp: 0,
        detected: 0,
        truth: 0,
      },
    );
  row("all", sum(total));
  row("sim phone", sum(bySource.phone));
  row("random layout", sum(bySource.layout));
}

await detectorBench();
