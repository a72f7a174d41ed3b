import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../log/logger.js";
import { openSerialPort, type SerialLink } from "../../rig/grbl/port.js";
import type { RigProfile } from "../../rig/profile.js";
import { PiclawError } from "../../util/errors.js";
import { GrblSim } from "./grbl-sim.js";
import type { SimGantry } from "./model.js";

/** Options of `startSimGrblLink`. */
export interface SimGrblLinkOptions {
  gantry: SimGantry;
  profile: RigProfile;
  log: Logger;
  /**
   * Directory for the two pty symlinks (`grbl-host`, `grbl-dev`). Reusing a directory gives a new link
   * the same device path — a board that was unplugged and plugged in again. Default: a fresh temp dir.
   */
  dir?: string;
  /** socat executable (default: `socat` on PATH). */
  socat?: string;
}

/** A running simulated GRBL board on a pseudo-terminal. */
export interface SimGrblLink {
  /** Device path the driver opens, as it would open /dev/ttyUSB0. */
  devicePath: string;
  /** The simulator (its `stats` show what crossed the wire). */
  sim: GrblSim;
  /** Stop the simulator, close its end, kill socat. Safe to call more than once. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 5000;

/**
 * Start a simulated GRBL board behind a real pseudo-terminal pair made by socat: the simulator holds
 * one end (opened with `serialport`, like any tty), the driver gets the other end's path. Because the
 * driver talks to a tty, it exercises the same termios, buffering and close/EIO behaviour as with USB.
 */
export async function startSimGrblLink(options: SimGrblLinkOptions): Promise<SimGrblLink> {
  const { log } = options;
  const ownDir = !options.dir;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "piclaw-grbl-"));
  const hostPath = join(dir, "grbl-host");
  const devicePath = join(dir, "grbl-dev");
  const child = spawn(
    options.socat ?? "socat",
    ["-d", "-d", `pty,raw,echo=0,link=${hostPath}`, `pty,raw,echo=0,link=${devicePath}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let port: SerialLink | null = null;
  let sim: GrblSim | null = null;
  let stopped = false;

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    sim?.stop();
    if (port) await port.close().catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    process.off("exit", killOnExit);
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await socatReady(child);
    const link = await openSerialPort(hostPath, options.profile.serial?.baudRate ?? 115_200);
    port = link;
    const grbl = new GrblSim({
      gantry: options.gantry,
      profile: options.profile,
      log: log.child("grbl-sim"),
      write: (text) => link.write(text, () => undefined),
    });
    sim = grbl;
    link.onData((chunk) => grbl.receive(chunk));
    link.onClose(() => grbl.stop());
    grbl.start();
    log.debug("simulated GRBL board up", { devicePath });
    return { devicePath, sim: grbl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Resolve once socat reports its transfer loop (both ptys and links exist); reject if it dies first. */
function socatReady(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let stderr = "";
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new PiclawError("SIM_GRBL_LINK_FAILED", `socat: ${why}`, { stderr: stderr.slice(-500) }));
    };
    const timer = setTimeout(() => fail("not ready in time"), READY_TIMEOUT_MS);
    child.once("error", (err) => fail(err.message));
    child.once("exit", (code) => fail(`exited with ${code}`));
    // Keep reading stderr for socat's whole life so a full pipe never blocks it.
    child.stderr?.on("data", (chunk: Buffer) => {
      if (settled) return;
      stderr += chunk.toString("utf8");
      if (stderr.includes("starting data transfer loop")) {
        settled = true;
        clearTimeout(timer);
        resolve();
      }
    });
  });
}
