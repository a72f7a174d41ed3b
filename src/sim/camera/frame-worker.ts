import { parentPort } from "node:worker_threads";
import type { CaptureSettings } from "./options.js";
import { decodeSnapshot, SnapshotFrameSource } from "./scene-snapshot.js";

/**
 * Worker-thread entry of `FrameWorker`: renders camera frames from scene snapshots, so the JPEG render
 * and encode (hundreds of ms at full size) run here, not on the daemon's event loop.
 *
 * Protocol (see `FrameWorker` for the other side):
 * - in `{ kind: "capture", id, settings }`; out `{ kind: "frame", id, jpeg }` or `{ kind: "error", id, message }`;
 * - out `{ kind: "scene", id, query }` asks for a snapshot; in `{ kind: "scene", id, body }` (the wire
 *   form of `encodeSnapshot`, its ArrayBuffer transferred) or `{ kind: "scene", id, error }`.
 */
const port = parentPort;
if (!port) throw new Error("frame-worker must run in a worker thread");

let nextScene = 0;
const scenes = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

const source = new SnapshotFrameSource(
  (query) =>
    new Promise((resolve, reject) => {
      const id = nextScene++;
      scenes.set(id, { resolve: (body) => resolve(decodeSnapshot(body)), reject });
      port.postMessage({ kind: "scene", id, query });
    }),
);

// One capture at a time: SnapshotFrameSource keeps one camera and one screen, and interleaved captures
// would apply one snapshot and render another's settings.
let queue: Promise<unknown> = Promise.resolve();

type Inbound =
  | { kind: "capture"; id: number; settings: CaptureSettings }
  | { kind: "scene"; id: number; body?: ArrayBuffer; error?: string };

port.on("message", (msg: Inbound) => {
  if (msg.kind === "scene") {
    const waiting = scenes.get(msg.id);
    scenes.delete(msg.id);
    if (!waiting) return;
    if (msg.body) waiting.resolve(Buffer.from(msg.body));
    else waiting.reject(new Error(msg.error ?? "no scene snapshot"));
    return;
  }
  const { id, settings } = msg;
  queue = queue.then(async () => {
    try {
      const jpeg = await source.capture(settings);
      // A copy, so the cached JPEG in the source stays whole; the copy's buffer is transferred.
      const out = new Uint8Array(jpeg);
      port.postMessage({ kind: "frame", id, jpeg: out }, [out.buffer]);
    } catch (err) {
      port.postMessage({ kind: "error", id, message: err instanceof Error ? err.message : String(err) });
    }
  });
});
