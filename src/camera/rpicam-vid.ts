import { errorMessage, PiclawError } from "../util/errors.js";
import {
  type Camera,
  CameraErrorCode,
  type CameraFrame,
  type GrabOptions,
  notStartedError,
  stoppedError,
} from "./camera.js";
import { CaptureProcess, type ChildExit } from "./child.js";
import { type Arrival, stampBurst } from "./frame-stamps.js";
import { MjpegSplitter, type SplitFrame } from "./mjpeg.js";
import { type CameraConfig, rpicamVidArgs } from "./options.js";
import type { RpicamCameraDeps, RpicamVidStatus } from "./rpicam-deps.js";

interface StampedFrame {
  frame: CameraFrame;
  /** When this frame's exposure began at the latest: the completion of the frame `pipelineFrames` back. */
  exposedAfterMs: number;
}

/** Frames read in the current loop turn, stamped together at its end. */
interface Turn {
  proc: CaptureProcess;
  splitter: MjpegSplitter;
  frames: (Arrival & { split: SplitFrame })[];
}

interface Waiter {
  newerThanMs: number;
  resolve(frame: CameraFrame): void;
  reject(err: PiclawError): void;
  timer: NodeJS.Timeout;
}

/**
 * The camera as one long-lived `rpicam-vid --codec mjpeg -o - -t 0` process. Its stdout is split into
 * JPEG frames as they arrive; only the latest frame is kept. When the process exits, or gives no frame
 * for `startupTimeoutMs` after starting / `stallTimeoutMs` while running (longer while it keeps using
 * CPU: see `armWatchdog`), it is killed and started again after a delay that doubles per failure from
 * `restartMinMs` to `restartMaxMs` and returns to the minimum with the next frame. Grabs wait across
 * restarts until their timeout.
 *
 * Freshness: frames come out in order, so frame n began no earlier than frame n−1 completed. A grab
 * therefore takes the first frame whose `pipelineFrames`-th predecessor in the same process completed
 * after the request (the first frames of a process count from its spawn time). When a frame completed
 * is estimated from when it was read, made honest for a late reader by `stampBurst` (frame-stamps.ts):
 * frames are stamped at the end of the loop turn that read them, a burst as old as the frame rate
 * forces, and the first frames read after a grab request, before the loop waited for input, as
 * complete before the request.
 */
export class RpicamVidCamera implements Camera {
  private running = false;
  private proc: CaptureProcess | null = null;
  private procStartMs = 0;
  /** Completion times of this process's last `pipelineFrames` frames. */
  private recentAtMs: number[] = [];
  private launching: Promise<void> | null = null;
  private latest: StampedFrame | null = null;
  private seq = 0;
  private frames = 0;
  private restarts = 0;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private pendingRestartMs: number | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private lastExit: (ChildExit & { atMs: number }) | null = null;
  private lastError: PiclawError | null = null;
  private discarded = { bytes: 0, frames: 0 };
  private readonly waiters = new Set<Waiter>();
  private turn: Turn | null = null;
  /** The earliest grab request no read has followed yet, and the loop's idle total then. */
  private unread: { requestMs: number; idleMs: number } | null = null;

  constructor(
    private readonly config: CameraConfig,
    private readonly deps: RpicamCameraDeps,
  ) {}

  /** Spawn rpicam-vid. Rejects (and stays stopped) when it cannot be spawned; frames follow asynchronously. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    this.lastError = null;
    try {
      await this.launch();
    } catch (err) {
      this.running = false;
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.clearTimers();
    for (const w of [...this.waiters]) this.settle(w, null, stoppedError());
    await this.launching?.catch(() => undefined);
    const proc = this.proc;
    this.proc = null;
    if (proc) await proc.kill(this.config.stopGraceMs);
  }

  grab(opts: GrabOptions = {}): Promise<CameraFrame> {
    if (!this.running) return Promise.reject(notStartedError());
    const askedAtMs = this.deps.clock.now();
    const newerThanMs = opts.newerThanMs ?? askedAtMs;
    this.unread ??= { requestMs: askedAtMs, idleMs: this.loopIdleMs() };
    const timeoutMs = opts.timeoutMs ?? this.config.grabTimeoutMs;
    if (this.latest && this.isFresh(this.latest, newerThanMs)) return Promise.resolve(this.latest.frame);
    // A missing program will not appear by waiting: say so now (restarts keep trying in the background).
    if (!this.proc && this.lastError?.code === CameraErrorCode.binaryMissing)
      return Promise.reject(this.lastError);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        newerThanMs,
        resolve,
        reject,
        timer: setTimeout(
          () => this.settle(waiter, null, this.timeoutError(newerThanMs, timeoutMs)),
          timeoutMs,
        ),
      };
      this.waiters.add(waiter);
    });
  }

  status(): RpicamVidStatus {
    return {
      running: this.running,
      pid: this.proc?.pid ?? null,
      frames: this.frames,
      lastFrameAtMs: this.latest?.frame.atMs ?? null,
      restarts: this.restarts,
      consecutiveFailures: this.failures,
      pendingRestartMs: this.pendingRestartMs,
      lastExit: this.lastExit,
      lastError: this.lastError ? { code: this.lastError.code, message: this.lastError.message } : null,
      discardedBytes: this.discarded.bytes,
      abandonedFrames: this.discarded.frames,
    };
  }

  private isFresh(s: StampedFrame, newerThanMs: number): boolean {
    return s.exposedAfterMs >= newerThanMs && s.frame.atMs > newerThanMs;
  }

  private launch(): Promise<void> {
    const attempt = (async () => {
      const { config, deps } = this;
      // Before the spawn: no frame of this process can have begun earlier.
      const spawnAtMs = deps.clock.now();
      const proc = await CaptureProcess.spawn(config.vidBinary, rpicamVidArgs(config), {
        ...process.env,
        ...deps.env,
      });
      if (!this.running) {
        await proc.kill(config.stopGraceMs);
        return;
      }
      this.proc = proc;
      this.procStartMs = spawnAtMs;
      this.recentAtMs = [];
      const splitter: MjpegSplitter = new MjpegSplitter(
        (f) => this.onFrame(proc, splitter, f),
        Math.max(8 * 1024 * 1024, config.width * config.height * 3),
      );
      let counted = { bytes: 0, frames: 0 };
      proc.stdout.on("data", (chunk: Buffer) => {
        splitter.push(chunk);
        const { discardedBytes, abandonedFrames } = splitter.stats;
        this.discarded.bytes += discardedBytes - counted.bytes;
        this.discarded.frames += abandonedFrames - counted.frames;
        counted = { bytes: discardedBytes, frames: abandonedFrames };
      });
      proc.exited.then((exit) => this.onExit(proc, exit));
      this.armWatchdog(proc, config.startupTimeoutMs, "no frame after start");
      deps.log.debug("rpicam-vid started", { pid: proc.pid, binary: config.vidBinary });
    })();
    this.launching = attempt;
    return attempt.finally(() => {
      if (this.launching === attempt) this.launching = null;
    });
  }

  private onFrame(proc: CaptureProcess, splitter: MjpegSplitter, split: SplitFrame): void {
    if (proc !== this.proc) return;
    let turn = this.turn;
    if (turn?.proc !== proc) {
      const fresh: Turn = { proc, splitter, frames: [] };
      // The check phase comes after the poll phase that read the pipe: the turn's reads are all in.
      if (!turn) setImmediate(() => this.stampTurn());
      turn = this.turn = fresh;
    }
    turn.frames.push({ readMs: this.deps.clock.now(), split });
    this.frames++;
    this.failures = 0;
    this.lastError = null;
    this.armWatchdog(proc, this.config.stallTimeoutMs, "frames stopped");
  }

  private loopIdleMs(): number {
    return this.deps.loopIdleMs?.() ?? performance.eventLoopUtilization().idle;
  }

  private stampTurn(): void {
    const turn = this.turn;
    this.turn = null;
    if (!turn || turn.proc !== this.proc) return;
    const { splitter, frames } = turn;
    // The first reads after a request drain what the pipe held then; if the loop has not waited for
    // input since, all of it may have been written before the request.
    const unread = this.unread;
    let turnRequestMs: number | null = null;
    if (unread && frames.some((f) => f.readMs >= unread.requestMs)) {
      this.unread = null;
      if (this.loopIdleMs() === unread.idleMs) turnRequestMs = unread.requestMs;
    }
    const stamps = stampBurst(frames, {
      periodMs: 1000 / this.config.framerate,
      nowMs: this.deps.clock.now(),
      // More than a lone 0xFF held: the next frame's bytes are arriving, so it was complete by now.
      successorPending: splitter.bufferedBytes > 1,
      turnRequestMs,
    });
    const depth = this.config.pipelineFrames;
    frames.forEach(({ split }, i) => {
      const atMs = stamps[i] ?? this.deps.clock.now();
      const exposedAfterMs =
        depth === 0
          ? atMs
          : this.recentAtMs.length >= depth
            ? (this.recentAtMs[0] ?? atMs)
            : this.procStartMs;
      this.recentAtMs.push(atMs);
      if (this.recentAtMs.length > depth) this.recentAtMs.shift();
      this.seq++;
      const { width, height } = this.config;
      const frame = {
        jpeg: split.jpeg,
        width: split.width || width,
        height: split.height || height,
        seq: this.seq,
        atMs,
      };
      this.latest = { frame, exposedAfterMs };
      for (const w of [...this.waiters]) if (this.isFresh(this.latest, w.newerThanMs)) this.settle(w, frame);
    });
  }

  private onExit(proc: CaptureProcess, exit: ChildExit): void {
    if (proc !== this.proc) return;
    this.proc = null;
    this.clearWatchdog();
    this.lastExit = { ...exit, atMs: this.deps.clock.now() };
    if (!this.running) return;
    this.lastError = new PiclawError(
      CameraErrorCode.captureFailed,
      `rpicam-vid exited (${exit.signal ?? `code ${exit.code}`})`,
      { ...exit },
    );
    const delayMs = this.scheduleRestart();
    this.deps.log.warn("rpicam-vid exited; restarting", {
      code: exit.code,
      signal: exit.signal,
      restartInMs: delayMs,
      stderrTail: lastLines(exit.stderrTail, 5),
    });
  }

  /**
   * Kill the process if no frame arrives within `ms`; its exit then schedules the restart.
   * The verdict waits one `setImmediate`: after the event loop was blocked longer than `ms`, the
   * timers phase runs before the poll phase, so frames already waiting in the pipe have not been read
   * yet. The check phase comes after the poll phase; a frame read there re-armed the watchdog.
   *
   * Progress, not wall time alone: a program that used at least 1% of that time in CPU (≥ one tick) is
   * working on its frame — on a loaded machine a cold start and first render take many times longer —
   * and gets another `ms`, up to `BUSY_PERIODS` in all. A hung camera waits in the kernel and uses
   * none (a stand-in that was killed mid-render at load ~8 started over from nothing, again and again).
   * Nor is this process's own lateness the program's fault: only time the loop was responsive counts.
   */
  private armWatchdog(proc: CaptureProcess, ms: number, why: string, period = 1): void {
    this.clearWatchdog();
    const framesAtArm = this.frames;
    const cpuAtArm = proc.cpuMs();
    // `ms` counts only time this loop could answer: a turn that came late (the daemon itself blocked or
    // starved, so it neither read frames nor served the stand-in's scene requests) counts as two ticks.
    const tickMs = Math.max(10, Math.min(250, ms / 10));
    let credited = 0;
    let last = performance.now();
    this.watchdog = setInterval(() => {
      const now = performance.now();
      credited += Math.min(now - last, 2 * tickMs);
      last = now;
      if (credited < ms) return;
      this.clearWatchdog();
      setImmediate(() => {
        if (proc !== this.proc || !this.running || this.watchdog !== null) return;
        if (this.frames !== framesAtArm) return;
        const cpuNow = proc.cpuMs();
        const usedMs = cpuNow !== null && cpuAtArm !== null ? cpuNow - cpuAtArm : 0;
        if (period < BUSY_PERIODS && usedMs >= Math.max(10, ms / 100)) {
          this.deps.log.info("rpicam-vid slow but busy; waiting for its frame", {
            why,
            afterMs: ms * period,
            cpuMs: usedMs,
            pid: proc.pid,
          });
          this.armWatchdog(proc, ms, why, period + 1);
          return;
        }
        this.deps.log.warn("rpicam-vid stalled; killing it", { why, afterMs: ms * period, pid: proc.pid });
        void proc.kill(this.config.stopGraceMs);
      });
    }, tickMs);
  }

  private scheduleRestart(): number {
    this.failures++;
    const { restartMinMs, restartMaxMs } = this.config;
    const delayMs = Math.min(restartMaxMs, restartMinMs * 2 ** (this.failures - 1));
    this.pendingRestartMs = delayMs;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.pendingRestartMs = null;
      if (!this.running) return;
      this.restarts++;
      this.launch().catch((err: unknown) => {
        const error =
          err instanceof PiclawError ? err : new PiclawError(CameraErrorCode.spawnFailed, errorMessage(err));
        this.lastError = error;
        if (error.code === CameraErrorCode.binaryMissing)
          for (const w of [...this.waiters]) this.settle(w, null, error);
        if (!this.running) return;
        const next = this.scheduleRestart();
        this.deps.log.warn("rpicam-vid restart failed", { code: error.code, retryInMs: next });
      });
    }, delayMs);
    return delayMs;
  }

  private timeoutError(newerThanMs: number, timeoutMs: number): PiclawError {
    const s = this.status();
    return new PiclawError(
      CameraErrorCode.timeout,
      `no camera frame newer than ${new Date(newerThanMs).toISOString()} within ${timeoutMs} ms` +
        (s.lastError ? ` (${s.lastError.message})` : s.pid === null ? " (rpicam-vid not running)" : ""),
      {
        timeoutMs,
        newerThanMs,
        lastFrameAtMs: s.lastFrameAtMs,
        processRunning: s.pid !== null,
        restarts: s.restarts,
        lastError: s.lastError,
        lastExit: s.lastExit,
        stderrTail: this.proc?.stderrTail() ?? s.lastExit?.stderrTail ?? "",
        discardedBytes: s.discardedBytes,
      },
    );
  }

  private settle(w: Waiter, frame: CameraFrame | null, err?: PiclawError): void {
    if (!this.waiters.delete(w)) return;
    clearTimeout(w.timer);
    if (frame) w.resolve(frame);
    else w.reject(err ?? stoppedError());
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  private clearTimers(): void {
    this.clearWatchdog();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.pendingRestartMs = null;
  }
}

/** Watchdog periods a busy program gets before it is killed anyway (10 × 10 s for a cold start). */
const BUSY_PERIODS = 10;

const lastLines = (text: string, n: number): string => text.trimEnd().split("\n").slice(-n).join("\n");
