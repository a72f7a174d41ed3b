import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import type { PiclawConfig } from "../../src/app/config/schema.js";
import { Daemon } from "../../src/app/daemon.js";
import { grblPositionPath } from "../../src/app/hardware-rig-stack.js";
import { writeBundle } from "../../src/calibration/bundle.js";
import { Logger } from "../../src/log/logger.js";
import { filePositionStore, PositionKeeper } from "../../src/rig/grbl/position-record.js";
import type { RigProfile } from "../../src/rig/profile.js";
import { SimControlServer } from "../../src/sim/control.js";
import { eepromConfiguredFor } from "../../src/sim/gantry/grbl-eeprom.js";
import { type SimGrblLink, startSimGrblLink } from "../../src/sim/gantry/grbl-link.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { projectRoot } from "../../src/util/paths.js";
import { FakeNotifier } from "../fakes/notifier.js";
import { connectClient } from "../mcp/helpers.js";
import { truthBundle } from "../web/helpers.js";

/**
 * A daemon on `rig.backend: hardware`, started in this process exactly as on a Pi, facing a simulated
 * "world" the TEST owns: the phone under the camera and the gantry behind the serial cable. The world is
 * a SimRig; its gantry sits behind a GRBL simulator on one end of a pty pair, whose other end is the
 * daemon's `rig.serialPath`; its camera is reached by the rpicam stand-ins (`camera.vidBinary` →
 * bin/sim/rpicam-vid, needs `npm run build`) through a SimControlServer socket in `PICLAW_SIM_SOCKET`.
 * A calibration bundle made from the world's truth is pre-seeded (a calibrated appliance's start).
 */
export interface HardwareDaemon {
  daemon: Daemon;
  /** The world: the simulated phone and gantry (not the daemon's: it has none). */
  world: SimRig;
  link: SimGrblLink;
  client: Client;
  notifier: FakeNotifier;
  stateDir: string;
  logLines: string[];
  /** Wall-clock time of `daemon.start()` (ms), for printing only. */
  startMs: number;
  stop(): Promise<void>;
}

export const PASSCODE = "482916";

/**
 * The position record an owner's `piclaw rig reference --parked` leaves: the simulated board powers up
 * with the carriage at park and MPos 0,0, so a start may reference there.
 */
export function seedParkedRecord(stateDir: string, profile: RigProfile): void {
  new PositionKeeper(filePositionStore(grblPositionPath(stateDir)), profile).parked({ x: 0, y: 0 });
}

/** The config both sides share; `rig` and the daemon-only sections come from `extra`. */
export function worldConfig(stateDir: string, extra: Record<string, unknown> = {}): PiclawConfig {
  const bin = join(projectRoot(), "bin", "sim");
  return parseConfig({
    stateDir,
    server: { port: 0 },
    // The world renders every streamed frame in this process (a Pi's ISP does that for free): a modest
    // rate, and a grab timeout that survives a loaded 2-core machine (5 s was seen to run out).
    camera: {
      framerate: 5,
      grabTimeoutMs: 30_000,
      vidBinary: join(bin, "rpicam-vid"),
      stillBinary: join(bin, "rpicam-still"),
    },
    phone: { passcode: PASSCODE },
    sim: { phone: { passcode: PASSCODE, utcOffsetMinutes: 0 } },
    ...extra,
  });
}

export function captureLog(lines: string[]): Logger {
  return Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (line) => lines.push(line) },
    now: () => Date.now(),
  });
}

/**
 * `extra`: config sections for the daemon. `seedRecord: false` starts without the position record an
 * owner's `piclaw rig reference --parked` leaves (a first start, or after a crash).
 */
export async function startHardwareDaemon(
  extra: Record<string, unknown> = {},
  options: { seedRecord?: boolean } = {},
): Promise<HardwareDaemon> {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-hw-"));
  const logLines: string[] = [];
  const log = captureLog(logLines);
  const worldLog = captureLog([]);
  const simConfig = worldConfig(stateDir);
  const world = SimRig.fromConfig(simConfig, { clock: systemClock, log: worldLog, cwd: process.cwd() });
  await world.start();
  const cleanups: (() => Promise<void>)[] = [async () => world.stop()];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    const link = await startSimGrblLink({
      gantry: world.gantry,
      profile: world.profile,
      log: worldLog,
      eeprom: eepromConfiguredFor(world.profile), // a board its owner configured
    });
    cleanups.push(() => link.stop());
    if (options.seedRecord !== false) seedParkedRecord(stateDir, world.profile); // and confirmed park
    const control = new SimControlServer(world, worldLog);
    const socket = await control.start(join(stateDir, "world.sock"));
    cleanups.push(() => control.stop());
    writeBundle(stateDir, await truthBundle(simConfig, worldLog));

    const config = worldConfig(stateDir, {
      rig: { backend: "hardware", serialPath: link.devicePath },
      ...extra,
    });
    const notifier = new FakeNotifier();
    const daemon = new Daemon(
      { config, path: null, stateDir },
      log,
      systemClock,
      { PICLAW_SIM_SOCKET: socket },
      { notifier },
    );
    cleanups.push(() => daemon.stop());
    const t0 = performance.now();
    await daemon.start();
    const startMs = performance.now() - t0;
    if (!daemon.url) throw new Error("the daemon did not serve");
    const client = await connectClient(`${daemon.url}/mcp`, "2026-07-28");
    cleanups.push(() => client.close());
    return { daemon, world, link, client, notifier, stateDir, logLines, startMs, stop: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

export interface Called {
  isError: boolean;
  texts: string[];
  images: number;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Called> {
  const res = await client.callTool({ name, arguments: args });
  const content = res.content as { type: string; text?: string }[];
  return {
    isError: res.isError === true,
    texts: content.filter((c) => c.type === "text").map((c) => c.text ?? ""),
    images: content.filter((c) => c.type === "image").length,
  };
}

/** A dashboard button: a POST with the dashboard's action header (what its page sends), answer parsed. */
export async function dashboardPost(
  hw: HardwareDaemon,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${hw.daemon.url}${path}`, {
    method: "POST",
    headers: { "x-piclaw-dashboard": "1" },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A `tap` on the screen's centre through MCP succeeds and the world's phone felt exactly that touch. */
export async function expectCentreTapLands(hw: HardwareDaemon): Promise<void> {
  const t0 = hw.world.gantry.now();
  const tap = await callTool(hw.client, "tap", { bbox: [0.45, 0.45, 0.55, 0.55] });
  expect(tap.isError, tap.texts.join("\n")).toBe(false);
  const touches = hw.world.phone.touchReports(t0);
  expect(touches).toHaveLength(1);
  expect(touches[0]?.x).toBeCloseTo(0.5, 2);
  expect(touches[0]?.y).toBeCloseTo(0.5, 2);
}
