import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { parseConfig } from "../src/app/config/load.js";
import { type ScreenScore, scoreScreen, totals } from "../src/lab/eval/evaluate.js";
import { readableTexts } from "../src/lab/eval/ocr-screens.js";
import { captureScenario, type EvalCapture, evalScenarios } from "../src/lab/eval/scenarios.js";
import { matchTextLines } from "../src/lab/eval/text-match.js";
import { FontBook } from "../src/shared/fonts.js";
import type { RgbImage } from "../src/shared/image.js";
import { IPHONE_61 } from "../src/shared/phone-model.js";
import { createVision } from "../src/vision/create.js";
import { buildListing, type ListingEntry } from "../src/vision/listing.js";
import type { TextLine } from "../src/vision/types.js";
import { findTesseract, runTesseract } from "./ocr-baselines.js";

/**
 * PiClaw's OCR against Debian's Tesseract 5 (eng+chi_sim, psm 11) on the generated camera screens of
 * the vision bench (`evalScenarios(n)`, same seed). Every capture is rectified by the pipeline
 * (`VisionPipeline.rectify`, what `fromCamera` reads); PiClaw's OCR reads it into listing rows,
 * Tesseract reads the same pixels saved as PNG (and optionally upscaled 2×, since Tesseract prefers
 * larger glyphs). Both are scored with `scoreScreen`, text only (icons are out of scope for Tesseract): text recall (IoU ≥ 0.5 of the union
 * of the engine's boxes on a label with the truth box), "on label" (labels with any box on them, i.e.
 * recall without the IoU bar, to show box-shape penalties), pooled CER and median time. PiClaw's time is
 * its OCR engine alone on the rectified screen; Tesseract's is the CLI run including process start and
 * model load, as a CLI integration would pay it. Never fails on numbers.
 * Usage: `node dist/bench/vision-tesseract.js [screens]` (default 50).
 */

interface Run {
  label: string;
  scores: ScreenScore[];
  /** Labels with at least one box on them (recall without the IoU bar). */
  onLabel: number;
  /** Labels read exactly (CER 0) whose box union still missed IoU 0.5. */
  exactButLowIou: number;
  maxRssKb: number;
}

const newRun = (label: string): Run => ({ label, scores: [], onLabel: 0, exactButLowIou: 0, maxRssKb: 0 });

/** Score one engine's text lines on one capture and add them to its run. */
function record(run: Run, capture: EvalCapture, lines: TextLine[], entries: ListingEntry[], ms: number) {
  const timings = { decode: 0, rectify: 0, recognise: ms, annotate: 0, total: ms };
  run.scores.push(scoreScreen(capture, { entries, timings }));
  for (const m of matchTextLines(readableTexts(capture.elements), lines).matches) {
    if (m.lines.length > 0) run.onLabel++;
    if (m.lines.length > 0 && m.cer === 0 && m.iou < 0.5) run.exactButLowIou++;
  }
}

const asEntries = (lines: TextLine[]): ListingEntry[] =>
  lines.map((l, i) => ({ id: i + 1, kind: "text", label: l.text, box: l.box, conf: l.conf }));

async function writePng(image: RgbImage, path: string, width = image.width): Promise<number> {
  const height = Math.round((image.height * width) / image.width);
  const raw = { width: image.width, height: image.height, channels: 3 as const };
  await sharp(image.data, { raw }).resize(width, height, { fit: "fill" }).png().toFile(path);
  return height;
}

/** One row per group (all, each locale, each camera variant) and engine, then the box-penalty check. */
function table(runs: Run[]): string[] {
  const groups: [string, (s: ScreenScore) => boolean][] = [["all", () => true]];
  const first = runs[0]?.scores ?? [];
  for (const key of ["locale", "variant"] as const)
    for (const v of new Set(first.map((s) => s[key]))) groups.push([`${key}=${v}`, (s) => s[key] === v]);
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const rows = [
    "| group | engine | screens | text found | text recall | CER | median ms |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [group, keep] of groups)
    for (const run of runs) {
      const inGroup = run.scores.filter(keep);
      const t = totals(inGroup);
      const found = inGroup.reduce((n, s) => n + s.textFound, 0);
      const truths = inGroup.reduce((n, s) => n + s.textTruths, 0);
      rows.push(
        `| ${group} | ${run.label} | ${t.screens} | ${found}/${truths} | ${pct(t.textRecall)} | ${pct(t.cer)} | ${t.medianMs.toFixed(0)} |`,
      );
    }
  for (const run of runs) {
    const truths = run.scores.reduce((n, s) => n + s.textTruths, 0);
    rows.push(
      `  ${run.label}: any box on the label ${run.onLabel}/${truths} (${pct(run.onLabel / truths)}); read exactly but box IoU < 0.5: ${run.exactButLowIou}`,
    );
  }
  return rows;
}

export async function tesseractVisionBench(screens = 50, upscale = true): Promise<string[]> {
  const bin = findTesseract();
  if (!bin)
    return [
      "tesseract vs PiClaw on camera screens: tesseract not installed (apt-get install tesseract-ocr), skipped",
    ];
  const fonts = new FontBook();
  const vision = await createVision(parseConfig({}), {
    fonts,
    clock: { now: () => performance.now() },
    screenPx: IPHONE_61.screenPx,
  });
  const dir = mkdtempSync(join(tmpdir(), "piclaw-vision-tess-"));
  try {
    const { width, height } = vision.pipeline.rectifiedSize;
    const piclaw = newRun("PiClaw");
    const tessRuns = (upscale ? [1, 2] : [1]).map((k): [Run, number] => [
      newRun(`Tesseract ${width * k} px`),
      width * k,
    ]);
    for (const [i, s] of evalScenarios(screens).entries()) {
      const capture = await captureScenario(s, fonts);
      const screen = await vision.pipeline.rectify(capture.frame, capture.screenToCamera);
      // Warm-up on the first screen (ONNX first-run allocations, tesseract's models into the page cache).
      if (i === 0) await vision.ocr.recognize(screen);
      const t0 = performance.now();
      const text = await vision.ocr.recognize(screen);
      const ocrMs = performance.now() - t0;
      // The listing's text rows, as the pipeline makes them (detected icons never remove text).
      const entries = buildListing(text, []);
      const lines = entries.map((e) => ({ text: e.label, box: e.box, conf: e.conf }));
      record(piclaw, capture, lines, entries, ocrMs);
      for (const [run, w] of tessRuns) {
        const png = join(dir, `${i}-${w}.png`);
        const h = await writePng(screen, png, w);
        if (i === 0) runTesseract(bin, png, w, h);
        const r = runTesseract(bin, png, w, h);
        record(run, capture, r.lines, asEntries(r.lines), r.ms);
        run.maxRssKb = Math.max(run.maxRssKb, r.maxRssKb ?? 0);
      }
    }
    const runs = [piclaw, ...tessRuns.map(([run]) => run)];
    const rss = runs
      .slice(1)
      .map((r) => `${r.label} ${r.maxRssKb > 0 ? `${(r.maxRssKb / 1000).toFixed(0)} MB` : "n/a"}`)
      .join(", ");
    return [
      `text on ${screens} generated camera screens, rectified to ${width}×${height}: PiClaw OCR vs Tesseract 5 (eng+chi_sim, psm 11)`,
      `  PiClaw ms = its OCR engine alone; Tesseract ms = one CLI run (process start + model load + OCR, OpenMP threads capped at ${process.env.OMP_THREAD_LIMIT ?? availableParallelism()})`,
      ...table(runs),
      `  Tesseract peak RSS: ${rss}`,
    ];
  } finally {
    await vision.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await tesseractVisionBench(Number(process.argv[2] ?? 50)))
    process.stdout.write(`${line}\n`);
}
