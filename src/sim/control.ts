import { request } from "node:http";
import { HttpService, json } from "../http/server.js";
import type { Logger } from "../log/logger.js";
import { PiclawError } from "../util/errors.js";
import {
  type CaptureSettings,
  decodeSnapshot,
  encodeSnapshot,
  type FrameSource,
  type SceneSnapshot,
} from "./camera/index.js";
import type { SimConfig } from "./config.js";
import type { SimRig } from "./rig.js";

/**
 * The simulator's control socket: HTTP over a Unix socket in the state directory. Separate processes
 * that stand in for hardware tools (the `rpicam-vid`/`rpicam-still` stand-ins) attach here to see the
 * live simulated phone the daemon is driving, so the camera driver reads the same rig the gantry touches.
 * `/camera/scene` hands over a `SceneSnapshot` (the stand-ins render from it in their own process, off
 * this event loop); `/camera/frame` renders here (kept for tools that want one frame).
 */
export class SimControlServer {
  private readonly http: HttpService;

  constructor(rig: SimRig, log: Logger) {
    this.http = new HttpService(
      {
        "/camera/frame": async (_req, url) => ({
          contentType: "image/jpeg",
          body: await rig.captureFrame(SimControlServer.settingsFromQuery(url)),
        }),
        "/camera/scene": async (_req, url) => {
          const have = url.searchParams.get("have");
          const haveScreen = have === null || have === "" ? null : Number(have);
          return {
            contentType: "application/octet-stream",
            body: encodeSnapshot(
              await rig.sceneSnapshot({ haveScreen, setup: url.searchParams.get("setup") === "1" }),
            ),
          };
        },
        "/phone/screenshot": async () => ({ contentType: "image/png", body: await rig.screenshot() }),
        "/phone/truth": async () => json(rig.truth()),
      },
      log,
    );
  }

  start(socketPath: string): Promise<string> {
    return this.http.start({ socketPath });
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  /**
   * Capture settings from query parameters (`width`, `height`, `shutter` µs, `gain`, `awbgains=r,b`,
   * `lens` dioptres, `quality`), falling back to the configured frame size.
   */
  static settingsFromQuery(
    url: URL,
    defaults?: Pick<SimConfig["camera"], "width" | "height">,
  ): CaptureSettings {
    const q = url.searchParams;
    const num = (name: string, min: number, max: number): number | undefined => {
      const text = q.get(name);
      if (text === null || text === "") return undefined;
      const n = Number(text);
      if (!Number.isFinite(n) || n < min || n > max) {
        throw new PiclawError("BAD_REQUEST", `query parameter ${name} must be a number in ${min}…${max}`, {
          field: name,
        });
      }
      return n;
    };
    const width = num("width", 16, 8192) ?? defaults?.width ?? 2304;
    const height = num("height", 16, 8192) ?? defaults?.height ?? 1296;
    const settings: CaptureSettings = { width: Math.round(width), height: Math.round(height) };
    const shutterUs = num("shutter", 1, 10_000_000);
    const gain = num("gain", 0.5, 64);
    const lensPosition = num("lens", 0, 32);
    const quality = num("quality", 1, 100);
    if (shutterUs !== undefined) settings.shutterUs = shutterUs;
    if (gain !== undefined) settings.gain = gain;
    if (lensPosition !== undefined) settings.lensPosition = lensPosition;
    if (quality !== undefined) settings.quality = quality;
    const awb = q.get("awbgains");
    if (awb) {
      const parts = awb.split(",").map(Number);
      const [r, b] = parts;
      if (parts.length !== 2 || r === undefined || b === undefined || !(r > 0 && b > 0 && r < 32 && b < 32)) {
        throw new PiclawError("BAD_REQUEST", "query parameter awbgains must be two positive numbers r,b", {
          field: "awbgains",
        });
      }
      settings.awbGains = [r, b];
    }
    return settings;
  }
}

/** The query string for `settingsFromQuery` (the client half of the same contract). */
export function settingsToQuery(settings: CaptureSettings): string {
  const q = new URLSearchParams({ width: String(settings.width), height: String(settings.height) });
  if (settings.shutterUs !== undefined) q.set("shutter", String(settings.shutterUs));
  if (settings.gain !== undefined) q.set("gain", String(settings.gain));
  if (settings.lensPosition !== undefined) q.set("lens", String(settings.lensPosition));
  if (settings.quality !== undefined) q.set("quality", String(settings.quality));
  if (settings.awbGains) q.set("awbgains", settings.awbGains.join(","));
  return q.toString();
}

/**
 * A client of a running daemon's simulator over its control socket: whole frames rendered there
 * (`capture`, a FrameSource) or scene snapshots to render here (`scene`). Fails with `SIM_UNAVAILABLE`.
 */
export class SimControlClient implements FrameSource {
  constructor(private readonly socketPath: string) {}

  capture(settings: CaptureSettings): Promise<Buffer> {
    return this.get(`/camera/frame?${settingsToQuery(settings)}`);
  }

  async scene(query: { haveScreen: number | null; setup: boolean }): Promise<SceneSnapshot> {
    const q = new URLSearchParams();
    if (query.haveScreen !== null) q.set("have", String(query.haveScreen));
    if (query.setup) q.set("setup", "1");
    return decodeSnapshot(await this.get(`/camera/scene?${q.toString()}`));
  }

  private get(path: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const req = request({ socketPath: this.socketPath, path, method: "GET" }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode === 200) resolve(body);
          else
            reject(
              new PiclawError(
                "SIM_UNAVAILABLE",
                `simulator answered ${res.statusCode}: ${body.toString("utf8")}`,
              ),
            );
        });
        res.on("error", reject);
      });
      req.on("error", (err) =>
        reject(
          new PiclawError(
            "SIM_UNAVAILABLE",
            `cannot reach the simulator at ${this.socketPath}: ${err.message}`,
          ),
        ),
      );
      req.end();
    });
  }
}
