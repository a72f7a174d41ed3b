import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../log/logger.js";
import { openSerialPort, type SerialLink } from "../../rig/grbl/port.js";
import type { RigProfile } from "../../rig/profile.js";
import type { GrblEeprom } from "./grbl-eeprom.js";
import { GrblSim } from "./grbl-sim.js";
import type { SimGantry } from "./model.js";
import { openPtyPair } from "./pty-pair.js";

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
  /**
   * The board's EEPROM: a factory-fresh board when absent. Pass `eepromConfiguredFor(profile)` for a
   * board its owner configured, and the same object again on a re-plug (EEPROM survives power cycles).
   */
  eeprom?: GrblEeprom;
}

/** A running simulated GRBL board on a pseudo-terminal. */
export interface SimGrblLink {
  /** Device path the driver opens, as it would open /dev/ttyUSB0. */
  devicePath: string;
  /** The simulator (its `stats` show what crossed the wire). */
  sim: GrblSim;
  /** Stop the simulator, close its end, kill the pty relay. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Start a simulated GRBL board behind a real pseudo-terminal pair (socat, or a python3 relay where socat is missing): the simulator holds
 * one end (opened with `serialport`, like any tty), the driver gets the other end's path. Because the
 * driver talks to a tty, it exercises the same termios, buffering and close/EIO behaviour as with USB.
 */
export async function startSimGrblLink(options: SimGrblLinkOptions): Promise<SimGrblLink> {
  const { log } = options;
  const ownDir = !options.dir;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "piclaw-grbl-"));
  const hostPath = join(dir, "grbl-host");
  const devicePath = join(dir, "grbl-dev");
  const pair = await openPtyPair({ linkA: hostPath, linkB: devicePath });
  let port: SerialLink | null = null;
  let sim: GrblSim | null = null;
  let stopped = false;

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    sim?.stop();
    if (port) await port.close().catch(() => undefined);
    await pair.close();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const link = await openSerialPort(hostPath, options.profile.serial?.baudRate ?? 115_200);
    port = link;
    const grbl = new GrblSim({
      gantry: options.gantry,
      profile: options.profile,
      log: log.child("grbl-sim"),
      ...(options.eeprom ? { eeprom: options.eeprom } : {}),
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
