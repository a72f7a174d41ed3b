import { type Camera, type CameraFrame, type GrabOptions, stoppedError } from "../../src/camera/camera.js";
import { OnDemandFrames } from "../../src/camera/on-demand.js";
import type { Clock } from "../../src/util/clock.js";
import type { PiclawError } from "../../src/util/errors.js";

export interface FakeCameraOptions {
  /** Renders one JPEG of the scene as it is now (e.g. `() => simCamera.capture(settings)`). */
  source: () => Promise<Buffer>;
  /** Stamps frames; a ManualClock makes time stand still unless the test (or the source) advances it. */
  clock: Clock;
  /** Default grab timeout in real milliseconds (default 5000). */
  grabTimeoutMs?: number;
  /** Size reported for a JPEG without a readable SOF header (default 2304×1296). */
  width?: number;
  height?: number;
}

/**
 * A camera without a process: each grab that needs a new frame calls the injected JPEG source, with the
 * same freshness rules as the real drivers (see `OnDemandFrames`). For fast tests of code above the
 * camera; `failWith()` makes it fail like a broken camera would.
 */
export class FakeCamera implements Camera {
  private readonly frames: OnDemandFrames;
  private fault: PiclawError | null = null;

  constructor(private readonly options: FakeCameraOptions) {
    this.frames = new OnDemandFrames(
      async (signal) => {
        if (this.fault) throw this.fault;
        // stop() must not hang on a source that never answers.
        return Promise.race([
          this.options.source(),
          new Promise<never>((_, reject) =>
            signal.addEventListener("abort", () => reject(stoppedError()), { once: true }),
          ),
        ]);
      },
      options.clock,
      {
        fallbackSize: { width: options.width ?? 2304, height: options.height ?? 1296 },
        grabTimeoutMs: options.grabTimeoutMs ?? 5000,
      },
    );
  }

  async start(): Promise<void> {
    this.frames.open();
  }

  async stop(): Promise<void> {
    await this.frames.close();
  }

  grab(opts?: GrabOptions): Promise<CameraFrame> {
    return this.frames.grab(opts);
  }

  /** Every new capture rejects with `err` until called with null (e.g. a CAMERA_TIMEOUT error). */
  failWith(err: PiclawError | null): void {
    this.fault = err;
  }

  /** How many times the source was asked for a frame. */
  get captures(): number {
    return this.frames.captures;
  }
}
