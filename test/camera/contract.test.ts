import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Camera } from "../../src/camera/camera.js";
import type { CameraConfig } from "../../src/camera/options.js";
import { RpicamStillCamera } from "../../src/camera/rpicam-still.js";
import { RpicamVidCamera } from "../../src/camera/rpicam-vid.js";
import type { CaptureSettings } from "../../src/sim/camera/options.js";
import { systemClock } from "../../src/util/clock.js";
import { FakeCamera } from "../fakes/camera.js";
import { quietLog } from "../fakes/log.js";
import { rejection } from "../helpers/errors.js";
import { cameraConfig, SIM_STILL, SIM_VID, type SimBench, startSimBench } from "./helpers.js";

/**
 * One contract for every camera: the rpicam-vid and rpicam-still drivers spawning the simulator's
 * stand-in executables (attached to a simulated rig running in this process through its control
 * socket, as the daemon runs it), and the fake fed by the same simulated camera directly.
 */
// Generous grab timeout: each rpicam-still run starts a Node process, slow on a loaded 2-core machine.
const config = cameraConfig({
  vidBinary: SIM_VID,
  stillBinary: SIM_STILL,
  width: 640,
  height: 360,
  grabTimeoutMs: 30_000,
});

/** The capture settings the config's command lines give the stand-ins, for the fake's source. */
function settingsOf(c: CameraConfig): CaptureSettings {
  const s: CaptureSettings = { width: c.width, height: c.height, quality: c.quality };
  if (c.shutterUs !== null) s.shutterUs = c.shutterUs;
  if (c.gain !== null) s.gain = c.gain;
  if (c.awbGains !== null) s.awbGains = c.awbGains;
  if (c.lensPosition !== null) s.lensPosition = c.lensPosition;
  return s;
}

let bench: SimBench;
beforeAll(async () => {
  bench = await startSimBench();
}, 60_000);
afterAll(() => bench.stop());

const cameras: [string, () => Camera][] = [
  [
    "rpicam-vid driver + stand-in",
    () => new RpicamVidCamera(config, { clock: systemClock, log: quietLog(), env: bench.env }),
  ],
  [
    "rpicam-still driver + stand-in",
    () => new RpicamStillCamera(config, { clock: systemClock, log: quietLog(), env: bench.env }),
  ],
  [
    "fake camera on the simulated camera",
    () =>
      new FakeCamera({
        source: () => bench.rig.camera.capture(settingsOf(config)),
        clock: systemClock,
        grabTimeoutMs: config.grabTimeoutMs,
      }),
  ],
];

/** Mean luma of the middle of the frame, where the phone's screen is. */
async function screenLuma(jpeg: Buffer): Promise<number> {
  const { width = 0, height = 0 } = await sharp(jpeg).metadata();
  const region = {
    left: Math.round(width * 0.35),
    top: Math.round(height * 0.35),
    width: Math.round(width * 0.3),
    height: Math.round(height * 0.3),
  };
  const { channels } = await sharp(jpeg).extract(region).greyscale().stats();
  return channels[0]?.mean ?? 0;
}

describe.each(cameras)("camera contract: %s", (_name, make) => {
  let camera: Camera;
  beforeAll(async () => {
    camera = make();
    await camera.start();
  }, 60_000);
  afterAll(() => camera.stop());

  it("rejects a grab before start() with CAMERA_NOT_STARTED", async () => {
    expect((await rejection(make().grab())).code).toBe("CAMERA_NOT_STARTED");
  });

  it("grabs JPEG frames of the configured size that show a picture", async () => {
    const frame = await camera.grab();
    const meta = await sharp(frame.jpeg).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: "jpeg",
      width: 640,
      height: 360,
    });
    expect({ width: frame.width, height: frame.height }).toEqual({ width: 640, height: 360 });
    const { channels } = await sharp(frame.jpeg).stats();
    expect(channels[0]?.stdev ?? 0).toBeGreaterThan(5);
  });

  it("each grab returns a new frame completed after the call, seq increasing", async () => {
    let previous = await camera.grab();
    for (let i = 0; i < 3; i++) {
      const askedAt = systemClock.now();
      const frame = await camera.grab();
      expect(frame.atMs).toBeGreaterThanOrEqual(askedAt);
      expect(frame.seq).toBeGreaterThan(previous.seq);
      previous = frame;
    }
  });

  it("waits for a frame newer than a future newerThanMs", async () => {
    const after = systemClock.now() + 300;
    const frame = await camera.grab({ newerThanMs: after });
    expect(frame.atMs).toBeGreaterThanOrEqual(after);
  });

  it("a frame grabbed right after the screen changes shows the change", async () => {
    const phone = bench.rig.phone;
    const lumas: number[] = [];
    for (let i = 0; i < 4; i++) {
      phone.pressSideButton(); // on → off (black glass), off → on (lock screen)
      lumas.push(await screenLuma((await camera.grab()).jpeg));
    }
    // After four presses the screen is as it began: if on, frames 0 and 2 show it off, 1 and 3 on.
    const beganOn = phone.truth().screen !== "off";
    const [a = 0, b = 0, c = 0, d = 0] = lumas;
    const [off, on] = beganOn
      ? [
          [a, c],
          [b, d],
        ]
      : [
          [b, d],
          [a, c],
        ];
    // The lock screen's dark wallpaper is ~12 levels above black glass; same-state frames differ by <0.1.
    for (const x of off) for (const y of on) expect(y - x, `lumas ${lumas.join(", ")}`).toBeGreaterThan(5);
  });

  it("concurrent grabs all resolve with frames completed after the call", async () => {
    const askedAt = systemClock.now();
    const frames = await Promise.all([camera.grab(), camera.grab(), camera.grab()]);
    for (const f of frames) {
      expect(f.atMs).toBeGreaterThanOrEqual(askedAt);
      expect((await sharp(f.jpeg).metadata()).width).toBe(640);
    }
  });

  it("after stop(), grabs reject with CAMERA_NOT_STARTED", async () => {
    const other = make();
    await other.start();
    await other.grab();
    await other.stop();
    expect((await rejection(other.grab())).code).toBe("CAMERA_NOT_STARTED");
    await other.stop(); // twice is harmless
  });
});
