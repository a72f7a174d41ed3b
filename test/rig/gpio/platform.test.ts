import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findGpioChipBase } from "../../../src/rig/gpio/chip-base.js";
import { loadOnoff, loadPigpio } from "../../../src/rig/gpio/loader.js";
import { PiclawError } from "../../../src/util/errors.js";
import { gpioRig } from "./helpers.js";

/** A fake `/sys/class/gpio` with the given chips. */
function sysfs(chips: { name: string; label: string; base: number }[]): string {
  const root = mkdtempSync(join(tmpdir(), "piclaw-sysfs-"));
  writeFileSync(join(root, "export"), "");
  for (const chip of chips) {
    mkdirSync(join(root, chip.name));
    writeFileSync(join(root, chip.name, "label"), `${chip.label}\n`);
    writeFileSync(join(root, chip.name, "base"), `${chip.base}\n`);
  }
  return root;
}

describe("GPIO chip base (kernel ≥ 6.6 numbering)", () => {
  it("Pi 4: the pinctrl-bcm2711 chip at 512, not the firmware expander", async () => {
    const root = sysfs([
      { name: "gpiochip512", label: "pinctrl-bcm2711", base: 512 },
      { name: "gpiochip570", label: "raspberrypi-exp-gpio", base: 570 },
    ]);
    expect(await findGpioChipBase(root)).toBe(512);
  });

  it("Pi 5: the pinctrl-rp1 chip at 571, whatever order the chips list in", async () => {
    const root = sysfs([
      { name: "gpiochip512", label: "gpio-brcmstb@107d508500", base: 512 },
      { name: "gpiochip544", label: "gpio-brcmstb@107d517c00", base: 544 },
      { name: "gpiochip571", label: "pinctrl-rp1", base: 571 },
    ]);
    expect(await findGpioChipBase(root)).toBe(571);
  });

  it("older kernels: base 0 is read, not assumed; no Pi controller is a clear error", async () => {
    expect(await findGpioChipBase(sysfs([{ name: "gpiochip0", label: "pinctrl-bcm2835", base: 0 }]))).toBe(0);
    const err = await findGpioChipBase(sysfs([{ name: "gpiochip0", label: "gpio-mockup-A", base: 0 }])).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PiclawError);
    expect((err as PiclawError).code).toBe("MOTION_GPIO_UNAVAILABLE");
    expect((err as PiclawError).message).toContain("gpio-mockup-A");
  });

  it("the back-end opens its inputs at chip base + BCM, found from sysfs", async () => {
    const root = sysfs([{ name: "gpiochip571", label: "pinctrl-rp1", base: 571 }]);
    const rig = gpioRig({ chipBase: 571 });
    // A back-end without an explicit base reads it from the tree; the fake rejects any other numbering.
    const { GpioBackend } = await import("../../../src/rig/gpio/backend.js");
    const backend = new GpioBackend({
      profile: rig.profile,
      pigpio: rig.fake.pigpio,
      onoff: rig.fake.onoff,
      clock: { now: Date.now },
      log: (await import("../../fakes/log.js")).quietLog(),
      sysfsRoot: root,
    });
    await backend.start();
    expect((await backend.status()).state).toBe("idle");
    await backend.halt("test end");
    await backend.stop();
    const wrong = gpioRig({ chipBase: 512 });
    const mismatched = new GpioBackend({
      profile: wrong.profile,
      pigpio: wrong.fake.pigpio,
      onoff: wrong.fake.onoff,
      clock: { now: Date.now },
      log: (await import("../../fakes/log.js")).quietLog(),
      sysfsRoot: root,
    });
    await expect(mismatched.start()).rejects.toThrow(/EINVAL/);
    rig.fake.dispose();
    wrong.fake.dispose();
  });
});

describe("pigpio/onoff loaders", () => {
  const hint =
    "pigpio only runs on Raspberry Pi OS on a Pi Zero–4; on a Pi 5 use a GRBL/FluidNC board (profile backend: grbl)";

  it("say where pigpio runs when it is unavailable: this machine, a Pi 5, a missing addon", async () => {
    const here = await loadPigpio({ arch: "x64" }).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(PiclawError);
    expect((here as PiclawError).code).toBe("MOTION_GPIO_UNAVAILABLE");
    expect((here as PiclawError).message).toContain(hint);
    const pi5 = await loadPigpio({
      platform: "linux",
      arch: "arm64",
      model: () => "Raspberry Pi 5 Model B Rev 1.0",
    }).catch((e: unknown) => e);
    expect((pi5 as PiclawError).message).toMatch(/Raspberry Pi 5 Model B.*Pi Zero–4/);
    const noAddon = await loadPigpio({
      platform: "linux",
      arch: "arm",
      model: () => "Raspberry Pi 4 Model B Rev 1.4",
      importer: async () => {
        throw new Error("Could not locate the bindings file");
      },
    }).catch((e: unknown) => e);
    expect((noAddon as PiclawError).code).toBe("MOTION_GPIO_UNAVAILABLE");
    expect((noAddon as PiclawError).message).toContain(hint);
    const real = await loadPigpio().catch((e: unknown) => e);
    if (process.arch !== "arm" && process.arch !== "arm64")
      expect((real as PiclawError).message).toContain(hint);
  });

  it("reject a module that loads but lacks the API, and unwrap CommonJS defaults", async () => {
    const broken = await loadOnoff(async () => ({ default: { notGpio: 1 } })).catch((e: unknown) => e);
    expect((broken as PiclawError).code).toBe("MOTION_GPIO_UNAVAILABLE");
    class Gpio {}
    const onoff = await loadOnoff(async () => ({ default: { Gpio } }));
    expect(onoff.Gpio).toBe(Gpio);
    const failing = await loadOnoff(async () => {
      throw new Error("Could not locate the bindings file");
    }).catch((e: unknown) => e);
    expect((failing as PiclawError).message).toMatch(/bindings file.*Pi Zero–4/);
  });
});
