import { processLogger } from "../log/logger.js";
import { type FrameSource, runRpicam, SnapshotFrameSource } from "../sim/camera/index.js";
import { SimControlClient } from "../sim/control.js";
import { SimRig } from "../sim/rig.js";
import { systemClock } from "../util/clock.js";
import { errorMessage } from "../util/errors.js";
import { sleep } from "../util/sleep.js";
import { loadConfig } from "./config/load.js";

/**
 * Process entry of the `rpicam-vid` / `rpicam-still` stand-ins. With `PICLAW_SIM_SOCKET` set (the
 * daemon logs it) frames show the daemon's live simulated rig: the daemon hands over a scene snapshot per
 * frame and the frame is rendered here, so a busy daemon costs a late snapshot, not a stalled render on
 * its event loop (and rendering never competes with the daemon's own work there); otherwise the stand-in builds its
 * own rig from the config (`PICLAW_CONFIG`), like a camera looking at a phone nobody touches.
 */
export async function rpicamMain(mode: "vid" | "still", argv: string[]): Promise<number> {
  const log = processLogger("warn", "human", process.env, process.stderr);
  let rig: SimRig | null = null;
  let source: FrameSource;
  try {
    const socket = process.env.PICLAW_SIM_SOCKET;
    if (socket) {
      const client = new SimControlClient(socket);
      source = new SnapshotFrameSource((query) => client.scene(query));
    } else {
      const loaded = loadConfig({ env: process.env, cwd: process.cwd() });
      rig = SimRig.fromConfig(loaded.config, {
        clock: systemClock,
        log: log.child("sim"),
        cwd: process.cwd(),
      });
      await rig.start();
      source = rig.camera;
    }
  } catch (err) {
    process.stderr.write(`ERROR: *** ${errorMessage(err)} ***\n`);
    return 1;
  }
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await runRpicam(mode, argv, {
      source,
      stdout: process.stdout,
      stderr: process.stderr,
      sleep,
      now: () => systemClock.now(),
      signal: abort.signal,
    });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await rig?.stop();
  }
}
