import { PiclawError } from "../util/errors.js";
import { type Camera, CameraErrorCode, type CameraFrame, type GrabOptions, stoppedError } from "./camera.js";
import { CaptureProcess, isExecutable } from "./child.js";
import { extractJpeg } from "./mjpeg.js";
import { OnDemandFrames } from "./on-demand.js";
import { type CameraConfig, rpicamStillArgs } from "./options.js";
import type { RpicamCameraDeps } from "./rpicam-deps.js";

/**
 * The fallback camera: every grab that needs a new picture runs `rpicam-still --immediate -n -o -` with
 * the configured size and locked controls, and takes the JPEG from its stdout. Slow on a Pi (the camera
 * starts for each picture), but nothing runs between grabs. One capture at a time; grabs asked for
 * while one runs share it if it began after their `newerThanMs`, otherwise they take the next.
 */
export class RpicamStillCamera implements Camera {
  private readonly frames: OnDemandFrames;
  private current: CaptureProcess | null = null;
  private lastStderr = "";

  constructor(
    private readonly config: CameraConfig,
    private readonly deps: RpicamCameraDeps,
  ) {
    this.frames = new OnDemandFrames((signal) => this.captureOnce(signal), deps.clock, {
      fallbackSize: { width: config.width, height: config.height },
      grabTimeoutMs: config.grabTimeoutMs,
      timeoutDetails: () => ({ stderrTail: this.current?.stderrTail() ?? this.lastStderr }),
    });
  }

  /** Checks that rpicam-still can be run (CAMERA_BINARY_MISSING otherwise); takes no picture. */
  async start(): Promise<void> {
    const { stillBinary } = this.config;
    if (!isExecutable(stillBinary, this.env())) {
      throw new PiclawError(
        CameraErrorCode.binaryMissing,
        `camera program not found: ${stillBinary} (install rpicam-apps, or set camera.stillBinary)`,
        { binary: stillBinary },
      );
    }
    this.frames.open();
  }

  async stop(): Promise<void> {
    await this.frames.close();
  }

  grab(opts?: GrabOptions): Promise<CameraFrame> {
    return this.frames.grab(opts);
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.deps.env };
  }

  private async captureOnce(signal: AbortSignal): Promise<Buffer> {
    const { config } = this;
    const proc = await CaptureProcess.spawn(config.stillBinary, rpicamStillArgs(config), this.env());
    this.current = proc;
    const chunks: Buffer[] = [];
    let size = 0;
    const maxBytes = Math.max(8 * 1024 * 1024, config.width * config.height * 3);
    proc.stdout.on("data", (chunk: Buffer) => {
      if (size > maxBytes) return; // not a JPEG of this size: keep the memory bounded, fail below
      chunks.push(chunk);
      size += chunk.length;
    });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      void proc.kill(config.stopGraceMs);
    }, config.stillTimeoutMs);
    const onAbort = (): void => void proc.kill(config.stopGraceMs);
    signal.addEventListener("abort", onAbort);
    if (signal.aborted) onAbort();
    const exit = await proc.exited;
    clearTimeout(deadline);
    signal.removeEventListener("abort", onAbort);
    this.current = null;
    this.lastStderr = exit.stderrTail;
    const details = { binary: config.stillBinary, ...exit };
    if (signal.aborted) throw stoppedError();
    if (timedOut)
      throw new PiclawError(
        CameraErrorCode.timeout,
        `rpicam-still took longer than ${config.stillTimeoutMs} ms`,
        details,
      );
    if (exit.code !== 0)
      throw new PiclawError(
        CameraErrorCode.captureFailed,
        `rpicam-still failed (${exit.signal ?? `exit code ${exit.code}`}): ${lastLine(exit.stderrTail)}`,
        details,
      );
    const jpeg = size > maxBytes ? null : extractJpeg(Buffer.concat(chunks));
    if (!jpeg)
      throw new PiclawError(CameraErrorCode.captureFailed, "rpicam-still wrote no JPEG to stdout", {
        ...details,
        stdoutBytes: size,
      });
    this.deps.log.debug("rpicam-still frame", { bytes: jpeg.length });
    return jpeg;
  }
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").pop() ?? "";
}
