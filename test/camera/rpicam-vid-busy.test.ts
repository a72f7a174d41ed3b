import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpicamVidCamera } from "../../src/camera/rpicam-vid.js";
import { systemClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";
import { cameraConfig, SIM_VID, type SimBench, startSimBench } from "./helpers.js";

/** Keep this thread's event loop busy for `ms`, as a daemon deep in synchronous work does. */
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
}

/**
 * Issue 16: the stand-in rendered nothing itself, so a daemon whose event loop was busy looked like a
 * dead camera. Now it renders from scene snapshots in its own process; a blocked loop delays
 * snapshots by the block, no more. The stream runs as the daemon runs it (full size, 10 fps).
 */
describe("RpicamVidCamera on the simulated rig while the world's event loop is blocked", () => {
  let bench: SimBench;
  beforeAll(async () => {
    bench = await startSimBench();
  }, 60_000);
  afterAll(() => bench.stop());

  it("grabs through repeated 1.5 s blocks with no CAMERA_TIMEOUT and no restart", async () => {
    const camera = new RpicamVidCamera(cameraConfig({ vidBinary: SIM_VID, framerate: 10 }), {
      clock: systemClock,
      log: quietLog(),
      env: bench.env,
    });
    await camera.start();
    let busy = true;
    let blocks = 0;
    try {
      await camera.grab({ timeoutMs: 30_000 }); // the first frame (process start) may take a while
      // A daemon deep in work: 1.5 s blocked, 100 ms free, again and again, while grabs wait with the
      // daemon's timeouts (grab 5 s, stall 3 s).
      const load = (async () => {
        while (blocks < 5) {
          block(1500);
          blocks++;
          await new Promise((r) => setTimeout(r, 100));
        }
        busy = false;
      })();
      let grabs = 0;
      try {
        while (busy) {
          const asked = systemClock.now();
          const frame = await camera.grab();
          expect(frame.atMs).toBeGreaterThan(asked);
          grabs++;
        }
      } finally {
        blocks = 5;
        await load;
      }
      expect(grabs).toBeGreaterThanOrEqual(2);
      const s = camera.status();
      expect(s.restarts).toBe(0);
      expect(s.lastError).toBeNull();
    } finally {
      busy = false;
      await camera.stop();
    }
  }, 120_000);
});
