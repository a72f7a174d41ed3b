import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { Logger } from "../../src/log/logger.js";
import type { McpConfig } from "../../src/mcp/config.js";
import type { PhoneTruth } from "../../src/sim/phone/index.js";
import type { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";
import { connectClient } from "../mcp/helpers.js";

/**
 * The daemon in this process on the simulated rig (default profile: CoreXY on FluidNC, the GRBL driver
 * over a pty), with a fresh state directory, its log lines captured, and an MCP client over HTTP.
 * The camera is the rpicam-vid stand-in (needs `npm run build`), at a modest frame rate to spare CPU.
 */
export interface SimDaemon {
  daemon: Daemon;
  rig: SimRig;
  client: Client;
  mcpUrl: string;
  stateDir: string;
  /** Every log line written so far (JSON). */
  logLines: string[];
  truth(): PhoneTruth;
  stop(): Promise<void>;
}

export async function startSimDaemon(options: {
  passcode: string;
  env?: NodeJS.ProcessEnv;
  /** The `mcp` config section, e.g. a longer wait limit for many queued callers. */
  mcp?: Partial<McpConfig>;
}): Promise<SimDaemon> {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-tools-"));
  const logLines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (line) => logLines.push(line) },
    now: () => Date.now(),
  });
  const config = parseConfig({
    stateDir,
    server: { port: 0 },
    camera: SIM_TEST_CAMERA,
    sim: { phone: { passcode: options.passcode, utcOffsetMinutes: 0 } },
    ...(options.mcp ? { mcp: options.mcp } : {}),
  });
  const daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, options.env ?? {});
  try {
    await daemon.start();
  } catch (err) {
    await daemon.stop();
    throw err;
  }
  const rig = daemon.simRig;
  if (!rig || !daemon.url) throw new Error("daemon did not start the simulated rig");
  const mcpUrl = `${daemon.url}/mcp`;
  const client = await connectClient(mcpUrl, "2026-07-28");
  return {
    daemon,
    rig,
    client,
    mcpUrl,
    stateDir,
    logLines,
    truth: () => rig.truth(),
    stop: async () => {
      await client.close();
      await daemon.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** One listing row: `id [kind] "label" [l,t,r,b] conf`. */
export interface Row {
  id: number;
  kind: string;
  label: string;
  bbox: [number, number, number, number];
}

const ROW = /^(\d+) \[(\w+)\] "((?:[^"\\]|\\.)*)" \[([\d.]+),([\d.]+),([\d.]+),([\d.]+)\] [\d.]+$/;

export function parseListing(text: string): Row[] {
  return text.split("\n").flatMap((line) => {
    const m = ROW.exec(line.trim());
    if (!m) return [];
    const [, id, kind, label, l, t, r, b] = m;
    return [
      {
        id: Number(id),
        kind: kind ?? "",
        label: (label ?? "").replace(/\\(.)/g, "$1"),
        bbox: [Number(l), Number(t), Number(r), Number(b)] as [number, number, number, number],
      },
    ];
  });
}
