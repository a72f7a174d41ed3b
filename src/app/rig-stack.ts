import type { Logger } from "../log/logger.js";
import { MotionController } from "../rig/controller.js";
import { GpioBackend } from "../rig/gpio/backend.js";
import { GrblBackend } from "../rig/grbl/index.js";
import type { MotionBackend } from "../rig/motion.js";
import type { RigProfile } from "../rig/profile.js";
import type { PhoneGeometry } from "../shared/phone-model.js";
import { eepromConfiguredFor } from "../sim/gantry/grbl-eeprom.js";
import { type SimGrblLink, startSimGrblLink } from "../sim/gantry/grbl-link.js";
import { createPigpioFake } from "../sim/gantry/pigpio-fake.js";
import { SimRig } from "../sim/rig.js";
import type { Clock } from "../util/clock.js";
import type { PiclawConfig } from "./config/schema.js";

/** The simulated Pi's sysfs GPIO base (a Pi 4 on a ≥6.6 kernel). */
const SIM_CHIP_BASE = 512;

export interface RigStackDeps {
  clock: Clock;
  log: Logger;
  /** Base for relative paths in the config (the config file's folder). */
  cwd: string;
}

/**
 * The rig as the daemon, doctor and calibration see it, simulated or real: a started motion controller
 * over the profile's back-end, and the phone's geometry. `start()` leaves the controller referenced
 * (homed or parked origin) — or, for the daemon, unreferenced with `originUnconfirmed` saying why — or
 * throws a PiclawError naming the config key to fix; `stop()` lifts, parks
 * and releases every handle, and is safe after a failed or partial start.
 */
export interface RigStack {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The motion controller (throws before `start()`). */
  readonly motion: MotionController;
  /** The rig profile in use (`rig.profile`). */
  readonly profile: RigProfile;
  /** The phone on the bed (throws before `start()` on the simulated rig). */
  readonly phoneGeometry: PhoneGeometry;
  /** The simulated rig behind a `sim` back-end; null on hardware. */
  readonly sim: SimRig | null;
  /** How the back-end reaches the gantry, for logs and `piclaw doctor` ("" before start). */
  readonly transport: string;
  /** Set when the start left the arm unreferenced because nobody can vouch for its origin (why). */
  readonly originUnconfirmed?: string | null;
}

/**
 * The simulated appliance's hardware side, assembled the way a Pi's is: the motion controller drives a
 * real back-end (the GRBL driver over a serial tty, or the GPIO driver over a pigpio-shaped module), and
 * only the far side of that boundary is simulated (a GRBL board on a pty, or pigpio executing waves), so
 * every gesture crosses the same protocol a real rig does before it becomes a touch on the phone.
 */
export class SimRigStack implements RigStack {
  private rigInstance: SimRig | null = null;
  private motionInstance: MotionController | null = null;
  private link: SimGrblLink | null = null;
  private disposeFake: (() => void) | null = null;
  /** How the back-end reaches the simulated gantry, for the start-up log. */
  transport = "";

  constructor(
    private readonly config: PiclawConfig,
    private readonly deps: RigStackDeps,
  ) {}

  async start(): Promise<void> {
    const { deps } = this;
    const rig = SimRig.fromConfig(this.config, {
      clock: deps.clock,
      log: deps.log.child("sim"),
      cwd: deps.cwd,
    });
    await rig.start();
    this.rigInstance = rig;
    const backend = await this.backendFor(rig);
    const motion = new MotionController(backend, rig.profile, deps.log.child("motion"));
    this.motionInstance = motion;
    await motion.start();
    await motion.reference();
    deps.log.info("motion ready", {
      profile: rig.profile.name,
      backend: backend.name,
      transport: this.transport,
    });
  }

  async stop(): Promise<void> {
    await this.motionInstance?.stop().catch((err) => this.deps.log.warn("motion stop failed", { err }));
    this.motionInstance = null;
    await this.link?.stop();
    this.link = null;
    this.disposeFake?.();
    this.disposeFake = null;
    await this.rigInstance?.stop();
    this.rigInstance = null;
  }

  get rig(): SimRig {
    if (!this.rigInstance) throw new Error("SimRigStack not started");
    return this.rigInstance;
  }

  get motion(): MotionController {
    if (!this.motionInstance) throw new Error("SimRigStack not started");
    return this.motionInstance;
  }

  get profile(): RigProfile {
    return this.rig.profile;
  }

  get phoneGeometry(): PhoneGeometry {
    return this.rig.phone.geometry;
  }

  get sim(): SimRig {
    return this.rig;
  }

  private async backendFor(rig: SimRig): Promise<MotionBackend> {
    const { profile } = rig;
    const log = this.deps.log.child("motion");
    if (profile.backend === "grbl") {
      // The simulated board is one its owner already configured (`piclaw rig settings --apply`).
      const eeprom = eepromConfiguredFor(profile);
      this.link = await startSimGrblLink({
        gantry: rig.gantry,
        profile,
        log: this.deps.log.child("sim"),
        eeprom,
      });
      this.transport = `serial ${this.link.devicePath} (simulated GRBL board)`;
      return new GrblBackend({ profile, log, path: this.link.devicePath });
    }
    // GPIO: the real driver on a pigpio-/onoff-shaped module that executes its waves on the gantry.
    const fake = createPigpioFake({
      gantry: rig.gantry,
      profile,
      clock: this.deps.clock,
      chipBase: SIM_CHIP_BASE,
    });
    this.disposeFake = () => fake.dispose();
    this.transport = "pigpio waves (simulated Pi GPIO)";
    return new GpioBackend({
      profile,
      pigpio: fake.pigpio,
      onoff: fake.onoff,
      clock: this.deps.clock,
      log,
      gpioChipBase: SIM_CHIP_BASE,
    });
  }
}
