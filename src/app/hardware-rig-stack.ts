import { existsSync } from "node:fs";
import { join } from "node:path";
import { MotionController } from "../rig/controller.js";
import { GpioBackend } from "../rig/gpio/backend.js";
import { findGpioChipBase } from "../rig/gpio/chip-base.js";
import { loadOnoff, loadPigpio } from "../rig/gpio/loader.js";
import type { OnoffLike, PigpioLike } from "../rig/gpio/pigpio-types.js";
import { GrblBackend } from "../rig/grbl/index.js";
import { filePositionStore } from "../rig/grbl/position-record.js";
import type { MotionBackend } from "../rig/motion.js";
import { type RigProfile, resolveRigProfile } from "../rig/profile.js";
import { IPHONE_61, type PhoneGeometry } from "../shared/phone-model.js";
import type { SimRig } from "../sim/rig.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { PiclawConfig } from "./config/schema.js";
import { type RigStack, type RigStackDeps, SimRigStack } from "./rig-stack.js";

/** The phone models `phone.model` may name, by name. */
const PHONE_MODELS: Record<PiclawConfig["phone"]["model"], PhoneGeometry> = { "iphone-6.1": IPHONE_61 };

/** Loads the Pi's GPIO modules; injectable so a test can refuse or fake them on any machine. */
export type GpioModulesLoader = () => Promise<{ pigpio: PigpioLike; onoff: OnoffLike; chipBase: number }>;

export interface HardwareRigDeps extends RigStackDeps {
  /** Default: the real pigpio + onoff modules and the sysfs chip base (a Pi Zero–4). */
  loadGpio?: GpioModulesLoader;
  /**
   * The state dir: a GRBL rig keeps its position record there (`grblPositionPath`) and references on
   * start only when that record vouches for the carriage. Without it a GRBL start declares the park
   * spot unconditionally, which only a test whose world starts at park may rely on.
   */
  stateDir?: string;
  /**
   * Aborted when the daemon was asked to stop: a start in progress then ends before it connects or
   * references (RIG_START_ABORTED), stopping what it had started, instead of moving after the stop.
   */
  signal?: AbortSignal;
  /**
   * The daemon's start: a GRBL rig whose origin nobody can vouch for (MOTION_ORIGIN_UNCONFIRMED) comes up
   * unreferenced — motion refused, `originUnconfirmed` saying why — so the operator can confirm park
   * through the running daemon (dashboard, `piclaw rig reference --parked`). Default: the start throws.
   */
  allowUnconfirmedOrigin?: boolean;
}

/** The GRBL driver's position record (last machine position, clean park or not) in the state dir. */
export function grblPositionPath(stateDir: string): string {
  return join(stateDir, "rig", "grbl-position.json");
}

const loadRealGpio: GpioModulesLoader = async () => {
  const pigpio = await loadPigpio();
  const onoff = await loadOnoff();
  return { pigpio, onoff, chipBase: await findGpioChipBase() };
};

/**
 * A real Pi rig (`rig.backend: hardware`): the motion driver the rig profile names — the GRBL driver on
 * the board's serial port, or the GPIO driver on pigpio — and nothing simulated. Every way the start can
 * fail (no serial device, no handshake, no pigpio) ends in a PiclawError whose message starts with the
 * config key to fix, so systemd's restart loop shows the reason instead of a stack trace.
 */
export class HardwareRigStack implements RigStack {
  private motionInstance: MotionController | null = null;
  private backend: MotionBackend | null = null;
  private profileInstance: RigProfile | null = null;
  transport = "";
  readonly sim: SimRig | null = null;
  /** Why the start could not reference (`allowUnconfirmedOrigin`), until the operator confirms park. */
  originUnconfirmed: string | null = null;

  constructor(
    private readonly config: PiclawConfig,
    private readonly deps: HardwareRigDeps,
  ) {}

  async start(): Promise<void> {
    const { config, deps } = this;
    let profile: RigProfile;
    try {
      profile = resolveRigProfile(config.rig.profile, deps.cwd);
    } catch (err) {
      throw keyed(err, "rig.profile", "RIG_PROFILE_INVALID");
    }
    this.profileInstance = profile;
    const backend = profile.backend === "grbl" ? this.grblBackend(profile) : await this.gpioBackend(profile);
    this.backend = backend;
    const motion = new MotionController(backend, profile, deps.log.child("motion"));
    try {
      aborted(deps.signal);
      await motion.start();
      aborted(deps.signal);
      await motion.reference().catch((err: unknown) => {
        if (
          !(
            deps.allowUnconfirmedOrigin &&
            err instanceof PiclawError &&
            err.code === "MOTION_ORIGIN_UNCONFIRMED"
          )
        )
          throw err;
        this.originUnconfirmed = err.message;
        deps.log.warn("motion refused until the carriage is confirmed at park", { reason: err.message });
      });
      aborted(deps.signal);
    } catch (err) {
      if (err instanceof PiclawError && err.code === "RIG_START_ABORTED") {
        await motion.stop().catch(() => undefined);
        this.backend = null;
        throw err;
      }
      await backend.stop().catch(() => undefined);
      this.backend = null;
      throw profile.backend === "grbl"
        ? keyed(err, serialKey(this.config), "RIG_SERIAL_FAILED")
        : keyed(err, "rig.profile", "RIG_GPIO_FAILED");
    }
    this.motionInstance = motion;
    deps.log.info("motion ready", {
      profile: profile.name,
      backend: backend.name,
      transport: this.transport,
    });
  }

  async stop(): Promise<void> {
    const motion = this.motionInstance;
    this.motionInstance = null;
    this.backend = null;
    await motion?.stop().catch((err) => this.deps.log.warn("motion stop failed", { err }));
  }

  get motion(): MotionController {
    if (!this.motionInstance) throw new Error("HardwareRigStack not started");
    return this.motionInstance;
  }

  get profile(): RigProfile {
    if (!this.profileInstance) throw new Error("HardwareRigStack not started");
    return this.profileInstance;
  }

  /** What the dashboard's header says: `Real rig (GRBL on /dev/ttyUSB0)`, `Real rig (GPIO via pigpio)`. */
  get label(): string {
    const backend = this.backend;
    if (backend instanceof GrblBackend) {
      const board = backend.boardFacts()?.fluidnc ? "FluidNC" : "GRBL";
      const path = this.config.rig.serialPath ?? this.profileInstance?.serial?.path;
      return `Real rig (${board} on ${path ?? "a USB serial port"})`;
    }
    return backend ? "Real rig (GPIO via pigpio)" : "Real rig (not started)";
  }

  get phoneGeometry(): PhoneGeometry {
    return PHONE_MODELS[this.config.phone.model];
  }

  private grblBackend(profile: RigProfile): GrblBackend {
    const { backend, transport } = grblBackendFor(this.config, profile, this.deps);
    this.transport = transport;
    return backend;
  }

  private async gpioBackend(profile: RigProfile): Promise<GpioBackend> {
    let modules: Awaited<ReturnType<GpioModulesLoader>>;
    try {
      modules = await (this.deps.loadGpio ?? loadRealGpio)();
    } catch (err) {
      throw new PiclawError(
        "RIG_GPIO_UNAVAILABLE",
        `rig.profile: profile ${profile.name} drives the steppers from the Pi's GPIO (profile backend: gpio), ` +
          `but ${errorMessage(err)}`,
        { key: "rig.profile", profile: profile.name },
        { cause: err },
      );
    }
    this.transport = `pigpio waves (GPIO chip base ${modules.chipBase})`;
    return new GpioBackend({
      profile,
      pigpio: modules.pigpio,
      onoff: modules.onoff,
      clock: this.deps.clock,
      log: this.deps.log.child("motion"),
      gpioChipBase: modules.chipBase,
    });
  }
}

/** The rig in plain words for people: `Simulated rig`, or the real one's board and port. */
export function rigLabel(stack: RigStack): string {
  if (stack.sim) return "Simulated rig";
  return stack instanceof HardwareRigStack ? stack.label : "Real rig";
}

/** The rig `rig.backend` names. */
export function createRigStack(config: PiclawConfig, deps: HardwareRigDeps): RigStack {
  return config.rig.backend === "hardware"
    ? new HardwareRigStack(config, deps)
    : new SimRigStack(config, deps);
}

/** `err` as a PiclawError whose message starts with the config key that decides it. */
function keyed(err: unknown, key: string, fallbackCode: string): PiclawError {
  const code = err instanceof PiclawError ? err.code : fallbackCode;
  const details = err instanceof PiclawError ? err.details : undefined;
  return new PiclawError(code, `${key}: ${errorMessage(err)}`, { ...(details ?? {}), key }, { cause: err });
}

/** The key that chose the serial device: the config's, else the profile's. */
function serialKey(config: PiclawConfig): string {
  return config.rig.serialPath === undefined
    ? "rig.serialPath (or the profile's serial.*)"
    : "rig.serialPath";
}

/**
 * The GRBL driver for the configured board (not started): the device from `rig.serialPath` or the
 * profile, the config's baud rate, and the position record in `deps.stateDir`. Throws RIG_SERIAL_MISSING
 * naming the key when the device is not there. Shared by the rig stack and `piclaw rig`.
 */
export function grblBackendFor(
  config: PiclawConfig,
  profile: RigProfile,
  deps: { log: HardwareRigDeps["log"]; stateDir?: string },
): { backend: GrblBackend; transport: string } {
  const { rig } = config;
  const path = rig.serialPath ?? profile.serial?.path;
  if (path !== undefined && !existsSync(path)) {
    throw new PiclawError(
      "RIG_SERIAL_MISSING",
      `${serialKey(config)}: no serial device at ${path}. Is the GRBL/FluidNC board plugged in and powered? ` +
        "Set rig.serialPath to its device (see `ls /dev/serial/by-id/`).",
      { key: "rig.serialPath", path },
    );
  }
  const baudRate = rig.baudRate ?? profile.serial?.baudRate ?? 115_200;
  // The profile carries the baud rate the driver opens the port with: the config's wins.
  const withSerial: RigProfile = {
    ...profile,
    serial: { usbIds: [], ...profile.serial, baudRate, ...(path !== undefined ? { path } : {}) },
  };
  const transport =
    path !== undefined
      ? `serial ${path} at ${baudRate} baud`
      : `serial port found by USB id [${(profile.serial?.usbIds ?? []).join(", ")}] at ${baudRate} baud`;
  const backend = new GrblBackend({
    profile: withSerial,
    log: deps.log.child("motion"),
    ...(path !== undefined ? { path } : {}),
    ...(deps.stateDir !== undefined ? { positions: filePositionStore(grblPositionPath(deps.stateDir)) } : {}),
  });
  return { backend, transport };
}

/** Throws RIG_START_ABORTED once `signal` is aborted (a stop was requested during the start). */
function aborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new PiclawError("RIG_START_ABORTED", "the rig start was abandoned: the daemon is stopping");
}
