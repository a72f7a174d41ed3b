/**
 * Completion stamps for frames read from a capture program's pipe, honest when the reader is late.
 *
 * The reader (this process's event loop) learns of a frame only when it reads it. While the loop is busy,
 * frames pile up: in the pipe, and in rpicam-vid's own output queue (rpicam-apps' encoders hand each
 * encoded frame to an output thread that blocks on a full stdout while the camera keeps capturing —
 * rpicam-apps `encoder/mjpeg_encoder.cpp`, `output/output.cpp`). The backlog then arrives in one burst,
 * and stamping each frame with its read time would make frames exposed long ago look brand new: a grab
 * right after a tap would return the screen from before it. So stamps are upper bounds, as old as the
 * facts force them to be:
 *
 * 1. A frame was complete no later than when it was read.
 * 2. The camera delivers at most one frame per frame period (the sensor's frame duration is fixed by
 *    `--framerate`), so a frame followed by another in the same burst — or by the first bytes of the next
 *    frame already received — was complete at least one period before that next one.
 * 3. The loop polls the pipe without blocking first, and only a blocking wait counts as idle time
 *    (libuv `uv__io_poll` with `UV_METRICS_IDLE_TIME`). So when the loop has not waited for input since
 *    a grab request, the first reads after it drain data that may all have been in the pipe at the
 *    request: their frames are stamped as complete before it. (Only the first reads: what the pipe held
 *    is read in one go, and a loop that never idles must not starve grabs.)
 */

/** One frame as read, before stamping. */
export interface Arrival {
  /** Clock time at which the reader had the whole frame. */
  readMs: number;
}

export interface BurstFacts {
  /** Minimum spacing of completions at the camera (ms): one frame period. */
  periodMs: number;
  /** Clock time now (the end of the burst). */
  nowMs: number;
  /** Bytes of a further frame are already in: it was complete by now. */
  successorPending: boolean;
  /** A grab request these frames may all have been waiting behind (rule 3), if any. */
  turnRequestMs: number | null;
}

/** Stamps (completion at the latest) for one burst of frames read in one loop turn, in stream order. */
export function stampBurst(arrivals: readonly Arrival[], facts: BurstFacts): number[] {
  const stamps = new Array<number>(arrivals.length);
  let next = facts.successorPending ? facts.nowMs : Number.POSITIVE_INFINITY;
  for (let i = arrivals.length - 1; i >= 0; i--) {
    let stamp = Math.min(arrivals[i]?.readMs ?? facts.nowMs, next - facts.periodMs);
    if (facts.turnRequestMs !== null) stamp = Math.min(stamp, facts.turnRequestMs - 1);
    stamps[i] = stamp;
    next = stamp;
  }
  return stamps;
}
