import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { sleep } from "../util/sleep.js";
import {
  CameraErrorCode,
  type CameraFrame,
  type GrabOptions,
  notStartedError,
  stoppedError,
} from "./camera.js";
import { jpegSize } from "./mjpeg.js";

/** Takes one picture; should stop early (and reject) when `signal` aborts. */
export type CaptureOnce = (signal: AbortSignal) => Promise<Buffer>;

interface Capture {
  startedMs: number;
  abort: AbortController;
  promise: Promise<CameraFrame>;
}

interface PendingGrab {
  cancelled: boolean;
  fail(err: PiclawError): void;
}

/** Longest real-time pause while waiting for the clock to reach a future `newerThanMs`. */
const CLOCK_POLL_MS = 20;

/**
 * Grab logic of cameras that take a picture per request (rpicam-still, the fake): one capture at a
 * time, stamped with the clock time it began and was complete. A grab reuses the latest or in-flight
 * capture only if that began strictly after `newerThanMs`; otherwise it waits for the running capture
 * to end (the camera is exclusive) and starts a new one, which — beginning at or after the request —
 * is what the request asked for. Timeouts use real timers.
 */
export class OnDemandFrames {
  private active = false;
  private seq = 0;
  private begun = 0;
  private latest: { frame: CameraFrame; startedMs: number } | null = null;
  private inflight: Capture | null = null;
  private readonly pending = new Set<PendingGrab>();

  constructor(
    private readonly capture: CaptureOnce,
    private readonly clock: Clock,
    private readonly opts: {
      fallbackSize: { width: number; height: number };
      grabTimeoutMs: number;
      /** Extra details for a CAMERA_TIMEOUT error (what the capture program said, …). */
      timeoutDetails?: () => Record<string, unknown>;
    },
  ) {}

  open(): void {
    this.active = true;
  }

  /** Fail pending grabs with CAMERA_STOPPED and abort the capture in flight; resolves once it ended. */
  async close(): Promise<void> {
    this.active = false;
    for (const p of [...this.pending]) p.fail(stoppedError());
    const running = this.inflight;
    running?.abort.abort();
    await running?.promise.catch(() => undefined);
  }

  /** Captures begun so far. */
  get captures(): number {
    return this.begun;
  }

  grab(opts: GrabOptions = {}): Promise<CameraFrame> {
    if (!this.active) return Promise.reject(notStartedError());
    const newerThanMs = opts.newerThanMs ?? this.clock.now();
    const timeoutMs = opts.timeoutMs ?? this.opts.grabTimeoutMs;
    return new Promise((resolve, reject) => {
      const grab: PendingGrab = {
        cancelled: false,
        fail: (err) => {
          if (grab.cancelled) return;
          grab.cancelled = true;
          clearTimeout(timer);
          this.pending.delete(grab);
          reject(err);
        },
      };
      const timer = setTimeout(() => grab.fail(this.timeoutError(newerThanMs, timeoutMs)), timeoutMs);
      this.pending.add(grab);
      this.fresh(newerThanMs, grab).then(
        (frame) => {
          if (grab.cancelled) return;
          grab.cancelled = true;
          clearTimeout(timer);
          this.pending.delete(grab);
          resolve(frame);
        },
        (err: unknown) =>
          grab.fail(
            err instanceof PiclawError
              ? err
              : new PiclawError(CameraErrorCode.captureFailed, String(err), {}, { cause: err }),
          ),
      );
    });
  }

  private async fresh(newerThanMs: number, grab: PendingGrab): Promise<CameraFrame> {
    for (;;) {
      if (grab.cancelled) throw stoppedError();
      if (!this.active) throw stoppedError();
      if (this.latest && this.latest.startedMs > newerThanMs) return this.latest.frame;
      const running = this.inflight;
      if (running) {
        if (running.startedMs > newerThanMs) return running.promise;
        await running.promise.catch(() => undefined);
        continue;
      }
      const now = this.clock.now();
      if (now < newerThanMs) {
        // A capture must not begin before the time asked for.
        await sleep(Math.max(1, Math.min(CLOCK_POLL_MS, newerThanMs - now)));
        continue;
      }
      return this.begin().promise;
    }
  }

  private begin(): Capture {
    const startedMs = this.clock.now();
    const abort = new AbortController();
    const entry: Capture = { startedMs, abort, promise: Promise.resolve(null as unknown as CameraFrame) };
    // In flight before the capture runs, so a capture that fails at once still clears it.
    this.inflight = entry;
    this.begun++;
    entry.promise = (async () => {
      try {
        const jpeg = await this.capture(abort.signal);
        if (abort.signal.aborted) throw stoppedError();
        const size = jpegSize(jpeg) ?? this.opts.fallbackSize;
        const frame: CameraFrame = {
          jpeg,
          width: size.width,
          height: size.height,
          seq: ++this.seq,
          atMs: this.clock.now(),
        };
        if (!this.latest || this.latest.startedMs <= startedMs) this.latest = { frame, startedMs };
        return frame;
      } finally {
        if (this.inflight === entry) this.inflight = null;
      }
    })();
    return entry;
  }

  private timeoutError(newerThanMs: number, timeoutMs: number): PiclawError {
    return new PiclawError(
      CameraErrorCode.timeout,
      `no camera frame newer than ${new Date(newerThanMs).toISOString()} within ${timeoutMs} ms`,
      {
        timeoutMs,
        newerThanMs,
        lastFrameAtMs: this.latest?.frame.atMs ?? null,
        captureRunning: this.inflight !== null,
        ...this.opts.timeoutDetails?.(),
      },
    );
  }
}
