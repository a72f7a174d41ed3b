import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rpicamStillArgs, rpicamVidArgs } from "../../src/camera/options.js";
import { RpicamStillCamera } from "../../src/camera/rpicam-still.js";
import { RpicamVidCamera } from "../../src/camera/rpicam-vid.js";
import { parseRpicamArgs } from "../../src/sim/camera/rpicam-args.js";
import { systemClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";
import { rejection } from "../helpers/errors.js";
import { cameraConfig, capturingLog, eventually, type FakeRpicam, fakeRpicam, isRunning } from "./helpers.js";

/**
 * The rpicam-vid driver against throwaway "rpicam-vid" scripts that misbehave on purpose: crashes,
 * stalls, garbage, a missing program, SIGTERM ignored. Timings are shortened by config; no assertion
 * depends on how fast this machine is (generous timeouts, behaviour checked through status and logs).
 */

describe("camera command lines", () => {
  it("use only flags the rpicam apps (and the stand-ins) accept, with the configured values", () => {
    const c = cameraConfig({ width: 1280, height: 720, framerate: 50, quality: 70 });
    const vid = parseRpicamArgs("vid", rpicamVidArgs(c));
    expect(vid).toMatchObject({
      codec: "mjpeg",
      output: "-",
      timeoutMs: 0,
      width: 1280,
      height: 720,
      framerate: 50,
      quality: 70,
      shutterUs: 10_000,
      gain: 2,
      awbGains: [1.9, 1.6],
      lensPosition: 5.5,
    });
    const still = parseRpicamArgs("still", rpicamStillArgs(c));
    expect(still).toMatchObject({
      immediate: true,
      output: "-",
      width: 1280,
      height: 720,
      shutterUs: 10_000,
    });
  });

  it("leave controls on auto when set to null", () => {
    const c = cameraConfig({ shutterUs: null, gain: null, awbGains: null, lensPosition: null });
    const vid = parseRpicamArgs("vid", rpicamVidArgs(c));
    expect(vid).toMatchObject({
      shutterUs: undefined,
      gain: undefined,
      awbGains: undefined,
      lensPosition: undefined,
    });
  });
});

describe("RpicamVidCamera with misbehaving programs", () => {
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

  const fast = {
    restartMinMs: 50,
    restartMaxMs: 400,
    // Roomy, so a loaded machine does not trip them where a test does not mean to.
    startupTimeoutMs: 5000,
    stallTimeoutMs: 2000,
    stopGraceMs: 500,
    grabTimeoutMs: 10_000,
  };

  it("delivers the program's frames, passes the configured flags, and stop() leaves no process", async () => {
    const argvFile = join(fake.dir, "argv.json");
    const config = cameraConfig({ ...fast, vidBinary: fake.binary, width: 96, height: 64 });
    camera = new RpicamVidCamera(config, {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_ARGV_FILE: argvFile }),
    });
    await camera.start();
    const first = await camera.grab();
    expect(first.jpeg.equals(fake.jpeg)).toBe(true);
    expect(first).toMatchObject({ width: 96, height: 64 });
    const second = await camera.grab();
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(JSON.parse(readFileSync(argvFile, "utf8"))).toEqual(rpicamVidArgs(config));
    const pid = camera.status().pid;
    expect(pid).not.toBeNull();
    await camera.stop();
    expect(isRunning(pid ?? -1)).toBe(false);
    expect(camera.status()).toMatchObject({ running: false, pid: null });
    expect((await rejection(camera.grab())).code).toBe("CAMERA_NOT_STARTED");
  });

  it("restarts a program that exits and delivers again; the exit's stderr is in the status and log", async () => {
    const captured = capturingLog();
    camera = new RpicamVidCamera(cameraConfig({ ...fast, restartMinMs: 200, vidBinary: fake.binary }), {
      clock: systemClock,
      log: captured.log,
      env: fake.env({ FAKE_FRAMES: "5", FAKE_EXIT_CODE: "3", FAKE_DEATH: "ERROR: *** sensor lost ***\n" }),
    });
    await camera.start();
    const before = await camera.grab();
    await eventually(() => camera?.status().lastExit !== null, "the first exit");
    const crashedAt = camera.status().lastExit?.atMs ?? 0;
    const after = await camera.grab({ newerThanMs: crashedAt });
    const recoveryMs = after.atMs - crashedAt;
    process.stdout.write(`rpicam-vid (fake, 96×64): frame again ${recoveryMs} ms after the exit\n`);
    expect(after.seq).toBeGreaterThan(before.seq);
    expect(fake.pids().length).toBeGreaterThanOrEqual(2);
    expect(camera.status().lastExit).toMatchObject({ code: 3 });
    expect(camera.status().lastExit?.stderrTail).toContain("sensor lost");
    const warn = captured.lines.find((l) => l.msg === "rpicam-vid exited; restarting" && l.code === 3);
    expect(warn).toMatchObject({ code: 3, restartInMs: 200 });
    expect(String(warn?.stderrTail)).toContain("sensor lost");
  });

  it("backs off exponentially while the program keeps failing, up to the cap", async () => {
    const captured = capturingLog();
    camera = new RpicamVidCamera(cameraConfig({ ...fast, vidBinary: fake.binary }), {
      clock: systemClock,
      log: captured.log,
      env: fake.env({ FAKE_FRAMES: "0", FAKE_INTERVAL_MS: "1" }),
    });
    await camera.start();
    const delays = () =>
      captured.lines.filter((l) => l.msg === "rpicam-vid exited; restarting").map((l) => l.restartInMs);
    await eventually(() => delays().length >= 6, "six failures", 20_000);
    expect(delays().slice(0, 6)).toEqual([50, 100, 200, 400, 400, 400]);
    const err = await rejection(camera.grab({ timeoutMs: 300 }));
    expect(err.code).toBe("CAMERA_TIMEOUT");
    // The running process's tail, or (when a restart has just begun, as at load ~25) the last exit's.
    const lastExit = err.details.lastExit as { stderrTail?: string } | null;
    expect(`${String(err.details.stderrTail)}\n${lastExit?.stderrTail ?? ""}`).toContain("fake camera died");
  });

  it("a loop blocked past the stall timeout reads the frames waiting in the pipe before judging a stall", async () => {
    // Issue 16: after a long synchronous block the timer phase runs before the poll phase, so the
    // stall watchdog used to fire while frames sat unread in the pipe, and killed a healthy camera.
    camera = new RpicamVidCamera(cameraConfig({ ...fast, stallTimeoutMs: 400, vidBinary: fake.binary }), {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_INTERVAL_MS: "20" }),
    });
    await camera.start();
    await camera.grab();
    for (let i = 0; i < 3; i++) {
      const seq = camera.status().frames;
      const end = Date.now() + 1200; // three times the stall timeout, as a daemon deep in work
      while (Date.now() < end) {
        // busy: the fake keeps writing frames into the pipe meanwhile
      }
      await eventually(() => (camera?.status().frames ?? 0) > seq, "frames read after the block");
    }
    expect(camera.status().restarts).toBe(0);
  });

  it("restarts a program whose frames stop (stall) and delivers again", async () => {
    camera = new RpicamVidCamera(cameraConfig({ ...fast, stallTimeoutMs: 400, vidBinary: fake.binary }), {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_FRAMES: "3", FAKE_HANG: "1" }),
    });
    await camera.start();
    const first = await camera.grab();
    const firstPid = camera.status().pid;
    await eventually(() => (camera?.status().restarts ?? 0) >= 1, "a restart after the stall");
    const later = await camera.grab({ newerThanMs: systemClock.now() });
    expect(later.seq).toBeGreaterThan(first.seq);
    expect(camera.status().pid).not.toBe(firstPid);
    expect(isRunning(firstPid ?? -1)).toBe(false);
  });

  it("fails with CAMERA_TIMEOUT on garbage-only output, then recovers once real frames come", async () => {
    const goodFlag = join(fake.dir, "good");
    camera = new RpicamVidCamera(cameraConfig({ ...fast, startupTimeoutMs: 500, vidBinary: fake.binary }), {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_GARBAGE_UNTIL: goodFlag }),
    });
    await camera.start();
    const err = await rejection(camera.grab({ timeoutMs: 1200 }));
    expect(err.code).toBe("CAMERA_TIMEOUT");
    expect(err.message).toMatch(/no camera frame/);
    expect(err.details).toMatchObject({ timeoutMs: 1200, lastFrameAtMs: null });
    expect(Number(err.details.discardedBytes)).toBeGreaterThan(0);
    expect(camera.status().frames).toBe(0);
    writeFileSync(goodFlag, "");
    const frame = await camera.grab();
    expect(frame.jpeg.equals(fake.jpeg)).toBe(true);
    expect(await sharp(frame.jpeg).metadata()).toMatchObject({ width: 96, height: 64 });
  });

  it("rejects start() with CAMERA_BINARY_MISSING when the program does not exist", async () => {
    const missing = join(fake.dir, "no-such-rpicam-vid");
    camera = new RpicamVidCamera(cameraConfig({ ...fast, vidBinary: missing }), {
      clock: systemClock,
      log: quietLog(),
    });
    const err = await rejection(camera.start());
    expect(err.code).toBe("CAMERA_BINARY_MISSING");
    expect(err.message).toContain(missing);
    expect(err.details).toMatchObject({ binary: missing, errno: "ENOENT" });
    expect((await rejection(camera.grab())).code).toBe("CAMERA_NOT_STARTED");
    const bare = new RpicamVidCamera(cameraConfig({ vidBinary: "piclaw-no-such-rpicam-vid" }), {
      clock: systemClock,
      log: quietLog(),
    });
    expect((await rejection(bare.start())).code).toBe("CAMERA_BINARY_MISSING");
  });

  it("fails pending grabs with CAMERA_BINARY_MISSING when the program vanishes between restarts", async () => {
    camera = new RpicamVidCamera(cameraConfig({ ...fast, vidBinary: fake.binary }), {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_FRAMES: "2" }),
    });
    await camera.start();
    await camera.grab();
    fake.cleanup(); // removes the script: the next restart cannot spawn it
    const err = await rejection(camera.grab({ newerThanMs: systemClock.now() + 60_000 }));
    expect(err.code).toBe("CAMERA_BINARY_MISSING");
  });

  it("SIGKILLs a program that ignores SIGTERM, and kills what a wrapper script started", async () => {
    camera = new RpicamVidCamera(cameraConfig({ ...fast, stopGraceMs: 300, vidBinary: fake.wrapper }), {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_IGNORE_TERM: "1" }),
    });
    await camera.start();
    await camera.grab();
    const wrapperPid = camera.status().pid ?? -1;
    const [scriptPid] = fake.pids();
    expect(scriptPid).toBeDefined();
    expect(isRunning(scriptPid ?? -1)).toBe(true);
    await camera.stop();
    expect(isRunning(wrapperPid)).toBe(false);
    await eventually(() => !isRunning(scriptPid ?? -1), "the wrapped program to be gone", 3000);
  });

  it("fails a waiting grab with CAMERA_STOPPED when stopped", async () => {
    camera = new RpicamVidCamera(cameraConfig({ ...fast, vidBinary: fake.binary }), {
      clock: systemClock,
      log: quietLog(),
      env: fake.env({ FAKE_FRAMES: "0", FAKE_HANG: "1" }),
    });
    await camera.start();
    const waiting = rejection(camera.grab());
    await camera.stop();
    expect((await waiting).code).toBe("CAMERA_STOPPED");
  });
});

describe("RpicamStillCamera with misbehaving programs", () => {
  it("reports a failing rpicam-still with its exit code and stderr; a missing one at start()", async () => {
    const fake = await fakeRpicam();
    try {
      const failing = join(fake.dir, "failing-still.sh");
      writeFileSync(failing, "#!/bin/sh\necho 'ERROR: *** no cameras available ***' >&2\nexit 255\n", {
        mode: 0o755,
      });
      const camera = new RpicamStillCamera(cameraConfig({ stillBinary: failing }), {
        clock: systemClock,
        log: quietLog(),
      });
      await camera.start();
      const err = await rejection(camera.grab());
      expect(err.code).toBe("CAMERA_CAPTURE_FAILED");
      expect(err.message).toContain("no cameras available");
      expect(err.details).toMatchObject({ code: 255 });
      await camera.stop();
      const missing = new RpicamStillCamera(cameraConfig({ stillBinary: join(fake.dir, "nope") }), {
        clock: systemClock,
        log: quietLog(),
      });
      expect((await rejection(missing.start())).code).toBe("CAMERA_BINARY_MISSING");
      expect(existsSync(join(fake.dir, "nope"))).toBe(false);
    } finally {
      fake.cleanup();
    }
  });
});
