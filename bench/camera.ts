import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseConfig } from "../src/app/config/load.js";
import { cameraConfigSchema } from "../src/camera/options.js";
import { RpicamStillCamera } from "../src/camera/rpicam-still.js";
import { RpicamVidCamera } from "../src/camera/rpicam-vid.js";
import { Logger } from "../src/log/logger.js";
import { SimControlServer } from "../src/sim/control.js";
import { SimRig } from "../src/sim/rig.js";
import { systemClock } from "../src/util/clock.js";
import { projectRoot } from "../src/util/paths.js";

/**
 * Camera driver bench on the simulated rig: the rpicam-vid / rpicam-still drivers spawning the
 * simulator's stand-ins, which render frames through the control socket of a rig in this process (as in
 * the daemon). Prints frames per second, grab latency (request → fresh frame), time to the first frame
 * and recovery after SIGKILL. Never fails on time. Usage: `node dist/bench/camera.js [seconds]`.
 */
const seconds = Math.max(2, Number(process.argv[2] ?? 5));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(0)} ms  p10 ${at(0.1).toFixed(0)}  p90 ${at(0.9).toFixed(0)}  (n=${values.length})`;
}

async function main(): Promise<void> {
  const log = Logger.create({ level: "error", format: "human", sink: process.stderr, now: Date.now });
  const dir = mkdtempSync(join(tmpdir(), "piclaw-camera-bench-"));
  const rig = SimRig.fromConfig(parseConfig({}), { clock: systemClock, log, cwd: projectRoot() });
  await rig.start();
  const server = new SimControlServer(rig, log);
  const socketPath = await server.start(join(dir, "sim.sock"));
  const env = { PICLAW_SIM_SOCKET: socketPath };
  const bin = (name: string) => join(projectRoot(), "bin", "sim", name);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`camera bench on ${cpus().length}× ${cpus()[0]?.model ?? "unknown CPU"}, node ${process.version}`);

  for (const [width, height] of [
    [640, 480],
    [2304, 1296],
  ] as const) {
    const config = cameraConfigSchema.parse({ vidBinary: bin("rpicam-vid"), width, height, framerate: 60 });
    const camera = new RpicamVidCamera(config, { clock: systemClock, log, env });
    const t0 = performance.now();
    await camera.start();
    await camera.grab({ timeoutMs: 30_000 });
    const firstMs = performance.now() - t0;
    const f0 = camera.status().frames;
    const s0 = performance.now();
    await sleep(seconds * 1000);
    const fps = ((camera.status().frames - f0) * 1000) / (performance.now() - s0);
    const latency: number[] = [];
    for (let i = 0; i < 20; i++) {
      await sleep(Math.random() * 100);
      const g = performance.now();
      await camera.grab();
      latency.push(performance.now() - g);
    }
    const recovery: number[] = [];
    for (let i = 0; i < 3; i++) {
      process.kill(camera.status().pid ?? -1, "SIGKILL");
      const k = performance.now();
      await camera.grab({ newerThanMs: systemClock.now(), timeoutMs: 30_000 });
      recovery.push(performance.now() - k);
      await sleep(500);
    }
    await camera.stop();
    out(`rpicam-vid ${width}×${height} @ --framerate 60 (sim stand-in):`);
    out(
      `  throughput ${fps.toFixed(1)} frames/s over ${seconds} s; first frame ${firstMs.toFixed(0)} ms after start()`,
    );
    out(`  grab() latency (pipelineFrames 1): ${stats(latency)}`);
    out(`  frame again after SIGKILL (restartMinMs 200): ${stats(recovery)}`);

    const stillConfig = cameraConfigSchema.parse({ stillBinary: bin("rpicam-still"), width, height });
    const still = new RpicamStillCamera(stillConfig, { clock: systemClock, log, env });
    await still.start();
    const stillMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const g = performance.now();
      await still.grab({ timeoutMs: 30_000 });
      stillMs.push(performance.now() - g);
    }
    await still.stop();
    out(`rpicam-still ${width}×${height} (sim stand-in): grab() ${stats(stillMs)}`);
  }
  await server.stop();
  await rig.stop();
  rmSync(dir, { recursive: true, force: true });
}

await main();
