import type { IncomingMessage } from "node:http";
import { RateLimiter } from "../http/rate-limit.js";
import { type HttpReply, json, type Routes } from "../http/server.js";
import type { FrameWorker } from "../sim/camera/index.js";
import type { SimConfig } from "../sim/config.js";
import { SimControlServer } from "../sim/control.js";
import type { SimRig } from "../sim/rig.js";
import type { Clock } from "../util/clock.js";

/** Requests per minute per client address, per `/sim/*` route (each full-size frame costs a render). */
export const SIM_ROUTE_PER_MINUTE = 30;

export interface SimRoutesDeps {
  rig: SimRig;
  /** Renders `/sim/frame.jpg` off this event loop (the daemon starts and stops it). */
  frames: FrameWorker;
  camera: Pick<SimConfig["camera"], "width" | "height">;
  clock: Clock;
  /** Default `SIM_ROUTE_PER_MINUTE`; 0 disables the limit. */
  perMinute?: number;
}

/**
 * The simulated rig's peek routes on the public server: the phone's screen, a camera frame and the
 * ground truth. The frame is rendered in a worker thread — four concurrent full-size frames rendered
 * here blocked `/healthz` for 5 s (issue 19 item 3) — and each route is rate-limited per client address,
 * 429 beyond (each route its own bucket, so peeking at the screen does not starve the frame).
 */
export function simRoutes(deps: SimRoutesDeps): Routes {
  const { rig, frames, camera } = deps;
  const limiter = new RateLimiter(deps.perMinute ?? SIM_ROUTE_PER_MINUTE, deps.clock);
  const limited =
    (path: string, handler: (req: IncomingMessage, url: URL) => Promise<HttpReply>) =>
    async (req: IncomingMessage, url: URL): Promise<HttpReply> => {
      const wait = limiter.take(`${path} ${req.socket.remoteAddress ?? "?"}`);
      if (wait !== null) {
        return json(
          {
            error: {
              code: "RATE_LIMITED",
              message: `too many ${path} requests; try again in ${wait} s`,
              retryAfterS: wait,
            },
          },
          429,
        );
      }
      return handler(req, url);
    };
  return {
    "/sim/screen.png": limited("/sim/screen.png", async () => ({
      contentType: "image/png",
      body: await rig.screenshot(),
    })),
    // Settings are parsed here, so a bad query is a 400 before any render is queued.
    "/sim/frame.jpg": limited("/sim/frame.jpg", async (_req, url) => ({
      contentType: "image/jpeg",
      body: await frames.capture(SimControlServer.settingsFromQuery(url, camera)),
    })),
    "/sim/truth.json": limited("/sim/truth.json", async () => json(rig.truth())),
  };
}
