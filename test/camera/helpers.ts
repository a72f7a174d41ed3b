import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { parseConfig } from "../../src/app/config/load.js";
import { type CameraConfig, cameraConfigSchema } from "../../src/camera/options.js";
import { Logger } from "../../src/log/logger.js";
import { SimControlServer } from "../../src/sim/control.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { projectRoot } from "../../src/util/paths.js";
import { quietLog } from "../fakes/log.js";

/** A logger that keeps every JSON line, parsed. */
export function capturingLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    now: Date.now,
  });
  return { log, lines };
}

/** A camera config: schema defaults plus `overrides`. */
export function cameraConfig(overrides: Partial<CameraConfig> = {}): CameraConfig {
  return cameraConfigSchema.parse(overrides);
}

export const SIM_VID = join(projectRoot(), "bin", "sim", "rpicam-vid");
export const SIM_STILL = join(projectRoot(), "bin", "sim", "rpicam-still");

/**
 * A simulated rig running in this process behind its control socket, as the daemon runs it: the rpicam
 * stand-ins started with `PICLAW_SIM_SOCKET` see this rig's live phone.
 */
export interface SimBench {
  rig: SimRig;
  socketPath: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startSimBench(): Promise<SimBench> {
  const dir = mkdtempSync(join(tmpdir(), "piclaw-camera-"));
  const config = parseConfig({ sim: { phone: { utcOffsetMinutes: 0 } } });
  const rig = SimRig.fromConfig(config, { clock: systemClock, log: quietLog(), cwd: projectRoot() });
  await rig.start();
  const server = new SimControlServer(rig, quietLog());
  const socketPath = await server.start(join(dir, "sim.sock"));
  return {
    rig,
    socketPath,
    env: { PICLAW_SIM_SOCKET: socketPath },
    stop: async () => {
      await server.stop();
      await rig.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small noisy JPEG (noise makes 0xFF bytes and stuffing appear in the entropy-coded data). */
export function noiseJpeg(
  width: number,
  height: number,
  opts: { progressive?: boolean } = {},
): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 70 },
    },
  })
    .jpeg({ quality: 90, progressive: opts.progressive ?? false })
    .toBuffer();
}

/** Whether a process exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    // Field 3 (after the parenthesised name) is the state; Z = exited, not yet reaped.
    const text = readFileSync(stat, "utf8");
    return text.slice(text.lastIndexOf(")") + 2, text.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

export async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A throwaway stand-in for rpicam-vid (node script) in a temp dir. It writes `FAKE_JPEG` every
 * `FAKE_INTERVAL_MS`; behaviour from env: `FAKE_FRAMES` (then exit `FAKE_EXIT_CODE` after printing
 * `FAKE_DEATH` on stderr, or go silent and idle with `FAKE_HANG`), `FAKE_GARBAGE_UNTIL` (random bytes until
 * that file exists), `FAKE_BUSY_FIRST_MS` (spin the CPU that long before anything, a slow first frame),
 * `FAKE_IGNORE_TERM`, `FAKE_PID_FILE` / `FAKE_ARGV_FILE` (records for the test), `FAKE_STAMP` (a COM
 * segment with the write time, its "exposure", in each frame: `exposureOf`), `FAKE_COUNT_FILE` (frames
 * written so far, updated after each write).
 */
export interface FakeRpicam {
  dir: string;
  /** Path of the executable script. */
  binary: string;
  /** A wrapper shell script that runs the script as its child (no exec): tests process-group kill. */
  wrapper: string;
  jpeg: Buffer;
  env(extra: Record<string, string>): NodeJS.ProcessEnv;
  pids(): number[];
  cleanup(): void;
}

const FAKE_SCRIPT = String.raw`
const fs = require("node:fs");
const crypto = require("node:crypto");
const env = process.env;
if (env.FAKE_PID_FILE) fs.appendFileSync(env.FAKE_PID_FILE, process.pid + "\n");
if (env.FAKE_ARGV_FILE) fs.writeFileSync(env.FAKE_ARGV_FILE, JSON.stringify(process.argv.slice(2)));
if (env.FAKE_IGNORE_TERM) process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
process.stderr.write("[0:00:00.000] fake rpicam-vid starting\n");
for (const end = Date.now() + Number(env.FAKE_BUSY_FIRST_MS || "0"); Date.now() < end; ) {}
const frame = fs.readFileSync(env.FAKE_JPEG);
const limit = env.FAKE_FRAMES === undefined ? Infinity : Number(env.FAKE_FRAMES);
let sent = 0;
const timer = setInterval(() => {
  if (env.FAKE_GARBAGE_UNTIL && !fs.existsSync(env.FAKE_GARBAGE_UNTIL)) {
    const junk = crypto.randomBytes(3000);
    process.stdout.write(Buffer.concat([junk, Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43]), junk]));
    return;
  }
  if (sent >= limit) {
    if (env.FAKE_HANG) {
      // Idle, as a camera waiting in the kernel for a frame that never comes (no CPU).
      clearInterval(timer);
      setInterval(() => {}, 1 << 30);
      return;
    }
    clearInterval(timer);
    process.stderr.write(env.FAKE_DEATH || "ERROR: *** fake camera died ***\n");
    process.exitCode = Number(env.FAKE_EXIT_CODE || "1");
    return;
  }
  if (env.FAKE_STAMP) {
    const text = Buffer.from(String(Date.now()));
    const com = Buffer.from([0xff, 0xfe, 0, text.length + 2]);
    process.stdout.write(Buffer.concat([frame.subarray(0, 2), com, text, frame.subarray(2)]));
  } else process.stdout.write(frame);
  sent++;
  if (env.FAKE_COUNT_FILE) fs.writeFileSync(env.FAKE_COUNT_FILE, String(sent));
}, Number(env.FAKE_INTERVAL_MS || "20"));
`;

/** The write time a `FAKE_STAMP` fake put into a frame (its COM segment right after SOI). */
export function exposureOf(jpeg: Buffer): number {
  if (jpeg[2] !== 0xff || jpeg[3] !== 0xfe) throw new Error("no COM segment after SOI");
  const len = jpeg.readUInt16BE(4);
  return Number(jpeg.subarray(6, 4 + len).toString());
}

export async function fakeRpicam(): Promise<FakeRpicam> {
  const dir = mkdtempSync(join(tmpdir(), "piclaw-fake-rpicam-"));
  const jpeg = await noiseJpeg(96, 64);
  writeFileSync(join(dir, "frame.jpg"), jpeg);
  const binary = join(dir, "fake-rpicam-vid.cjs");
  writeFileSync(binary, `#!${process.execPath}\n${FAKE_SCRIPT}`);
  chmodSync(binary, 0o755);
  const wrapper = join(dir, "wrapper.sh");
  writeFileSync(wrapper, `#!/bin/sh\n"${binary}" "$@"\necho "wrapper: child ended" >&2\n`);
  chmodSync(wrapper, 0o755);
  const pidFile = join(dir, "pids");
  return {
    dir,
    binary,
    wrapper,
    jpeg,
    env: (extra) => ({ FAKE_JPEG: join(dir, "frame.jpg"), FAKE_PID_FILE: pidFile, ...extra }),
    pids: () =>
      existsSync(pidFile) ? readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number) : [],
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
