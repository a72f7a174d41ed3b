import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { parseConfig } from "../src/app/config/load.js";
import { Logger } from "../src/log/logger.js";
import { SimRig } from "../src/sim/rig.js";
import { ManualClock } from "../src/util/clock.js";
import { contextBench } from "./agent-context.js";
import { measuredTapCycles, motionBench } from "./motion.js";
import { visionBench } from "./vision.js";
import { tesseractVisionBench } from "./vision-tesseract.js";
import "./detector.js"; // prints the UI-element detector bench (time per frame, P/R) first
import "./ocr.js"; // prints the OCR bench (time, RSS, CER per engine; Tesseract when installed)

/**
 * Simulated rig benchmark: phone screen render and camera frame time. Prints medians; never fails on
 * time. Usage: `npm run bench` (or `node dist/bench/run.js [samples]`).
 */
const samples = Math.max(20, Number(process.argv[2] ?? 20));

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(1)} ms  p10 ${at(0.1).toFixed(1)}  p90 ${at(0.9).toFixed(1)}  (n=${values.length})`;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const clock = new ManualClock();
  const log = Logger.create({ level: "warn", format: "human", sink: process.stderr, now: () => clock.now() });
  const config = parseConfig({});
  const rig = SimRig.fromConfig(config, { clock, log, cwd: process.cwd() });
  await rig.start();
  const { width, height } = config.sim.camera;

  // Warm-up: font loading, sharp's thread pool, first-render caches.
  await rig.phone.renderScreen();
  await rig.captureFrame({ width, height });

  const render: number[] = [];
  const changedFull: number[] = [];
  const steadyFull: number[] = [];
  const steadySmall: number[] = [];
  for (let i = 0; i < samples; i++) {
    clock.advance(60_000); // the status-bar clock changes, so the screen must be drawn again
    render.push(await time(() => rig.phone.renderScreen()));
    changedFull.push(await time(() => rig.captureFrame({ width, height })));
    steadyFull.push(await time(() => rig.captureFrame({ width, height })));
    await rig.captureFrame({ width: 640, height: 480 });
    steadySmall.push(await time(() => rig.captureFrame({ width: 640, height: 480 })));
  }
  await rig.stop();
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  process.stdout.write(`sim bench on ${cpus().length}× ${cpu}, node ${process.version}\n`);
  const out = (label: string, values: number[]) =>
    process.stdout.write(`${label.padEnd(52)} ${stats(values)}\n`);
  out("phone screen render 1170×2532 (after a change)", render);
  out(`camera frame ${width}×${height}, screen just changed`, changedFull);
  out(`camera frame ${width}×${height}, screen unchanged`, steadyFull);
  out("camera frame 640×480, screen unchanged", steadySmall);
  out(
    `new screen to ${width}×${height} JPEG (render + camera)`,
    render.map((r, i) => r + (changedFull[i] ?? 0)),
  );
  process.stdout.write("tap cycle on each profile's timing model (goal for corexy-fluidnc ≤ 0.35 s):\n");
  for (const line of motionBench()) process.stdout.write(`  ${line}\n`);
  process.stdout.write("tap cycle measured on the simulated appliance (real drivers, simulated gantry):\n");
  for (const line of await measuredTapCycles()) process.stdout.write(`  ${line}\n`);
  process.stdout.write("vision:\n");
  for (const line of await visionBench(50)) process.stdout.write(`${line}\n`);
  for (const line of await tesseractVisionBench(50)) process.stdout.write(`${line}\n`);
  for (const line of await contextBench(120, 5)) process.stdout.write(`${line}\n`);
}

await main();
