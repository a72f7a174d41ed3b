import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBoardBanner, scanUsbSerial } from "../../../src/rig/grbl/detect.js";
import { openSerialPort } from "../../../src/rig/grbl/port.js";
import { startSimGrblLink } from "../../../src/sim/gantry/grbl-link.js";
import { openPtyPair } from "../../../src/sim/gantry/pty-pair.js";
import { PiclawError } from "../../../src/util/errors.js";
import { fakeUsbSerial } from "./fake-usb.js";
import { fluidncProfile, quietLog, recordingGantry } from "./helpers.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "piclaw-detect-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("scanUsbSerial (/dev/serial/by-id + sysfs USB ids)", () => {
  it("finds a CH340 behind ttyUSB (id two levels up) and an Arduino behind ttyACM (one level up)", async () => {
    const root = tempDir();
    for (const [name, kind, usbId] of [
      ["ttyUSB0", "ttyUSB", "1a86:7523"],
      ["ttyACM0", "ttyACM", "2341:0043"],
    ] as const) {
      const dev = join(root, name);
      writeFileSync(dev, "");
      fakeUsbSerial(root, { byIdName: `usb-${name}-if00`, device: dev, usbId, kind });
    }
    const found = await scanUsbSerial({
      byIdDir: join(root, "dev/serial/by-id"),
      sysRoot: join(root, "sys"),
    });
    expect(found.map((f) => [f.device.split("/").pop(), f.usbId, f.chip?.split(" ")[0]])).toEqual([
      ["ttyACM0", "2341:0043", "Arduino"],
      ["ttyUSB0", "1a86:7523", "CH340"],
    ]);
    expect(found[0]?.path).toBe(join(root, "dev/serial/by-id/usb-ttyACM0-if00"));
  });

  it("lists an unknown adapter after the known ones, and nothing when by-id does not exist", async () => {
    const root = tempDir();
    for (const [name, usbId] of [
      ["ttyUSB1", "dead:beef"],
      ["ttyUSB0", "10c4:ea60"],
    ] as const) {
      const dev = join(root, name);
      writeFileSync(dev, "");
      fakeUsbSerial(root, { byIdName: `a-${name}`, device: dev, usbId, kind: "ttyUSB" });
    }
    const found = await scanUsbSerial({
      byIdDir: join(root, "dev/serial/by-id"),
      sysRoot: join(root, "sys"),
    });
    expect(found.map((f) => [f.usbId, f.chip !== null])).toEqual([
      ["10c4:ea60", true],
      ["dead:beef", false],
    ]);
    expect(await scanUsbSerial({ byIdDir: join(root, "nope"), sysRoot: root })).toEqual([]);
  });
});

describe("readBoardBanner", () => {
  it("wakes a factory GRBL board on a pty with a soft reset and reads `Grbl 1.1h ['$' for help]`", async () => {
    const profile = fluidncProfile();
    const link = await startSimGrblLink({ gantry: recordingGantry(profile).gantry, profile, log: quietLog });
    try {
      const banner = await readBoardBanner(link.devicePath, {
        baudRate: 115_200,
        openWaitMs: 100,
        waitMs: 10_000,
      });
      expect(banner.text).toMatch(/^Grbl 1\.1h \['\$' for help\]/);
      expect(banner).toMatchObject({ version: "1.1h", fluidnc: false });
    } finally {
      await link.stop();
    }
  });

  it("tells FluidNC from GRBL by its banner (an ESP32 prints it only after the soft reset)", async () => {
    const dir = tempDir();
    const pair = await openPtyPair({ linkA: join(dir, "board"), linkB: join(dir, "pi") });
    const board = await openSerialPort(join(dir, "board"), 115_200);
    board.onData((chunk) => {
      if (chunk.includes(0x18))
        board.write("\r\nGrbl 3.7.8 [FluidNC v3.7.8 (wifi) '$' for help]\r\n", () => undefined);
    });
    try {
      const banner = await readBoardBanner(join(dir, "pi"), {
        baudRate: 115_200,
        openWaitMs: 100,
        waitMs: 10_000,
      });
      expect(banner).toMatchObject({ fluidnc: true, version: "3.7.8", afterReset: true });
      expect(banner.text).toContain("FluidNC v3.7.8");
    } finally {
      await board.close();
      await pair.close();
    }
  });

  it("says what to check when the port is silent", async () => {
    const dir = tempDir();
    const pair = await openPtyPair({ linkA: join(dir, "a"), linkB: join(dir, "b") });
    try {
      const err = await readBoardBanner(join(dir, "b"), {
        baudRate: 115_200,
        openWaitMs: 100,
        waitMs: 150,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PiclawError);
      expect((err as PiclawError).code).toBe("BOARD_NO_BANNER");
      expect((err as PiclawError).details.fix).toMatch(/GRBL 1\.1 or FluidNC/);
    } finally {
      await pair.close();
    }
  });
});
