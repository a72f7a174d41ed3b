import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import { errorMessage } from "../../util/errors.js";
import type { CaptureSettings } from "./options.js";
import {
  parseRpicamArgs,
  RPICAM_USAGE,
  type RpicamMode,
  type RpicamOptions,
  RpicamUsageError,
} from "./rpicam-args.js";

/**
 * Program logic of the `rpicam-vid` / `rpicam-still` stand-ins, injectable so tests and the executables
 * share it. They produce the byte stream a Pi's rpicam apps give the camera driver: concatenated JPEG
 * frames on stdout for `rpicam-vid --codec mjpeg -o -`, one JPEG for `rpicam-still -o FILE|-`, and
 * libcamera-style chatter on stderr only.
 *
 * Timing of the real apps on a Pi 5 with a Camera Module 3: a cold `rpicam-still` takes 6–7 s (camera
 * start-up, then the default 5 s `--timeout` of preview while AE/AWB/AF settle, then the capture);
 * `--immediate` skips the preview. The stand-in waits `timeout × stillTimeScale` (default 0.1, so the
 * default 5 s becomes 0.5 s) unless `--immediate`.
 */

/** Anything that renders JPEG frames on request (SimCamera, or a client of a running simulator). */
export interface FrameSource {
  capture(settings: CaptureSettings): Promise<Buffer>;
}

/** Everything the stand-in touches, injected. */
export interface RpicamDeps {
  source: FrameSource;
  stdout: Writable;
  stderr: Writable;
  sleep(ms: number): Promise<void>;
  /** Milliseconds, any monotonic-enough origin. */
  now(): number;
  /** Abort = SIGINT/SIGTERM: stop after the current frame and exit 0. */
  signal?: AbortSignal;
  /** Scale of rpicam-still's preview/settle wait (default 0.1). */
  stillTimeScale?: number;
  /** Where `-o FILE` goes; defaults to the filesystem. */
  writeFile?: (path: string, data: Buffer) => Promise<void>;
  openFile?: (path: string) => Writable;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULTS = {
  vid: { width: 640, height: 480, quality: 50 },
  still: { width: 4608, height: 2592, quality: 93 },
} as const;

function settingsOf(mode: RpicamMode, o: RpicamOptions): CaptureSettings {
  const s: CaptureSettings = {
    width: o.width ?? DEFAULTS[mode].width,
    height: o.height ?? DEFAULTS[mode].height,
    quality: o.quality ?? DEFAULTS[mode].quality,
  };
  if (o.shutterUs !== undefined) s.shutterUs = o.shutterUs;
  if (o.gain !== undefined) s.gain = o.gain;
  if (o.awbGains !== undefined) s.awbGains = o.awbGains;
  // As in rpicam-apps, a lens position implies manual focus; manual focus without one keeps the default.
  if (o.lensPosition !== undefined) s.lensPosition = o.lensPosition;
  return s;
}

function banner(mode: RpicamMode, s: CaptureSettings, o: RpicamOptions): string {
  const fps = mode === "vid" ? `@${o.framerate ?? 30}fps ${o.codec}` : " still";
  return [
    "[0:00:00.000000000] [sim]  INFO Camera camera_manager.cpp:330 libcamera v0.5.0+piclaw-sim",
    "[0:00:00.010000000] [sim]  INFO RPI pisp.cpp:720 libpisp version v1.2.0 (PiClaw simulated camera)",
    "Made simulated camera imx708 (Camera Module 3, 4608x2592, no preview)",
    `Mode selection for ${s.width}:${s.height}:12:P${fps}`,
    `[0:00:00.050000000] [sim]  INFO Camera camera.cpp:1215 configuring streams: (0) ${s.width}x${s.height}-YUV420`,
    "[0:00:00.060000000] [sim]  INFO RPI pisp.cpp:1484 Sensor: /base/axi/pcie@120000/rp1/i2c@88000/imx708@1a - Selected sensor format: 2304x1296-SBGGR10_1X10",
    "",
  ].join("\n");
}

/** Write one chunk; resolves false once the reader has gone (EPIPE, closed pipe). */
function writeChunk(out: Writable, data: Buffer, closed: () => boolean): Promise<boolean> {
  if (closed() || out.destroyed || out.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    const ok = out.write(data, (err) => {
      if (err) resolve(false);
      else if (ok) resolve(true);
    });
    if (!ok) {
      const done = (open: boolean) => () => {
        out.off("drain", onDrain);
        out.off("close", onClose);
        resolve(open && !closed());
      };
      const onDrain = done(true);
      const onClose = done(false);
      out.once("drain", onDrain);
      out.once("close", onClose);
    }
  });
}

/** Run `rpicam-vid` or `rpicam-still` with `argv` (without the program name). Resolves to the exit code. */
export async function runRpicam(mode: RpicamMode, argv: string[], deps: RpicamDeps): Promise<number> {
  const say = (text: string): void => {
    deps.stderr.write(text);
  };
  let opts: RpicamOptions;
  try {
    opts = parseRpicamArgs(mode, argv);
  } catch (err) {
    if (!(err instanceof RpicamUsageError)) throw err;
    say(`ERROR: *** ${err.message} ***\n`);
    return 255;
  }
  if (opts.help) {
    say(`rpicam-${mode} (PiClaw simulated camera)\n${RPICAM_USAGE}`);
    return 0;
  }
  if (mode === "vid" && opts.codec !== "mjpeg") {
    say(
      `ERROR: *** codec "${opts.codec}" is not supported by the PiClaw simulated camera; use --codec mjpeg ***\n`,
    );
    return 255;
  }
  const settings = settingsOf(mode, opts);
  say(banner(mode, settings, opts));
  try {
    return mode === "vid" ? await runVid(opts, settings, deps) : await runStill(opts, settings, deps);
  } catch (err) {
    say(`ERROR: *** ${errorMessage(err)} ***\n`);
    return 255;
  }
}

async function runVid(o: RpicamOptions, settings: CaptureSettings, deps: RpicamDeps): Promise<number> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const intervalMs = 1000 / (o.framerate ?? 30);
  const toStdout = o.output === "-";
  const out: Writable | null = toStdout
    ? deps.stdout
    : o.output !== undefined
      ? (deps.openFile ?? ((p: string) => createWriteStream(p)))(o.output)
      : null;
  let closed = false;
  const onGone = (): void => {
    closed = true;
  };
  out?.on("error", onGone);
  out?.on("close", onGone);
  try {
    const start = deps.now();
    let due = start;
    const expired = (): boolean => timeoutMs > 0 && deps.now() - start >= timeoutMs;
    while (!deps.signal?.aborted && !closed && !expired()) {
      const frame = await deps.source.capture(settings);
      if (deps.signal?.aborted) break;
      if (out !== null && !(await writeChunk(out, frame, () => closed))) break;
      // Pace to the frame rate, never faster; when rendering runs late, restart the schedule from now
      // instead of bursting to catch up.
      due += intervalMs;
      const now = deps.now();
      if (due < now) due = now;
      let wait = due - now;
      if (timeoutMs > 0) wait = Math.min(wait, Math.max(0, start + timeoutMs - now));
      if (wait > 0) await deps.sleep(wait);
    }
  } finally {
    out?.off("error", onGone);
    out?.off("close", onGone);
    if (out !== null && !toStdout && !closed) await new Promise<void>((r) => out.end(() => r()));
  }
  return 0;
}

async function runStill(o: RpicamOptions, settings: CaptureSettings, deps: RpicamDeps): Promise<number> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!o.immediate) {
    if (timeoutMs === 0) {
      // Like the real app: -t 0 previews until stopped and never captures.
      while (!deps.signal?.aborted) await deps.sleep(50);
      return 0;
    }
    const settle = timeoutMs * (deps.stillTimeScale ?? 0.1);
    const end = deps.now() + settle;
    while (!deps.signal?.aborted && deps.now() < end) await deps.sleep(Math.min(50, end - deps.now()));
    if (deps.signal?.aborted) return 0;
  }
  const jpeg = await deps.source.capture(settings);
  if (o.output === "-") {
    let closed = false;
    const onGone = (): void => {
      closed = true;
    };
    deps.stdout.on("error", onGone);
    try {
      await writeChunk(deps.stdout, jpeg, () => closed);
    } finally {
      deps.stdout.off("error", onGone);
    }
  } else if (o.output !== undefined) {
    await (deps.writeFile ?? writeFile)(o.output, jpeg);
  }
  return 0;
}
