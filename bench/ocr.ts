import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { matchTextLines, normalizeText, type TruthText } from "../src/lab/eval/text-match.js";
import type { OcrOptionsInput } from "../src/vision/ocr/config.js";
import type { OcrEngine, TextLine } from "../src/vision/types.js";

/**
 * OCR benchmark: 24 freshly rendered sim screens (12 states × en/zh), read by the chosen engine at a few
 * detection widths and input sizes, by the `paddleocr` library on the same models, and by Tesseract 5
 * when installed. Each configuration runs in its own process, so peak RSS (getrusage maxRSS, model
 * loading included) belongs to that configuration alone. Prints median/p90 time per screen (wall and
 * CPU), peak RSS, and per locale: labels found, exact reads and CER (ground truth = the screens' text
 * elements). Never fails on time. `node dist/bench/ocr.js`; also run by `npm run bench`.
 * Imports beyond the measured engine are dynamic, so a child loads only what its configuration needs.
 */

const CHILD = "--ocr-bench-child";

interface ScreenFile {
  name: string;
  locale: "en" | "zh";
  /** Raw RGB files by input width (1170 = the panel; 585 = what the pipeline rectifies to). */
  raw: Record<number, string>;
  height: Record<number, number>;
  png: string;
  texts: TruthText[];
}

interface Job {
  label: string;
  engine: "piclaw" | "paddleocr-lib";
  inputWidth: number;
  options?: OcrOptionsInput;
  libMaxSide?: number;
}

interface LocaleScore {
  truths: number;
  found: number;
  exact: number;
  edits: number;
  chars: number;
  merged: number;
}

interface JobResult {
  ms: number[];
  cpuMs: number[];
  maxRssMb: number;
  loadRssMb: number;
  scores: Record<string, LocaleScore>;
}

const JOBS: Job[] = [
  { label: "chosen: det 320, 585 px input (pipeline)", engine: "piclaw", inputWidth: 585 },
  { label: "chosen: det 320, 1170 px input", engine: "piclaw", inputWidth: 1170 },
  { label: "det 480, 1170 px input", engine: "piclaw", inputWidth: 1170, options: { detectionWidth: 480 } },
  { label: "det 640, 1170 px input", engine: "piclaw", inputWidth: 1170, options: { detectionWidth: 640 } },
  { label: "chosen, 2 threads, 585 px input", engine: "piclaw", inputWidth: 585, options: { threads: 2 } },
  {
    label: "paddleocr lib 1.2.0, defaults (det 443 px)",
    engine: "paddleocr-lib",
    inputWidth: 1170,
    libMaxSide: 960,
  },
];

function emptyScore(): LocaleScore {
  return { truths: 0, found: 0, exact: 0, edits: 0, chars: 0, merged: 0 };
}

/** Add one screen's read to its locale's totals. */
function score(into: Record<string, LocaleScore>, screen: ScreenFile, lines: TextLine[]): void {
  const r = matchTextLines(screen.texts, lines);
  const s = into[screen.locale] ?? emptyScore();
  into[screen.locale] = s;
  const chars = screen.texts.reduce((n, t) => n + Array.from(normalizeText(t.label)).length, 0);
  s.truths += r.summary.truths;
  s.found += r.summary.found;
  s.exact += r.summary.exact;
  s.edits += r.summary.cer * chars;
  s.chars += chars;
  s.merged += r.merged.length;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Child process: load one engine, read every screen once after a warm-up, print a JobResult as JSON. */
async function child(jobFile: string): Promise<void> {
  const { job, screens } = JSON.parse(readFileSync(jobFile, "utf8")) as { job: Job; screens: ScreenFile[] };
  let engine: OcrEngine;
  if (job.engine === "paddleocr-lib") {
    const { createPaddleOcrLibEngine } = await import("./ocr-baselines.js");
    engine = await createPaddleOcrLibEngine({ maxSideLength: job.libMaxSide ?? 960, threads: 1 });
  } else engine = await (await import("../src/vision/ocr/index.js")).createOcrEngine(job.options ?? {});
  const loadRssMb = process.memoryUsage().rss / 1e6;
  const load = (s: ScreenFile) => ({
    width: job.inputWidth,
    height: s.height[job.inputWidth] ?? 0,
    channels: 3 as const,
    data: readFileSync(s.raw[job.inputWidth] ?? ""),
  });
  const first = screens[0];
  if (first) await engine.recognize(load(first)); // warm-up: first-run allocations
  const result: JobResult = { ms: [], cpuMs: [], maxRssMb: 0, loadRssMb, scores: {} };
  for (const s of screens) {
    const image = load(s);
    const t0 = performance.now();
    const c0 = cpuMs();
    const lines = await engine.recognize(image);
    result.cpuMs.push(cpuMs() - c0);
    result.ms.push(performance.now() - t0);
    score(result.scores, s, lines);
  }
  await engine.close();
  result.maxRssMb = process.resourceUsage().maxRSS / 1e3;
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Render the screens once and store them as raw RGB (two sizes) and PNG for the children. */
async function prepare(dir: string): Promise<ScreenFile[]> {
  const { default: sharp } = await import("sharp");
  const { FontBook } = await import("../src/shared/fonts.js");
  const { OCR_SCREENS, renderOcrScreen } = await import("../src/lab/eval/ocr-screens.js");
  const fonts = new FontBook();
  const files: ScreenFile[] = [];
  for (const locale of ["en", "zh"] as const)
    for (const name of OCR_SCREENS) {
      const s = await renderOcrScreen(name, locale, fonts);
      const base = join(dir, `${locale}-${name}`);
      const raw = { width: s.image.width, height: s.image.height, channels: 3 as const };
      const half = Math.round(s.image.height / 2);
      const small = await sharp(s.image.data, { raw }).resize(585, half, { fit: "fill" }).raw().toBuffer();
      writeFileSync(`${base}.1170.rgb`, s.image.data);
      writeFileSync(`${base}.585.rgb`, small);
      await sharp(s.image.data, { raw }).png().toFile(`${base}.png`);
      files.push({
        name,
        locale,
        raw: { 1170: `${base}.1170.rgb`, 585: `${base}.585.rgb` },
        height: { 1170: s.image.height, 585: half },
        png: `${base}.png`,
        texts: s.texts.map((t) => ({ label: t.label, box: t.box })),
      });
    }
  return files;
}

function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
}

function formatScores(scores: Record<string, LocaleScore>): string {
  return ["en", "zh"]
    .map((loc) => {
      const s = scores[loc] ?? emptyScore();
      const cer = s.chars > 0 ? s.edits / s.chars : Number.NaN;
      const merged = s.merged > 0 ? ` merged ${s.merged}` : "";
      return `${loc} found ${s.found}/${s.truths} exact ${s.exact} CER ${cer.toFixed(3)}${merged}`;
    })
    .join(" | ");
}

function runJob(job: Job, screens: ScreenFile[], dir: string, index: number): JobResult | string {
  const jobFile = join(dir, `job-${index}.json`);
  writeFileSync(jobFile, JSON.stringify({ job, screens }));
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), CHILD, jobFile], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = (run.stdout ?? "").trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as JobResult;
  } catch {
    return `failed (exit ${run.status}): ${(run.stderr ?? "").trim().split("\n").slice(-3).join(" / ")}`;
  }
}

async function parent(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "piclaw-ocr-bench-"));
  try {
    const screens = await prepare(dir);
    const cpu = cpus()[0]?.model ?? "unknown CPU";
    const out = (s: string) => process.stdout.write(`${s}\n`);
    out(`ocr bench on ${cpus().length}× ${cpu}, node ${process.version}: ${screens.length} sim screens`);
    out("  time per screen after one warm-up; RSS = peak of a fresh process incl. model load");
    JOBS.forEach((job, i) => {
      const r = runJob(job, screens, dir, i);
      if (typeof r === "string") {
        out(`  ${job.label.padEnd(48)} ${r}`);
        return;
      }
      const t = `median ${quantile(r.ms, 0.5).toFixed(0)} ms (cpu ${quantile(r.cpuMs, 0.5).toFixed(0)}) p90 ${quantile(r.ms, 0.9).toFixed(0)}`;
      out(
        `  ${job.label.padEnd(48)} ${t}  RSS ${r.maxRssMb.toFixed(0)} MB (loaded ${r.loadRssMb.toFixed(0)})`,
      );
      out(`  ${"".padEnd(48)} ${formatScores(r.scores)}`);
    });
    const { findTesseract, runTesseract } = await import("./ocr-baselines.js");
    const tesseract = findTesseract();
    if (!tesseract) {
      out("  tesseract: not installed");
      return;
    }
    const ms: number[] = [];
    let rssKb = 0;
    const scores: Record<string, LocaleScore> = {};
    for (const s of screens) {
      const r = runTesseract(tesseract, s.png, 1170, s.height[1170] ?? 1);
      ms.push(r.ms);
      rssKb = Math.max(rssKb, r.maxRssKb ?? 0);
      score(scores, s, r.lines);
    }
    const rss = rssKb > 0 ? `RSS ${(rssKb / 1000).toFixed(0)} MB` : "RSS n/a";
    const label = "tesseract 5 CLI, eng+chi_sim, psm 11, 1170 px";
    out(
      `  ${label.padEnd(48)} median ${quantile(ms, 0.5).toFixed(0)} ms p90 ${quantile(ms, 0.9).toFixed(0)}  ${rss}`,
    );
    out(`  ${"".padEnd(48)} ${formatScores(scores)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes(CHILD)) await child(process.argv[process.argv.indexOf(CHILD) + 1] ?? "");
else await parent();
