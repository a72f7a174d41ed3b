import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { realCameraFrame } from "../src/lab/real/camera.js";
import { loadRealSet } from "../src/lab/real/dataset.js";
import { imageHeader } from "../src/util/image-header.js";
import { mainThreadCpuMs, makePeek, median, type PeekInput } from "./peek-harness.js";

/**
 * Two builds of the peek path compared in one process, peek by peek: each build's `dist` tree is
 * imported (a `createVision` each, as `real-screens.ts` builds it) and every input is peeked by both,
 * in alternating order (A then B, then B then A), so load on a shared machine falls on both alike.
 * Prints per build the median and mean of wall time, process CPU (all threads) and JS-thread CPU
 * (/proc schedstat) a peek, in how many pairs B's JS thread used less CPU, and how many listings
 * differ (entries JSON). Never fails on numbers.
 *
 *   node dist/bench/peek-ab.js DIST_A DIST_B [DATASET_DIR] [--camera] [--peek N] [--rounds R]
 *                              [--dump OUT] [--inputs OUT]
 *
 * DIST_A / DIST_B: `dist` directories (each must lie inside a checkout with package.json and assets/,
 * which the models are found from). Inputs: the first N (default 25) screenshots of the dataset at
 * least 1080 px wide (as `real-screens.ts --peek` picks them), filmed by the simulated camera with
 * `--camera` (seed 7 + index, as there). `--peek 0` takes every screen of any width, untimed order
 * kept; with `--dump OUT` each build's entries JSON is written to OUT/{A,B}/NNN.json for `cmp`.
 * `--inputs OUT` writes the inputs in `vision-peek.ts`'s format (for peak RSS, a process per build).
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    camera: { type: "boolean" },
    peek: { type: "string" },
    rounds: { type: "string" },
    dump: { type: "string" },
    inputs: { type: "string" },
  },
});
const [distA, distB, dataset = "datasets/real-iphone"] = positionals;
if (!distA || !distB) throw new Error("usage: peek-ab DIST_A DIST_B [DATASET_DIR] [--camera] [--peek N]");
const count = Number(values.peek ?? 25);
const rounds = Math.max(1, Number(values.rounds ?? 1));
const camera = values.camera === true;
/** A current 3× iPhone's screenshot width (as `real-screens.ts` times the peek). */
const PEEK_MIN_WIDTH = 1080;

interface Input extends PeekInput {
  name: string;
}
const inputs: Input[] = [];
for (const [i, sample] of loadRealSet([dataset]).samples.entries()) {
  if (count > 0 && inputs.length >= count) break;
  const bytes = readFileSync(sample.imagePath);
  if (count > 0 && (imageHeader(bytes)?.width ?? 0) < PEEK_MIN_WIDTH) continue;
  const name = String(i).padStart(3, "0");
  if (!camera) inputs.push({ name, bytes });
  else {
    const shot = await realCameraFrame(bytes, { harsh: false, seed: 7 + i });
    inputs.push({ name, bytes: shot.frame, camera: { h: shot.screenToCamera, screenPx: shot.screenPx } });
  }
}
if (values.inputs) {
  mkdirSync(values.inputs, { recursive: true });
  for (const f of inputs) {
    if (!f.camera) writeFileSync(join(values.inputs, `${f.name}.png`), f.bytes);
    else {
      writeFileSync(join(values.inputs, `${f.name}.jpg`), f.bytes);
      const meta = { screenToCamera: f.camera.h, screenPx: f.camera.screenPx };
      writeFileSync(join(values.inputs, `${f.name}.json`), JSON.stringify(meta));
    }
  }
}

type Peek = (f: Input) => Promise<{ entries: unknown }>;
/** One build's peek function, from its own `dist` tree. */
async function loadBuild(dist: string): Promise<{ peek: Peek; close: () => Promise<void> }> {
  const root = resolve(dist);
  const at = (p: string) => join(root, p);
  const load = async <T>(p: string): Promise<T> => (await import(at(p))) as T;
  return makePeek({
    ...(await load<typeof import("../src/app/config/load.js")>("src/app/config/load.js")),
    ...(await load<typeof import("../src/shared/fonts.js")>("src/shared/fonts.js")),
    ...(await load<typeof import("../src/shared/phone-model.js")>("src/shared/phone-model.js")),
    ...(await load<typeof import("../src/vision/create.js")>("src/vision/create.js")),
    ...(await load<typeof import("../src/vision/pipeline.js")>("src/vision/pipeline.js")),
  });
}

interface Sample {
  wall: number;
  cpu: number;
  js: number;
}
async function measure(peek: Peek, f: Input): Promise<{ s: Sample; json: string }> {
  const cpu0 = process.cpuUsage();
  const js0 = mainThreadCpuMs();
  const t0 = performance.now();
  const v = await peek(f);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    s: { wall, cpu: (cpu.user + cpu.system) / 1000, js: mainThreadCpuMs() - js0 },
    json: JSON.stringify(v.entries),
  };
}

const builds = [await loadBuild(distA), await loadBuild(distB)] as const;
// Warm-up: first-run allocations and JIT, both builds.
if (inputs[0]) for (const b of builds) await b.peek(inputs[0]);
const samples: [Sample[], Sample[]] = [[], []];
let differ = 0;
let bLess = 0;
let pair = 0;
for (let r = 0; r < rounds; r++)
  for (const f of inputs) {
    const order = pair++ % 2 === 0 ? [0, 1] : [1, 0];
    const got: { s: Sample; json: string }[] = [];
    for (const k of order) {
      const b = builds[k as 0 | 1];
      got[k] = await measure(b.peek, f);
    }
    const [a, b] = got as [{ s: Sample; json: string }, { s: Sample; json: string }];
    samples[0].push(a.s);
    samples[1].push(b.s);
    if (b.s.js < a.s.js) bLess++;
    if (a.json !== b.json) {
      differ++;
      process.stdout.write(`listing differs: ${f.name}\n`);
    }
    if (values.dump && r === 0) {
      for (const [k, g] of [
        ["A", a],
        ["B", b],
      ] as const) {
        mkdirSync(join(values.dump, k), { recursive: true });
        writeFileSync(join(values.dump, k, `${f.name}.json`), `${g.json}\n`);
      }
    }
  }
for (const b of builds) await b.close();
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const stats = (ss: Sample[]) =>
  Object.fromEntries(
    (["wall", "cpu", "js"] as const).map((k) => {
      const xs = ss.map((s) => s[k]);
      return [k, { median: Math.round(median(xs)), mean: Math.round(mean(xs)) }];
    }),
  );
const jsDiff = samples[1].map((s, i) => s.js - (samples[0][i]?.js ?? 0));
process.stdout.write(
  `${JSON.stringify({
    mode: camera ? "camera" : "screenshot",
    pairs: samples[0].length,
    A: { dist: distA, ...stats(samples[0]) },
    B: { dist: distB, ...stats(samples[1]) },
    bJsLessInPairs: bLess,
    medianPairJsDiffMs: Math.round(median(jsDiff)),
    listingsDiffer: differ,
    loadavg: (await import("node:os")).loadavg().map((x) => Math.round(x * 10) / 10),
  })}\n`,
);
