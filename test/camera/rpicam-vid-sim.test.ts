import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpicamVidCamera } from "../../src/camera/rpicam-vid.js";
import { systemClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";
import { cameraConfig, eventually, isRunning, SIM_VID, type SimBench, startSimBench } from "./helpers.js";

/** The rpicam-vid driver on the simulator's stand-in: full-size frames, and recovery from a killed camera. */
describe("RpicamVidCamera on the simulated rig", () => {
  let bench: SimBench;
  beforeAll(async () => {
    bench = await startSimBench();
  }, 60_000);
  afterAll(() => bench.stop());

  it("streams frames of the default size (2304×1296)", async () => {
    const camera = new RpicamVidCamera(cameraConfig({ vidBinary: SIM_VID }), {
      clock: systemClock,
      log: quietLog(),
      env: bench.env,
    });
    await camera.start();
    try {
      const frame = await camera.grab({ timeoutMs: 20_000 });
      expect(await sharp(frame.jpeg).metadata()).toMatchObject({ format: "jpeg", width: 2304, height: 1296 });
      expect({ width: frame.width, height: frame.height }).toEqual({ width: 2304, height: 1296 });
    } finally {
      await camera.stop();
    }
  });

  it("restarts a killed rpicam-vid and delivers a newer frame; stop() leaves no process", async () => {
    const camera = new RpicamVidCamera(
      cameraConfig({ vidBinary: SIM_VID, width: 640, height: 480, restartMinMs: 200 }),
      { clock: systemClock, log: quietLog(), env: bench.env },
    );
    await camera.start();
    try {
      const before = await camera.grab({ timeoutMs: 20_000 });
      const pid = camera.status().pid ?? -1;
      process.kill(pid, "SIGKILL");
      await eventually(() => camera.status().lastExit !== null, "the exit to be seen");
      const killedAt = camera.status().lastExit?.atMs ?? 0;
      expect(camera.status().lastExit).toMatchObject({ signal: "SIGKILL" });
      const after = await camera.grab({ newerThanMs: killedAt, timeoutMs: 20_000 });
      process.stdout.write(
        `rpicam-vid (sim, 640×480): frame again ${after.atMs - killedAt} ms after SIGKILL\n`,
      );
      expect(after.seq).toBeGreaterThan(before.seq);
      expect(camera.status().restarts).toBeGreaterThanOrEqual(1);
      expect(camera.status().running).toBe(true);
      const newPid = camera.status().pid ?? -1;
      expect(newPid).not.toBe(pid);
      await camera.stop();
      expect(isRunning(newPid)).toBe(false);
    } finally {
      await camera.stop();
    }
  });
});
