import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { parseArgs } from "node:util";
import { parseConfig } from "../src/app/config/load.js";
import { DAEMON_MALLOC_ENV, DAEMON_NODE_FLAGS } from "../src/app/node-flags.js";
import { realCameraFrame } from "../src/lab/real/camera.js";
import { loadRealSet } from "../src/lab/real/dataset.js";
import { type RealScreenScore, scoreRealScreen } from "../src/lab/real/evaluate.js";
import { realTables, summariseReal } from "../src/lab/real/report.js";
import {
  isIdentity,
  keepsScreen,
  MIN_SCALED_WIDTH,
  type ScreenTransform,
  scaleLabel,
  transformScreenshot,
} from "../src/lab/real/transform.js";
import { FontBook } from "../src/shared/fonts.js";
import { IPHONE_61 } from "../src/shared/phone-model.js";
import { imageHeader } from "../src/util/image-header.js";
import { createVision } from "../src/vision/create.js";
import { DEFAULT_VISION_OPTIONS, VisionPipeline } from "../src/vision/pipeline.js";

/**
 * The real-screen evaluation: today's pipeline (`createVision`, as the daemon builds it) on every
 * labelled screen of one or more dataset directories, scored by `src/lab/real/evaluate.ts` (rules in its
 * JSDoc and in bench/README.md). Prints the per-kind Markdown tables, one JSON line with the summary,
 * and the peek path's median time and peak RSS (VmHWM) on these inputs, measured in a process of its
 * own (`vision-peek.ts`). Never fails on numbers.
 *
 *   node dist/bench/real-screens.js [DATASET_DIR…] [--camera] [--harsh] [--misses] [--peek N]
 *                                   [--scale F] [--jpeg Q] [--min-width PX] [--frames N]
 *
 * Default dataset: datasets/real-iphone. Screenshots go through `pipeline.fromScreenshot`; with
 * `--camera` each screenshot is filmed by the simulated camera (`real/camera.ts`) at the rig's default
 * pose and read through `pipeline.fromCamera(frame, homography)`; `--harsh` does the same under harsh
 * optics (`eval/harsh-optics.ts`). `--misses` prints every miss per screen; `--peek N` times N inputs
 * (default 25; 0 skips): the first N screenshots at least 1080 px wide, as a 3× phone sends them.
 *
 * Screenshots as published (`real/transform.ts`): `--scale F` resizes every screenshot by F (Lanczos-3;
 * 0.5 = a README's half size, 0.67 = 3× shown at 2×) and `--jpeg Q` re-encodes it as JPEG at quality Q,
 * both before the pipeline (and before the camera, with `--camera`); labels follow (boxes are fractions;
 * scoring rules unchanged). A screen the scale takes below 300 px wide is skipped and counted
 * (`scaledAway` in the JSON line). `--min-width PX` scores only screens at least PX wide as stored — to
 * compare a scaled run with scale 1 on the same screens (F = 0.5 keeps those ≥ 600 px).
 *
 * `--frames N` (camera modes; default 1): the still screen is filmed N times by one simulated camera
 * (successive frames, independent sensor noise) and the pipeline averages them (`fromCamera` given N
 * frames, `vision/frame-stack.ts`) — a measuring tool: the product reads one frame, since averaging
 * gained nothing on the simulated camera (bench/README.md, session 13, h-stack). `--noise S` scales
 * the simulated sensor noise (0: none; the limit of averaging many frames).
 *
 * `--only A,B,…` scores only the screens whose image name contains one of the comma-separated strings —
 * for iterating on a few screens; each keeps its index in the whole set, so `--camera` films it with the
 * same seed (7 + index) as a full run.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    camera: { type: "boolean" },
    harsh: { type: "boolean" },
    misses: { type: "boolean" },
    peek: { type: "string" },
    scale: { type: "string" },
    jpeg: { type: "string" },
    "min-width": { type: "string" },
    frames: { type: "string" },
    noise: { type: "string" },
    only: { type: "string" },
  },
});
const dirs = positionals.length > 0 ? positionals : ["datasets/real-iphone"];
const baseMode = values.harsh ? "camera, harsh optics" : values.camera ? "camera" : "screenshot";
const camera = values.camera === true || values.harsh === true;
const peekCount = Math.max(0, Number(values.peek ?? 25));
const transform: ScreenTransform = {
  scale: Number(values.scale ?? 1),
  ...(values.jpeg === undefined ? {} : { jpegQuality: Number(values.jpeg) }),
};
if (!(transform.scale > 0 && transform.scale <= 4))
  throw new Error(`--scale ${values.scale}: expected 0 < F ≤ 4`);
const minWidth = Number(values["min-width"] ?? 0);
const only = (values.only ?? "").split(",").filter((v) => v !== "");
const frameCount = Number(values.frames ?? 1);
if (!(Number.isInteger(frameCount) && frameCount >= 1 && frameCount <= 16))
  throw new Error(`--frames ${values.frames}: expected an integer 1–16`);
const noise = values.noise === undefined ? undefined : Number(values.noise);
if (noise !== undefined && !(noise >= 0)) throw new Error(`--noise ${values.noise}: expected ≥ 0`);
const variant = [
  transform.scale === 1 ? "" : `scale ${transform.scale}`,
  transform.jpegQuality === undefined ? "" : `JPEG q${transform.jpegQuality}`,
  minWidth > 0 ? `screens ≥ ${minWidth} px` : "",
  only.length > 0 ? `only ${only.join(",")}` : "",
  frameCount > 1 ? `${frameCount} frames averaged` : "",
  noise === undefined ? "" : `sensor noise × ${noise}`,
].filter((v) => v !== "");
/** Narrowest screenshot the peek is timed on: a current 3× iPhone's (1080–1320 px). */
const PEEK_MIN_WIDTH = 1080;

const mode = [baseMode, ...variant].join(", ");
const set = loadRealSet(dirs);
for (const s of set.skipped) process.stderr.write(`skipped ${s.path}: ${s.reason}\n`);
if (set.samples.length === 0) {
  process.stdout.write(`no labelled screens in ${dirs.join(", ")}\n`);
  process.exit(0);
}

const config = parseConfig({});
const fonts = new FontBook();
const clock = { now: () => performance.now() };
const vision = await createVision(config, { fonts, clock, screenPx: IPHONE_61.screenPx });
/** One pipeline per screen aspect: the rectified image takes the filmed screen's aspect. */
const pipelines = new Map<string, VisionPipeline>();
const pipelineFor = (screenPx: { width: number; height: number }): VisionPipeline => {
  const key = `${screenPx.width}x${screenPx.height}`;
  let p = pipelines.get(key);
  if (!p) {
    p = new VisionPipeline(
      { ocr: vision.ocr, detector: vision.detector, fonts, clock, screenPx },
      { ...DEFAULT_VISION_OPTIONS, rectifiedWidth: config.vision.rectifiedWidth },
    );
    pipelines.set(key, p);
  }
  return p;
};

const peekDir = mkdtempSync(join(tmpdir(), "piclaw-real-peek-"));
try {
  const scores: RealScreenScore[] = [];
  const ms: number[] = [];
  let peekInputs = 0;
  let scaledAway = 0;
  let narrow = 0;
  for (const [i, sample] of set.samples.entries()) {
    if (only.length > 0 && !only.some((o) => sample.label.image.includes(o))) continue;
    if (sample.label.width < minWidth) {
      narrow++;
      continue;
    }
    if (!keepsScreen(sample.label.width, transform)) {
      scaledAway++;
      continue;
    }
    let bytes: Buffer = readFileSync(sample.imagePath);
    let label = sample.label;
    if (!isIdentity(transform)) {
      const t = await transformScreenshot(bytes, transform);
      bytes = t.bytes;
      label = scaleLabel(label, t);
    }
    const name = String(i).padStart(3, "0");
    // The peek is timed on full-size screenshots of current phones (3×, ≥ 1080 px wide), as an agent
    // sends them; the set's older and downsized screens would flatter it.
    const timed = peekInputs < peekCount && (imageHeader(bytes)?.width ?? 0) >= PEEK_MIN_WIDTH;
    if (timed) peekInputs++;
    let view: Awaited<ReturnType<VisionPipeline["fromCamera"]>>;
    if (camera) {
      const shot = await realCameraFrame(bytes, {
        harsh: values.harsh === true,
        seed: 7 + i,
        frames: frameCount,
        ...(noise === undefined ? {} : { noise }),
      });
      view = await pipelineFor(shot.screenPx).fromCamera(shot.frames, shot.screenToCamera);
      if (timed) {
        writeFileSync(join(peekDir, `${name}.jpg`), shot.frame);
        const h = { screenToCamera: shot.screenToCamera, screenPx: shot.screenPx };
        writeFileSync(join(peekDir, `${name}.json`), JSON.stringify(h));
      }
    } else {
      view = await vision.pipeline.fromScreenshot(bytes);
      const ext =
        transform.jpegQuality !== undefined
          ? ".jpg"
          : isIdentity(transform)
            ? extname(sample.imagePath)
            : ".png";
      if (timed) writeFileSync(join(peekDir, `${name}${ext}`), bytes);
    }
    ms.push(view.timings.total);
    const score = scoreRealScreen(label, view.entries);
    scores.push(score);
    if (values.misses && score.misses.length > 0)
      process.stdout.write(`${label.image}:\n${score.misses.map((m) => `  ${m}`).join("\n")}\n`);
  }
  await vision.close();
  const summary = summariseReal(scores);
  if (scaledAway > 0)
    process.stdout.write(
      `${scaledAway} screens skipped: scale ${transform.scale} takes them below ${MIN_SCALED_WIDTH} px wide\n`,
    );
  if (narrow > 0)
    process.stdout.write(`${narrow} screens skipped: narrower than --min-width ${minWidth} px\n`);
  process.stdout.write(`real screens (${mode}) from ${dirs.join(", ")}: ${realTables(summary)}\n`);
  ms.sort((a, b) => a - b);
  process.stdout.write(
    `in-process pipeline time per screen: median ${(ms[Math.floor(ms.length / 2)] ?? 0).toFixed(0)} ms\n`,
  );
  let peek: { n: number; medianMs: number; p90Ms: number; cpuMsMedian: number; peakRssMb: number } | null =
    null;
  if (peekInputs > 0) {
    // The appliance's malloc settings and node flags (systemd unit), as bench/vision.ts measures.
    const env = { ...process.env, ...DAEMON_MALLOC_ENV };
    const script = new URL("./vision-peek.js", import.meta.url).pathname;
    const raw = JSON.parse(
      execFileSync(process.execPath, [...DAEMON_NODE_FLAGS, script, peekDir, "2"], { encoding: "utf8", env }),
    ) as {
      n: number;
      totals: number[];
      cpuMsMedian: number;
      peakRssMb: number;
    };
    const sorted = [...raw.totals].sort((a, b) => a - b);
    peek = {
      n: raw.n,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
      p90Ms: sorted[Math.floor(sorted.length * 0.9)] ?? Number.NaN,
      cpuMsMedian: raw.cpuMsMedian,
      peakRssMb: raw.peakRssMb,
    };
    process.stdout.write(
      `peek path (${mode}, ${peekInputs} screens ≥ ${PEEK_MIN_WIDTH} px wide × 2 rounds, own process): median ${peek.medianMs.toFixed(0)} ms (goal ≤ 300), p90 ${peek.p90Ms.toFixed(0)} ms, CPU ${peek.cpuMsMedian.toFixed(0)} ms per peek, peak RSS ${peek.peakRssMb.toFixed(0)} MB (goal ≤ 300)\n`,
    );
  }
  process.stdout.write(
    `${JSON.stringify({ mode, dirs, screens: summary.screens, skipped: set.skipped.length, scaledAway, narrow, summary, peek })}\n`,
  );
} finally {
  rmSync(peekDir, { recursive: true, force: true });
}
