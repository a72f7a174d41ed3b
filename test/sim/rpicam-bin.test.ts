import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { spawnProjectBin, splitJpegs, tempConfig, waitFor } from "../helpers/process.js";

/**
 * The rpicam stand-ins as real executables: the byte stream a camera driver reads from
 * `rpicam-vid --codec mjpeg -o -` on a Pi.
 */
describe("rpicam-vid stand-in executable", () => {
  it("streams ≥10 valid JPEG frames of the configured size on stdout", async () => {
    const { configPath } = tempConfig("sim: { camera: { noise: 1 } }\n");
    const proc = spawnProjectBin(
      "bin/sim/rpicam-vid",
      [
        "--codec",
        "mjpeg",
        "-o",
        "-",
        "--width",
        "640",
        "--height",
        "480",
        "--framerate",
        "30",
        "-t",
        "0",
        "-n",
      ],
      { PICLAW_CONFIG: configPath, PICLAW_SIM_SOCKET: "" },
    );
    const chunks: Buffer[] = [];
    proc.child.stdout?.on("data", (c: Buffer) => chunks.push(c));
    await waitFor(
      () => (splitJpegs(Buffer.concat(chunks)).length >= 11 ? true : undefined),
      "11 frames",
      60_000,
    );
    proc.child.kill("SIGTERM");
    const { code, signal } = await proc.exit;
    expect(code === 0 || signal === "SIGTERM").toBe(true);
    const frames = splitJpegs(Buffer.concat(chunks));
    expect(frames.length).toBeGreaterThanOrEqual(10);
    for (const frame of frames.slice(0, 10)) {
      const { width, height, format } = await sharp(frame).metadata();
      expect({ width, height, format }).toEqual({ width: 640, height: 480, format: "jpeg" });
      const { channels } = await sharp(frame).stats();
      expect(channels[0]?.stdev ?? 0).toBeGreaterThan(5); // a real picture, not a flat fill
    }
    expect(proc.stderr()).not.toContain("ERROR");
  });

  it("rejects an unknown flag with a non-zero exit and a message on stderr", async () => {
    const proc = spawnProjectBin("bin/sim/rpicam-vid", ["--codec", "mjpeg", "--bogus", "-o", "-"], {
      PICLAW_SIM_SOCKET: "",
    });
    const { code } = await proc.exit;
    expect(code).not.toBe(0);
    expect(proc.stderr()).toMatch(/bogus/);
    expect(proc.stdout()).toBe("");
  });
});

describe("rpicam stand-ins attached to a running daemon", () => {
  it("rpicam-still grabs the daemon's live phone through the control socket", async () => {
    const { dir, configPath } = tempConfig((d) => `stateDir: ${d}\nserver: { port: 0 }\n`);
    const daemon = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath]);
    try {
      // The control socket is all this needs; "ready" also waits for the start-up calibration (20–35 s
      // on a loaded 2-core box), which is not what this test is about.
      await waitFor(
        () => (daemon.stdout().includes('"msg":"simulator control socket ready"') ? true : undefined),
        "the simulator's control socket",
      );
      const still = spawnProjectBin(
        "bin/sim/rpicam-still",
        ["--immediate", "-o", "-", "--width", "800", "--height", "600", "--shutter", "20000", "--gain", "2"],
        { PICLAW_SIM_SOCKET: `${dir}/run/sim.sock` },
      );
      const chunks: Buffer[] = [];
      still.child.stdout?.on("data", (c: Buffer) => chunks.push(c));
      const { code } = await still.exit;
      expect(still.stderr()).not.toContain("ERROR");
      expect(code).toBe(0);
      const frames = splitJpegs(Buffer.concat(chunks));
      expect(frames).toHaveLength(1);
      expect(await sharp(frames[0]).metadata()).toMatchObject({ width: 800, height: 600 });
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exit;
    }
  });
});
