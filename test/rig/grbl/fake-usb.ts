import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A fake `/dev/serial/by-id` and sysfs under `root`, laid out as udev and the kernel lay them out: the
 * by-id link points at the device node, and `<sys>/class/tty/<name>/device` links into the USB device
 * tree — for `ttyUSB` (a usb-serial bridge: CH340, CP210x, FTDI) a port node below the interface, for
 * `ttyACM` (CDC-ACM: an Arduino Uno, an ESP32-S3) the interface itself; `idVendor`/`idProduct` sit in
 * the USB device above the interface. The device node may be any path (a pty in tests); its basename
 * is the tty name looked up in sysfs.
 */
export function fakeUsbSerial(
  root: string,
  board: { byIdName: string; device: string; usbId: string | null; kind: "ttyUSB" | "ttyACM" },
): { byIdDir: string; sysRoot: string } {
  const byIdDir = join(root, "dev", "serial", "by-id");
  const sysRoot = join(root, "sys");
  mkdirSync(byIdDir, { recursive: true });
  symlinkSync(board.device, join(byIdDir, board.byIdName));
  const name = board.device.split("/").pop() ?? "tty";
  const usbDevice = join(sysRoot, "devices", "platform", "usb1", `1-1.${name}`);
  const iface = join(usbDevice, `1-1.${name}:1.0`);
  const node = board.kind === "ttyUSB" ? join(iface, name) : iface;
  mkdirSync(node, { recursive: true });
  if (board.usbId) {
    const [vendor, product] = board.usbId.split(":");
    writeFileSync(join(usbDevice, "idVendor"), `${vendor}\n`);
    writeFileSync(join(usbDevice, "idProduct"), `${product}\n`);
  }
  const classDir = join(sysRoot, "class", "tty", name);
  mkdirSync(classDir, { recursive: true });
  symlinkSync(node, join(classDir, "device"));
  return { byIdDir, sysRoot };
}
