import { SerialPort } from "serialport";
import { PiclawError } from "../../util/errors.js";

/**
 * The byte pipe to a GRBL board. The back-end only needs these four things, so tests can hand it any
 * device node (a socat pseudo-terminal) and the real appliance a USB serial port.
 */
export interface SerialLink {
  /** Queue bytes; `done` reports a write failure (the port vanished). */
  write(data: string | Buffer, done: (err: Error | null | undefined) => void): void;
  onData(listener: (chunk: Buffer) => void): void;
  /** Called once when the port closes for any reason (unplugged, closed by us, write failure). */
  onClose(listener: (err?: Error) => void): void;
  close(): Promise<void>;
}

/** Opens a device path at a baud rate: injectable so tests may wrap or replace it. */
export type OpenPort = (path: string, baudRate: number) => Promise<SerialLink>;

/** What `SerialPort.list()` tells about one port (only the fields detection needs). */
export interface PortListing {
  path: string;
  vendorId?: string;
  productId?: string;
}

/** Open a real serial port (or pseudo-terminal) with the `serialport` package. */
export const openSerialPort: OpenPort = (path, baudRate) =>
  new Promise<SerialLink>((resolve, reject) => {
    const port = new SerialPort({ path, baudRate, autoOpen: false });
    port.open((err) => {
      if (err) {
        reject(new PiclawError("MOTION_PORT_OPEN_FAILED", `cannot open ${path}: ${err.message}`, { path }));
        return;
      }
      let closed = false;
      const closeListeners: ((err?: Error) => void)[] = [];
      const fireClose = (e?: Error) => {
        if (closed) return;
        closed = true;
        for (const l of closeListeners) l(e);
      };
      port.on("close", (e?: Error) => fireClose(e ?? undefined));
      // A read/write failure on a vanished device: the stream emits `error` (and usually `close`).
      port.on("error", (e: Error) => fireClose(e));
      resolve({
        write(data, done) {
          if (closed || !port.isOpen) {
            done(new Error("port closed"));
            return;
          }
          port.write(data, (e) => done(e));
        },
        onData(listener) {
          port.on("data", listener);
        },
        onClose(listener) {
          closeListeners.push(listener);
        },
        close() {
          return new Promise<void>((res) => {
            if (!port.isOpen) {
              fireClose();
              res();
              return;
            }
            port.close(() => {
              fireClose();
              res();
            });
          });
        },
      });
    });
  });

export const listSerialPorts = (): Promise<PortListing[]> => SerialPort.list();

/** The first listed port whose USB `vendor:product` is one of `usbIds` (hex, case-insensitive). */
export async function findPortByUsbId(
  usbIds: readonly string[],
  list: () => Promise<PortListing[]> = listSerialPorts,
): Promise<string> {
  const wanted = new Set(usbIds.map((id) => id.toLowerCase()));
  const ports = await list();
  for (const p of ports) {
    if (!p.vendorId || !p.productId) continue;
    if (wanted.has(`${p.vendorId}:${p.productId}`.toLowerCase())) return p.path;
  }
  throw new PiclawError(
    "MOTION_PORT_NOT_FOUND",
    `no serial port with a USB id in [${usbIds.join(", ")}] (found: ${ports.map((p) => p.path).join(", ") || "none"})`,
    { usbIds: [...usbIds] },
  );
}
