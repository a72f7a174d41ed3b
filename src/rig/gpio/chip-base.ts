import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PiclawError } from "../../util/errors.js";

/** Labels of the SoC's main GPIO controller: Pi 1–3/Zero, Pi 4, Pi 5 (RP1). */
const SOC_CHIP = /^pinctrl-(bcm2835|bcm2711|bcm2712|rp1)$/;

/**
 * The sysfs GPIO number of BCM pin 0. Since kernel 6.6 the Pi's GPIO chips get dynamic bases (512 on a
 * Pi 4, 571 on a Pi 5), so `onoff` (sysfs) needs base + BCM; older kernels use 0. Reads every
 * `<root>/gpiochip*` `label` and `base` and picks the SoC's pin controller.
 */
export async function findGpioChipBase(sysfsRoot = "/sys/class/gpio"): Promise<number> {
  let entries: string[];
  try {
    entries = (await readdir(sysfsRoot)).filter((e) => e.startsWith("gpiochip")).sort();
  } catch (err) {
    throw new PiclawError("MOTION_GPIO_UNAVAILABLE", `cannot list ${sysfsRoot}: no sysfs GPIO here`, {
      path: sysfsRoot,
      cause: (err as Error).message,
    });
  }
  const seen: string[] = [];
  for (const entry of entries) {
    try {
      const label = (await readFile(join(sysfsRoot, entry, "label"), "utf8")).trim();
      seen.push(label);
      if (!SOC_CHIP.test(label)) continue;
      const base = Number.parseInt((await readFile(join(sysfsRoot, entry, "base"), "utf8")).trim(), 10);
      if (Number.isInteger(base) && base >= 0) return base;
    } catch {
      // A chip directory without label/base (or unreadable) is not ours; keep looking.
    }
  }
  throw new PiclawError(
    "MOTION_GPIO_UNAVAILABLE",
    `no Raspberry Pi GPIO controller under ${sysfsRoot} (found: ${seen.join(", ") || "none"})`,
    { path: sysfsRoot },
  );
}
