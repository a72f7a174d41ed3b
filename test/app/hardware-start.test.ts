import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { calibrateCommand } from "../../src/app/commands/calibrate.js";
import { doctorCommand } from "../../src/app/commands/doctor.js";
import { Daemon } from "../../src/app/daemon.js";
import { HardwareRigStack } from "../../src/app/hardware-rig-stack.js";
import { eepromConfiguredFor } from "../../src/sim/gantry/grbl-eeprom.js";
import { startSimGrblLink } from "../../src/sim/gantry/grbl-link.js";
import { createPigpioFake } from "../../src/sim/gantry/pigpio-fake.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";
import { projectRoot } from "../../src/util/paths.js";
import { FakeNotifier } from "../fakes/notifier.js";
import { captureLog, seedParkedRecord, worldConfig } from "./hardware-world.js";

/**
 * How a real rig's start fails: at once, with a PiclawError whose message starts with the config key
 * to fix, nothing half-started left behind, and no READY sent to systemd.
 */
describe("rig.backend: hardware start failures", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-hw-start-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function failedStart(
    rig: Record<string, unknown>,
  ): Promise<{ err: PiclawError; notifier: FakeNotifier }> {
    const stateDir = tempDir();
    const config = worldConfig(stateDir, { rig: { backend: "hardware", ...rig } });
    const notifier = new FakeNotifier();
    const daemon = new Daemon(
      { config, path: null, stateDir },
      captureLog([]),
      systemClock,
      {},
      { notifier },
    );
    const err = await daemon.start().then(
      () => null,
      (e: unknown) => e,
    );
    await daemon.stop();
    if (!(err instanceof PiclawError)) throw new Error(`expected a PiclawError, got ${String(err)}`);
    return { err, notifier };
  }

  it("a missing serial device fails start naming rig.serialPath", async () => {
    const { err, notifier } = await failedStart({ serialPath: "/dev/piclaw-no-such-tty" });
    expect(err.code).toBe("RIG_SERIAL_MISSING");
    expect(err.message).toMatch(/^rig\.serialPath: no serial device at \/dev\/piclaw-no-such-tty/);
    expect(notifier.lines()).not.toContain("READY=1");
  });

  it("a device that is no serial port fails start naming rig.serialPath", async () => {
    const { err } = await failedStart({ serialPath: "/dev/null" });
    expect(err.code).toMatch(/^MOTION_/);
    expect(err.message).toMatch(/^rig\.serialPath: .*\/dev\/null/);
  });

  it("a GPIO profile where pigpio cannot load fails start naming rig.profile and pigpio", async () => {
    const { err } = await failedStart({ profile: "cartesian-gpio" });
    expect(err.code).toBe("RIG_GPIO_UNAVAILABLE");
    expect(err.message).toMatch(
      /^rig\.profile: profile cartesian-gpio drives the steppers from the Pi's GPIO/,
    );
    expect(err.message).toContain("pigpio");
  });

  it("an unknown profile fails start naming rig.profile", async () => {
    const { err } = await failedStart({ profile: "no-such-profile" });
    expect(err.code).toBe("PROFILE_UNREADABLE");
    expect(err.message).toMatch(/^rig\.profile: /);
  });

  it("a stop during the start: the back-end does not reference or move afterwards (issue 14 item 6)", async () => {
    const stateDir = tempDir();
    const log = captureLog([]);
    const world = SimRig.fromConfig(worldConfig(stateDir), { clock: systemClock, log, cwd: process.cwd() });
    await world.start();
    const link = await startSimGrblLink({
      gantry: world.gantry,
      profile: world.profile,
      log,
      eeprom: eepromConfiguredFor(world.profile),
    });
    seedParkedRecord(stateDir, world.profile);
    try {
      const config = worldConfig(stateDir, { rig: { backend: "hardware", serialPath: link.devicePath } });
      const notifier = new FakeNotifier();
      const daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, {}, { notifier });
      const started = daemon.start().then(
        () => null,
        (e: unknown) => e,
      );
      // SIGTERM while the driver is still in its handshake with the board: the stop is requested the
      // moment the board receives `$I`, before its answer can reach the driver. (Polling for `$I` let a
      // loaded machine finish the handshake and reference first, which is a stop after the start.)
      const lines = link.sim.stats.lines;
      const handshaking = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no handshake")), 10_000);
        const push = lines.push.bind(lines);
        lines.push = (...items: string[]) => {
          const n = push(...items);
          if (items.includes("$I")) {
            clearTimeout(timer);
            resolve();
          }
          return n;
        };
      });
      await handshaking;
      await daemon.stop();
      const err = await started;
      expect(err).toMatchObject({ code: "RIG_START_ABORTED" });
      await new Promise((r) => setTimeout(r, 300));
      expect(link.sim.stats.lines.filter((l) => /^(G92|G0|G1|\$X)/.test(l))).toEqual([]);
      expect(world.gantry.motionLog().filter((e) => e.kind === "move")).toEqual([]);
      expect(notifier.lines()).not.toContain("READY=1");
    } finally {
      await link.stop();
      await world.stop();
    }
  }, 60_000);

  it("a missing camera program fails start naming camera.vidBinary, after the rig came up", async () => {
    const stateDir = tempDir();
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
    try {
      const config = worldConfig(stateDir, {
        rig: { backend: "hardware", serialPath: link.devicePath },
        camera: { vidBinary: "/opt/piclaw-none/rpicam-vid", stillBinary: "/opt/piclaw-none/rpicam-still" },
      });
      const daemon = new Daemon(
        { config, path: null, stateDir },
        log,
        systemClock,
        {},
        { notifier: new FakeNotifier() },
      );
      const err = await daemon.start().then(
        () => null,
        (e: unknown) => e,
      );
      await daemon.stop();
      expect(err).toBeInstanceOf(PiclawError);
      expect(err).toMatchObject({
        code: "CAMERA_BINARY_MISSING",
        message: expect.stringContaining("camera.vidBinary"),
      });
      // The rig had started: stopping lifted the stylus (M5) and parked over the wire.
      expect(link.sim.stats.lines).toEqual(expect.arrayContaining(["$I", "M5"]));
    } finally {
      await link.stop();
      await world.stop();
    }
  }, 60_000);

  it("piclaw calibrate on a real rig needs the bridge (the phone shows the patterns) and says how to enable it", async () => {
    const stateDir = tempDir();
    const config = worldConfig(stateDir, { rig: { backend: "hardware", serialPath: "/dev/null" } });
    const lines: string[] = [];
    const run = calibrateCommand({ config, path: null, stateDir }, false, {
      clock: systemClock,
      log: captureLog([]),
      write: (text) => lines.push(text),
    });
    await expect(run).rejects.toMatchObject({
      code: "CALIBRATE_BRIDGE_DISABLED",
      message: /^bridge\.enabled: /,
    });
    // Refused before any rig part started: nothing reached the (non-existent) board.
    expect(lines.join("")).not.toMatch(/markers|validation/);
  });

  it("piclaw doctor on a real rig without its board: motion FAILs naming rig.serialPath, the rest is not guessed", async () => {
    const stateDir = tempDir();
    const config = worldConfig(stateDir, {
      rig: { backend: "hardware", serialPath: "/dev/piclaw-no-such-tty" },
    });
    const out: string[] = [];
    const code = await doctorCommand(
      { config, path: null, stateDir },
      {
        clock: systemClock,
        log: captureLog([]),
        write: (t) => out.push(t),
        ntpSynchronized: async () => "yes",
        env: {},
      },
    );
    const text = out.join("");
    expect(code, text).toBe(1);
    expect(text).toMatch(
      /^FAIL +motion: back-end unreachable: rig\.serialPath: no serial device at \/dev\/piclaw-no-such-tty/m,
    );
    expect(text).toMatch(/^FAIL +camera: not checked: the rig did not start/m);
  }, 60_000);

  it("a GPIO profile drives the GPIO driver on the modules the loader gives (here the pigpio fake)", async () => {
    // The shipped GPIO profile with a parked origin instead of endstop homing (homing takes ~20 s real time).
    const dir = tempDir();
    const profilePath = join(dir, "gpio-parked.yaml");
    const shipped = readFileSync(
      join(projectRoot(), "calibration", "profiles", "cartesian-gpio.yaml"),
      "utf8",
    );
    writeFileSync(profilePath, shipped.replace(/^homing: .*$/m, "homing: { endstops: false }"));
    const config = worldConfig(dir, { rig: { backend: "hardware", profile: profilePath } });
    const log = captureLog([]);
    // The world is the same simulated rig whatever the daemon's backend: it only reads `sim` and `rig.profile`.
    const world = SimRig.fromConfig(config, {
      clock: systemClock,
      log,
      cwd: process.cwd(),
    });
    await world.start();
    const fake = createPigpioFake({
      gantry: world.gantry,
      profile: world.profile,
      clock: systemClock,
      chipBase: 571,
    });
    const stack = new HardwareRigStack(config, {
      clock: systemClock,
      log,
      cwd: process.cwd(),
      loadGpio: async () => ({ pigpio: fake.pigpio, onoff: fake.onoff, chipBase: 571 }),
    });
    try {
      await stack.start();
      expect(stack.sim).toBeNull();
      expect(stack.transport).toContain("chip base 571");
      const status = await stack.motion.status();
      expect(status.referenced).toBe(true);
      const target = { xMm: world.profile.park.xMm - 20, yMm: world.profile.park.yMm - 10 };
      await stack.motion.run([{ kind: "travel", to: target }]);
      const at = world.gantry.positionAt();
      expect(at.xMm).toBeCloseTo(target.xMm, 1);
      expect(at.yMm).toBeCloseTo(target.yMm, 1);
      expect(fake.recorder.waves.length).toBeGreaterThan(0);
    } finally {
      await stack.stop();
      fake.dispose();
      await world.stop();
    }
  }, 30_000);
});
