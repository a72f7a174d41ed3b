import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listCameras, parseCameraList } from "../../src/camera/list-cameras.js";
import { PiclawError } from "../../src/util/errors.js";
import { projectRoot } from "../../src/util/paths.js";

// As rpicam-apps core/options.cpp prints it (two cameras on a Pi 5: a Camera Module 3 and a v2).
const TWO = `Available cameras
-----------------
0 : imx708_wide [4608x2592 10-bit RGGB] (/base/axi/pcie@120000/rp1/i2c@88000/imx708@1a)
    Modes: 'SRGGB10_CSI2P' : 1536x864 [120.13 fps - (768, 432)/3072x1728 crop]
                             2304x1296 [56.03 fps - (0, 0)/4608x2592 crop]
                             4608x2592 [14.35 fps - (0, 0)/4608x2592 crop]

1 : imx219 [3280x2464 8-bit RGGB] (/base/axi/pcie@120000/rp1/i2c@80000/imx219@10)
    Modes: 'SRGGB10_CSI2P' : 640x480 [206.65 fps - (1000, 752)/1280x960 crop]
                             3280x2464 [21.19 fps - (0, 0)/3280x2464 crop]
           'SRGGB8' : 640x480 [206.65 fps - (1000, 752)/1280x960 crop]

`;

describe("parseCameraList (rpicam-hello --list-cameras)", () => {
  it("reads each camera's index, sensor, pixel array, id and modes", () => {
    const cams = parseCameraList(TWO);
    expect(cams.map((c) => [c.index, c.model])).toEqual([
      [0, "imx708_wide"],
      [1, "imx219"],
    ]);
    expect(cams[0]?.pixels).toEqual({ width: 4608, height: 2592 });
    expect(cams[0]?.id).toBe("/base/axi/pcie@120000/rp1/i2c@88000/imx708@1a");
    expect(cams[0]?.modes).toHaveLength(3);
    expect(cams[0]?.modes[1]).toEqual({ format: "SRGGB10_CSI2P", width: 2304, height: 1296, fps: 56.03 });
    expect(cams[1]?.modes.map((m) => `${m.format} ${m.width}x${m.height}`)).toEqual([
      "SRGGB10_CSI2P 640x480",
      "SRGGB10_CSI2P 3280x2464",
      "SRGGB8 640x480",
    ]);
  });

  it("finds none in 'No cameras available!' or in unrelated output", () => {
    expect(parseCameraList("No cameras available!\n")).toEqual([]);
    expect(parseCameraList("ERROR: *** no cameras available ***\n")).toEqual([]);
  });
});

describe("listCameras", () => {
  const fakeBin = join(projectRoot(), "test", "fakes", "bin");
  const env = { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` };

  it("runs the program on PATH and parses it", async () => {
    const { cameras } = await listCameras({ env, timeoutMs: 10_000 });
    expect(cameras.map((c) => c.model)).toEqual(["imx708"]);
  });

  it("says how to fix a missing program and a hung one", async () => {
    const missing = await listCameras({ binary: "/nonexistent/rpicam-hello", env, timeoutMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(PiclawError);
    expect((missing as PiclawError).details.fix).toMatch(/install rpicam-apps/);
    // A libcamera that never answers (the program is replaced by a sleep, so the kill reaches it).
    const dir = mkdtempSync(join(tmpdir(), "piclaw-rpicam-"));
    const hang = join(dir, "rpicam-hello");
    writeFileSync(hang, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
    const hung = await listCameras({ binary: hang, env, timeoutMs: 200 }).catch((e: unknown) => e);
    rmSync(dir, { recursive: true, force: true });
    expect((hung as PiclawError).message).toMatch(/did not finish within 200 ms/);
    expect((hung as PiclawError).details.fix).toMatch(/ribbon cable/);
  });
});
