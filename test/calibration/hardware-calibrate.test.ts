import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SerialPort } from "serialport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calibrateCommand } from "../../src/app/commands/calibrate.js";
import type { PiclawConfig } from "../../src/app/config/schema.js";
import { bundlePaths, readBundle } from "../../src/calibration/bundle.js";
import { SimControlServer } from "../../src/sim/control.js";
import { eepromConfiguredFor } from "../../src/sim/gantry/grbl-eeprom.js";
import { type SimGrblLink, startSimGrblLink } from "../../src/sim/gantry/grbl-link.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";
import { FakeBridgePage } from "../app/fake-bridge-page.js";
import { captureLog, seedParkedRecord, worldConfig } from "../app/hardware-world.js";
import { PageClient } from "../bridge/helpers.js";

/**
 * `piclaw calibrate` on `rig.backend: hardware` against a simulated world: the world's gantry behind the
 * GRBL simulator on a pty (the command's `rig.serialPath`), its camera behind the rpicam stand-ins
 * (PICLAW_SIM_SOCKET), and a stand-in for the phone's bridge page: it pairs with the code the command
 * prints, draws every pattern the bridge sends on the world's phone, and reports the phone's touches.
 */

interface World {
  world: SimRig;
  link: SimGrblLink;
  socket: string;
  stateDir: string;
  stop(): Promise<void>;
}

async function startWorld(): Promise<World> {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-hwcal-"));
  const log = captureLog([]);
  const world = SimRig.fromConfig(worldConfig(stateDir), { clock: systemClock, log, cwd: process.cwd() });
  await world.start();
  const link = await startSimGrblLink({
    gantry: world.gantry,
    profile: world.profile,
    log,
    eeprom: eepromConfiguredFor(world.profile), // a board its owner configured
  });
  seedParkedRecord(stateDir, world.profile); // and confirmed the carriage at park
  const control = new SimControlServer(world, log);
  const socket = await control.start(join(stateDir, "world.sock"));
  return {
    world,
    link,
    socket,
    stateDir,
    stop: async () => {
      await control.stop().catch(() => undefined);
      await link.stop().catch(() => undefined);
      await world.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

function hardwareConfig(w: World, bridge: Record<string, unknown>): PiclawConfig {
  return worldConfig(w.stateDir, {
    rig: { backend: "hardware", serialPath: w.link.devicePath },
    bridge: { host: "127.0.0.1", port: 0, ...bridge },
  });
}

describe("piclaw calibrate on rig.backend: hardware (simulated world, bridge page stand-in)", () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
  }, 60_000);

  afterAll(async () => {
    await w?.stop();
  });

  it("refuses without the bridge, naming bridge.enabled", async () => {
    const lines: string[] = [];
    const err = await calibrateCommand(
      { config: hardwareConfig(w, { enabled: false }), path: null, stateDir: w.stateDir },
      false,
      { clock: systemClock, log: captureLog([]), write: (t) => lines.push(t) },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PiclawError);
    expect((err as PiclawError).code).toBe("CALIBRATE_BRIDGE_DISABLED");
    expect((err as PiclawError).message).toMatch(
      /^bridge\.enabled: .*bridge\.enabled: true.*piclaw bridge pair/,
    );
  });

  it("hands out a pair code and gives up, saying what to do, when no phone pairs", async () => {
    const lines: string[] = [];
    const err = await calibrateCommand(
      { config: hardwareConfig(w, { enabled: true }), path: null, stateDir: w.stateDir },
      false,
      { clock: systemClock, log: captureLog([]), write: (t) => lines.push(t), pageWaitMs: 300 },
    ).catch((e: unknown) => e);
    expect(lines.join("")).toMatch(
      /no phone is paired: open http:\/\/127\.0\.0\.1:\d+ on the phone and enter pair code \S+/,
    );
    expect((err as PiclawError).code).toBe("BRIDGE_NOT_PAIRED");
    expect((err as PiclawError).message).toMatch(/run `piclaw calibrate` again/);
  });

  it("names the daemon when the serial port is held (as a running daemon holds it)", async () => {
    const holder = new SerialPort({ path: w.link.devicePath, baudRate: 115_200, autoOpen: false });
    await new Promise<void>((resolve, reject) => holder.open((e) => (e ? reject(e) : resolve())));
    try {
      const err = await calibrateCommand(
        { config: hardwareConfig(w, { enabled: true }), path: null, stateDir: w.stateDir },
        false,
        { clock: systemClock, log: captureLog([]), write: () => undefined, pageWaitMs: 300 },
      ).catch((e: unknown) => e);
      expect((err as PiclawError).code, String(err)).toBe("CALIBRATE_RIG_BUSY");
      expect((err as PiclawError).message).toMatch(
        /^rig\.serialPath: .*daemon must not run.*systemctl stop piclaw/,
      );
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 60_000);

  it("calibrates through the bridge page and writes a bundle whose validation passed", async () => {
    const lines: string[] = [];
    let page: FakeBridgePage | null = null;
    const write = (text: string): void => {
      lines.push(text);
      const m = /open (http:\/\/\S+) on the phone and enter pair code (\S+)/.exec(text);
      if (m?.[1] && m[2] && !page) {
        page = new FakeBridgePage(new PageClient(m[1]), w.world);
        page.open(m[2]).catch((e: unknown) => lines.push(`page stand-in failed: ${String(e)}\n`));
      }
    };
    const started = performance.now();
    const code = await calibrateCommand(
      { config: hardwareConfig(w, { enabled: true }), path: null, stateDir: w.stateDir },
      false,
      { clock: systemClock, log: captureLog([]), write, seed: 7, env: { PICLAW_SIM_SOCKET: w.socket } },
    ).finally(async () => (page as FakeBridgePage | null)?.close());
    const seconds = (performance.now() - started) / 1000;
    const out = lines.join("");
    console.log(`hardware calibrate: ${seconds.toFixed(1)} s wall\n${out}`);
    expect(code, out).toBe(0);
    expect(out).toMatch(/bridge page connected/);
    expect(out).toMatch(/rig ready: serial .* bridge http/);
    expect(out).toMatch(/45\/45 markers found/);
    expect(out.match(/validation tap \d\/5 .* error \d+\.\d+ mm ok/g)).toHaveLength(5);
    expect(out).toMatch(/^PASS: /m);
    const bundle = readBundle(bundlePaths(w.stateDir).current);
    expect(bundle).toMatchObject({ rigProfile: w.world.profile.name, validation: { passed: true } });
    expect(bundle.phone.model).toBe(w.world.phone.geometry.name);
    expect(bundle.validation.maxErrorMm).toBeLessThanOrEqual(bundle.validation.thresholdMm);
    // The pattern went through the bridge page and was cleared at the end.
    expect((page as FakeBridgePage | null)?.patternsShown).toBeGreaterThanOrEqual(1);
    expect((page as FakeBridgePage | null)?.touchesSent).toBeGreaterThan(20);
  }, 600_000);
});
