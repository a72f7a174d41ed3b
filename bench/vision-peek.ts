import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { parseConfig } from "../src/app/config/load.js";
import { DAEMON_MALLOC_ENV, DAEMON_NODE_FLAGS } from "../src/app/node-flags.js";
import { FontBook } from "../src/shared/fonts.js";
import type { Mat3 } from "../src/shared/homography.js";
import { IPHONE_61 } from "../src/shared/phone-model.js";
import { createVision } from "../src/vision/create.js";
import { DEFAULT_VISION_OPTIONS, VisionPipeline } from "../src/vision/pipeline.js";
import { mainThreadCpuMs, makePeek, median, type PeekInput } from "./peek-harness.js";

/**
 * The peek path alone, in a process of its own so its resident memory is the appliance's, not the
 * simulator's: camera JPEG → decode → rectify → OCR + detector → listing → annotated JPEG.
 * Usage: node dist/bench/vision-peek.js DIR [rounds] — DIR holds NNN.jpg + NNN.json ({screenToCamera},
 * optionally screenPx when the filmed screen is not the 6.1-inch phone's); an NNN.png or NNN.jpg without
 * a .json beside it is a screenshot, read by `fromScreenshot` (no rectification).
 * Prints one JSON line: per-stage medians, all totals, the process's CPU time per peek (all threads;
 * steadier than wall time on a shared machine), peak RSS.
 * Run without any of the daemon's malloc settings in the environment, it runs itself again with them and
 * the daemon's node flags, so its peak RSS is the appliance's (without them it reads ~75–90 MB higher);
 * set one of them (e.g. `MALLOC_ARENA_MAX=8`) to measure another configuration.
 */
const dir = process.argv[2];
if (!dir) throw new Error("usage: vision-peek DIR [rounds]");
if (Object.keys(DAEMON_MALLOC_ENV).every((k) => process.env[k] === undefined)) {
  const flags = DAEMON_NODE_FLAGS.filter((f) => !process.execArgv.includes(f));
  const child = spawnSync(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, ...DAEMON_MALLOC_ENV },
  });
  process.exit(child.status ?? 1);
}
const rounds = Math.max(1, Number(process.argv[3] ?? 1));
interface FrameFile {
  /** The image file, read just before its peek: the appliance holds one frame at a time, not 25. */
  path: string;
  camera?: PeekInput["camera"];
}
const frames: FrameFile[] = readdirSync(dir)
  .filter((f) => /\.(jpg|png)$/.test(f))
  .sort()
  .map((f) => {
    const meta = join(dir, f.replace(/\.(jpg|png)$/, ".json"));
    const path = join(dir, f);
    if (!existsSync(meta)) return { path };
    const m = JSON.parse(readFileSync(meta, "utf8")) as {
      screenToCamera: Mat3;
      screenPx?: { width: number; height: number };
    };
    return { path, camera: { h: m.screenToCamera, ...(m.screenPx ? { screenPx: m.screenPx } : {}) } };
  });
// As the daemon does: libvips' operation cache only holds memory in a process that never repeats an image.
sharp.cache(false);
const vision = await makePeek({
  parseConfig,
  FontBook,
  IPHONE_61,
  createVision,
  DEFAULT_VISION_OPTIONS,
  VisionPipeline,
});
const peek = (f: FrameFile, bytes: Buffer) =>
  vision.peek({ bytes, ...(f.camera ? { camera: f.camera } : {}) });
const first = frames[0];
if (first) await peek(first, readFileSync(first.path)); // warm-up: first-run allocations
const totals: number[] = [];
const cpuMs: number[] = [];
const mainCpuMs: number[] = [];
const stages: Record<string, number[]> = { decode: [], rectify: [], recognise: [], annotate: [] };
for (let r = 0; r < rounds; r++)
  for (const f of frames) {
    const bytes = readFileSync(f.path); // not timed: the daemon has the frame in hand
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuMs();
    const v = await peek(f, bytes);
    const cpu = process.cpuUsage(cpu0);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    mainCpuMs.push(mainThreadCpuMs() - main0);
    totals.push(v.timings.total);
    for (const k of Object.keys(stages)) stages[k]?.push(v.timings[k as keyof typeof v.timings] ?? 0);
  }
await vision.close();
/**
 * This process's peak resident set in MB. Linux keeps `getrusage`'s maxRSS across exec, and Node
 * forks its children, so `resourceUsage().maxRSS` of a child reports the parent's peak when that was
 * larger (the bench's parent holds 50 simulated screens: up to ~830 MB was reported this way). VmHWM
 * belongs to the exec'd process alone.
 */
function peakRssMb(): number {
  if (existsSync("/proc/self/status")) {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm?.[1]) return Number(hwm[1]) / 1024;
  }
  return process.resourceUsage().maxRSS / 1024;
}
process.stdout.write(
  `${JSON.stringify({
    n: totals.length,
    totals,
    medians: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, median(v)])),
    cpuMsMedian: median(cpuMs),
    mainThreadCpuMsMedian: median(mainCpuMs),
    peakRssMb: peakRssMb(),
  })}\n`,
);
