import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { PiclawError } from "../../util/errors.js";
import { projectRoot } from "../../util/paths.js";
import type { CaptureSettings } from "./options.js";
import { encodeSnapshot, type SnapshotFetch } from "./scene-snapshot.js";

/**
 * Renders camera frames of a world owned by this thread in a `worker_threads` Worker: each capture asks
 * the world for a scene snapshot (cheap here: no rendering, no encoding) and the worker renders and
 * encodes the JPEG, so a full-size frame never blocks this event loop. Same frames as `SimRig.captureFrame`
 * (the worker runs `SnapshotFrameSource`, as the rpicam stand-in does in its own process).
 *
 * Contract: `start()` before `capture()`; `stop()` terminates the worker and rejects captures in flight
 * with `SIM_UNAVAILABLE`; a worker that dies is restarted by the next `capture()`.
 */
export class FrameWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly scene: SnapshotFetch,
    /** The worker's entry file; default: `frame-worker.js` beside this module (or under dist/ from sources). */
    private readonly entry: string = defaultEntry(),
  ) {}

  start(): void {
    if (this.worker) return;
    const worker = new Worker(this.entry);
    worker.on("message", (msg: Outbound) => this.onMessage(worker, msg));
    worker.on("error", (err) => this.fail(worker, err.message));
    worker.on("exit", (code) => this.fail(worker, `frame worker exited (${code})`));
    this.worker = worker;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    this.rejectAll("the frame renderer stopped");
    await worker.terminate();
  }

  /** One JPEG frame of the world as it is when the worker asks for its snapshot. */
  capture(settings: CaptureSettings): Promise<Buffer> {
    this.start();
    const worker = this.worker;
    if (!worker) throw new PiclawError("SIM_UNAVAILABLE", "the frame renderer is not running");
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: "capture", id, settings });
    });
  }

  private onMessage(worker: Worker, msg: Outbound): void {
    if (msg.kind === "scene") {
      this.scene(msg.query).then(
        (snap) => {
          const wire = encodeSnapshot(snap);
          // encodeSnapshot concatenates into a fresh buffer, but small ones share Node's pool: copy those.
          const body =
            wire.byteOffset === 0 && wire.byteLength === wire.buffer.byteLength
              ? (wire.buffer as ArrayBuffer)
              : new Uint8Array(wire).buffer;
          worker.postMessage({ kind: "scene", id: msg.id, body }, [body]);
        },
        (err: unknown) =>
          worker.postMessage({
            kind: "scene",
            id: msg.id,
            error: err instanceof Error ? err.message : String(err),
          }),
      );
      return;
    }
    const waiting = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    if (!waiting) return;
    if (msg.kind === "frame")
      waiting.resolve(Buffer.from(msg.jpeg.buffer, msg.jpeg.byteOffset, msg.jpeg.byteLength));
    else waiting.reject(new PiclawError("SIM_UNAVAILABLE", `frame render failed: ${msg.message}`));
  }

  /** The worker died or erred: its captures will never answer; the next capture starts a new one. */
  private fail(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.rejectAll(why);
  }

  private rejectAll(why: string): void {
    for (const p of this.pending.values()) p.reject(new PiclawError("SIM_UNAVAILABLE", why));
    this.pending.clear();
  }
}

type Outbound =
  | { kind: "scene"; id: number; query: Parameters<SnapshotFetch>[0] }
  | { kind: "frame"; id: number; jpeg: Uint8Array }
  | { kind: "error"; id: number; message: string };

/**
 * The compiled entry beside this module; when this module runs from sources (vitest), the compiled
 * one under dist/ (so such tests need `npm run build`, like those spawning `bin/piclaw.js`).
 */
function defaultEntry(): string {
  const here = fileURLToPath(new URL("./frame-worker.js", import.meta.url));
  if (existsSync(here)) return here;
  return join(projectRoot(), "dist", "src", "sim", "camera", "frame-worker.js");
}
