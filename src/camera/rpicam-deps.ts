import type { Logger } from "../log/logger.js";
import type { Clock } from "../util/clock.js";
import type { ChildExit } from "./child.js";

/** What the rpicam camera drivers are given besides their config. */
export interface RpicamCameraDeps {
  /** Stamps frames (`atMs`) and is the time base of `newerThanMs`. Timeouts and backoff use real timers. */
  clock: Clock;
  log: Logger;
  /** Extra environment for the capture program (the simulator's stand-ins read `PICLAW_SIM_SOCKET`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Milliseconds this process's event loop has spent blocked waiting for input, cumulative (default:
   * `performance.eventLoopUtilization().idle`). Unchanged between two readings = the loop never waited,
   * so data read meanwhile may have been waiting since the first reading (see frame-stamps.ts).
   */
  loopIdleMs?: () => number;
}

/** Health of the stream, for logs and a status endpoint. */
export interface RpicamVidStatus {
  running: boolean;
  pid: number | null;
  /** Frames received since start (all processes). */
  frames: number;
  lastFrameAtMs: number | null;
  /** Processes started after the first one. */
  restarts: number;
  /** Exits/stalls since the last frame; sets the backoff. */
  consecutiveFailures: number;
  /** Delay of the restart now pending, if any. */
  pendingRestartMs: number | null;
  lastExit: (ChildExit & { atMs: number }) | null;
  lastError: { code: string; message: string } | null;
  /** Bytes and partial frames the splitter threw away (garbage, truncated frames). */
  discardedBytes: number;
  abandonedFrames: number;
}
