import { readdir, readFile, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorMessage, PiclawError } from "../../util/errors.js";
import { type OpenPort, openSerialPort, type SerialLink } from "./port.js";
import { parseGrblLine } from "./protocol.js";

/**
 * Finding a motion board without asking the user for a device name: the stable links udev makes in
 * `/dev/serial/by-id/` (one per USB serial interface), each one's USB vendor:product id from sysfs, and
 * the board's own banner (`Grbl 1.1h ['$' for help]`; FluidNC says `Grbl 3.x [FluidNC v3.x …]`).
 */

/** USB-serial bridges and boards that carry GRBL or FluidNC (vendor:product, lower-case hex). */
export const KNOWN_BOARD_USB_IDS: Readonly<Record<string, string>> = {
  "1a86:7523": "CH340 (Arduino clones, most GRBL shields)",
  "1a86:55d4": "CH9102 (ESP32 boards, FluidNC)",
  "10c4:ea60": "CP210x (ESP32 boards, FluidNC)",
  "0403:6001": "FTDI FT232R",
  "0403:6015": "FTDI FT231X",
  "2341:0043": "Arduino Uno",
  "2341:0001": "Arduino Uno (first revision)",
  "2a03:0043": "Arduino Uno (arduino.org)",
  "303a:1001": "ESP32-S3 native USB (FluidNC)",
};

/** One USB serial device. */
export interface SerialCandidate {
  /** The stable link (`/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0`): what `rig.serialPath` should name. */
  path: string;
  /** What it points at (`/dev/ttyUSB0`). */
  device: string;
  /** `1a86:7523`, or null when sysfs does not say. */
  usbId: string | null;
  /** The chip or board for a known id, else null. */
  chip: string | null;
}

export interface SerialScanOptions {
  /** Default `/dev/serial/by-id`. */
  byIdDir?: string;
  /** Default `/sys`. */
  sysRoot?: string;
}

/**
 * Every device in `/dev/serial/by-id` with its USB id (read from `<sys>/class/tty/<name>/device`, walking
 * up to the USB device that has `idVendor`/`idProduct`: an interface for ttyACM, a port below it for
 * ttyUSB). Known boards first. An absent directory means no USB serial device is plugged in: `[]`.
 */
export async function scanUsbSerial(options: SerialScanOptions = {}): Promise<SerialCandidate[]> {
  const byIdDir = options.byIdDir ?? "/dev/serial/by-id";
  const sysRoot = options.sysRoot ?? "/sys";
  let names: string[];
  try {
    names = (await readdir(byIdDir)).sort();
  } catch {
    return [];
  }
  const out: SerialCandidate[] = [];
  for (const name of names) {
    const path = join(byIdDir, name);
    const device = await realpath(path).catch(() => null);
    if (!device) continue; // a dangling link: the board went away while we looked
    const usbId = await usbIdOf(join(sysRoot, "class", "tty", basename(device), "device"));
    out.push({ path, device, usbId, chip: usbId ? (KNOWN_BOARD_USB_IDS[usbId] ?? null) : null });
  }
  return out.sort((a, b) => Number(b.chip !== null) - Number(a.chip !== null));
}

async function usbIdOf(deviceLink: string): Promise<string | null> {
  let dir = await realpath(deviceLink).catch(() => null);
  for (let up = 0; dir && up < 4; up++, dir = dirname(dir)) {
    const [vendor, product] = await Promise.all([
      readFile(join(dir, "idVendor"), "utf8").catch(() => null),
      readFile(join(dir, "idProduct"), "utf8").catch(() => null),
    ]);
    if (vendor && product) return `${vendor.trim()}:${product.trim()}`.toLowerCase();
  }
  return null;
}

/** What a board said when woken. */
export interface BoardBanner {
  text: string;
  /** `1.1h`, or FluidNC's GRBL-compatibility version. */
  version: string;
  fluidnc: boolean;
  /** The banner came only after our soft reset (Ctrl-X), not on opening the port. */
  afterReset: boolean;
}

export interface ReadBannerOptions {
  baudRate: number;
  /**
   * How long to wait for a banner on open: an Arduino resets when the port opens (DTR) and its boot
   * loader takes about a second before GRBL prints. Default 2000 ms.
   */
  openWaitMs?: number;
  /** How long to wait for the banner after the soft reset (a board answers one in milliseconds). */
  waitMs: number;
  openPort?: OpenPort;
}

/**
 * Open `path`, wait for a GRBL/FluidNC banner (an Arduino resets itself when the port opens; an ESP32
 * does not), send a soft reset (Ctrl-X) when none came and wait once more, then close the port. Throws
 * BOARD_NO_BANNER or BOARD_PORT_FAILED, each with a `fix` for the person at the rig.
 */
export async function readBoardBanner(path: string, options: ReadBannerOptions): Promise<BoardBanner> {
  let link: SerialLink;
  try {
    link = await (options.openPort ?? openSerialPort)(path, options.baudRate);
  } catch (err) {
    const message = errorMessage(err);
    const fix = /EACCES|permission/i.test(message)
      ? "the service user needs the dialout group (sudo usermod -aG dialout piclaw, then restart)"
      : /EBUSY|lock/i.test(message)
        ? "another program holds the port (a running piclaw daemon on rig.backend: hardware, a serial monitor): close it"
        : "unplug the board, plug it in again and retry";
    throw new PiclawError("BOARD_PORT_FAILED", `cannot open ${path}: ${message}`, { path, fix });
  }
  try {
    let buffered = "";
    let found: { text: string; version: string; fluidnc: boolean } | null = null;
    let wake: () => void = () => undefined;
    link.onData((chunk) => {
      buffered += chunk.toString("latin1");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const raw of lines) {
        const line = parseGrblLine(raw);
        if (line.kind === "banner" && !found) {
          found = { text: line.text, version: line.version, fluidnc: line.fluidnc };
          wake();
        }
      }
    });
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    await wait(options.openWaitMs ?? 2000);
    let afterReset = false;
    if (!found) {
      afterReset = true;
      link.write(Buffer.from([0x18]), () => undefined);
      await wait(options.waitMs);
    }
    const banner = found as { text: string; version: string; fluidnc: boolean } | null;
    if (!banner)
      throw new PiclawError(
        "BOARD_NO_BANNER",
        `${path} said nothing like "Grbl 1.1h ['$' for help]" within ${options.waitMs} ms, even after a soft reset`,
        {
          path,
          fix: `is this the motion board? Check it is powered, runs GRBL 1.1 or FluidNC, and talks at ${options.baudRate} baud`,
        },
      );
    return { ...banner, afterReset };
  } finally {
    await link.close().catch(() => undefined);
  }
}
