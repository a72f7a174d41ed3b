import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RpicamVidCamera } from "../../src/camera/rpicam-vid.js";
import { systemClock } from "../../src/util/clock.js";
import { cameraConfig, capturingLog, eventually, type FakeRpicam, fakeRpicam } from "./helpers.js";

/**
 * The start-up and stall watchdogs judge progress, not wall time alone (issue 16: at load ~8 the
 * simulated camera's stand-in was killed while rendering its first frame, and every restart began
 * again from nothing). A program that keeps using CPU gets more time, up to ten periods; an idle one
 * is killed after one. The fakes spin or idle for wall-clock spans; nothing here depends on how fast
 * this machine is.
 */
describe("RpicamVidCamera watchdog: progress, not wall time", () => {
  let fake: FakeRpicam;
  let camera: RpicamVidCamera | null = null;
  beforeEach(async () => {
    fake = await fakeRpicam();
  });
  afterEach(async () => {
    await camera?.stop();
    camera = null;
    fake.cleanup();
  });
  const base = { restartMinMs: 50, restartMaxMs: 400, stopGraceMs: 500, grabTimeoutMs: 60_000 };

  it("a program busy for three start-up timeouts before its first frame is waited for, not killed", async () => {
    const captured = capturingLog();
    camera = new RpicamVidCamera(cameraConfig({ ...base, startupTimeoutMs: 1000, vidBinary: fake.binary }), {
      clock: systemClock,
      log: captured.log,
      env: fake.env({ FAKE_BUSY_FIRST_MS: "3000" }),
    });
    await camera.start();
    const frame = await camera.grab();
    expect(frame.jpeg.equals(fake.jpeg)).toBe(true);
    expect(camera.status().restarts).toBe(0);
    expect(fake.pids()).toHaveLength(1);
    const waited = captured.lines.filter((l) => l.msg === "rpicam-vid slow but busy; waiting for its frame");
    expect(waited.length).toBeGreaterThanOrEqual(1);
    expect(waited[0]).toMatchObject({ why: "no frame after start" });
    expect(Number(waited[0]?.cpuMs)).toBeGreaterThanOrEqual(10);
  }, 90_000);

  it("a program that spins without ever giving a frame is killed after at most ten periods", async () => {
    const captured = capturingLog();
    camera = new RpicamVidCamera(cameraConfig({ ...base, startupTimeoutMs: 200, vidBinary: fake.binary }), {
      clock: systemClock,
      log: captured.log,
      env: fake.env({ FAKE_BUSY_FIRST_MS: "1000000" }),
    });
    await camera.start();
    await eventually(
      () => (camera?.status().restarts ?? 0) >= 1,
      "a restart of the spinning program",
      60_000,
    );
    const killed = captured.lines.find((l) => l.msg === "rpicam-vid stalled; killing it");
    expect(killed).toMatchObject({ why: "no frame after start" });
    expect(Number(killed?.afterMs)).toBeLessThanOrEqual(10 * 200);
  }, 90_000);

  it("time this process was blocked does not count against the program", async () => {
    // The stand-in's frames come from scene snapshots the daemon serves: a daemon blocked for 2 s
    // starves the stand-in, and that is not the camera's failure.
    const captured = capturingLog();
    camera = new RpicamVidCamera(cameraConfig({ ...base, stallTimeoutMs: 600, vidBinary: fake.binary }), {
      clock: systemClock,
      log: captured.log,
      env: fake.env({ FAKE_FRAMES: "2", FAKE_HANG: "1" }),
    });
    await camera.start();
    await camera.grab();
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        for (const end = Date.now() + 2000; Date.now() < end; ) {
          // blocked: 3× the stall timeout
        }
        resolve();
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    const killed = () => captured.lines.some((l) => l.msg === "rpicam-vid stalled; killing it");
    expect(killed()).toBe(false);
    // The program really is idle: it is killed once the loop has been free for the stall period.
    await eventually(killed, "the stall verdict", 60_000);
  }, 90_000);

  it("a stream that goes idle (no CPU, no frames) is killed after one stall period", async () => {
    const captured = capturingLog();
    camera = new RpicamVidCamera(cameraConfig({ ...base, stallTimeoutMs: 2000, vidBinary: fake.binary }), {
      clock: systemClock,
      log: captured.log,
      env: fake.env({ FAKE_FRAMES: "3", FAKE_HANG: "1" }),
    });
    await camera.start();
    await camera.grab();
    await eventually(() => (camera?.status().restarts ?? 0) >= 1, "a restart after the stall", 60_000);
    const killed = captured.lines.find((l) => l.msg === "rpicam-vid stalled; killing it");
    expect(killed).toMatchObject({ why: "frames stopped", afterMs: 2000 });
  }, 90_000);
});
