import type { Logger } from "../../log/logger.js";
import type { Clock } from "../../util/clock.js";
import { PiclawError } from "../../util/errors.js";
import { sleep } from "../../util/sleep.js";
import type { MotionBackend, MotionState, MotionStatus, MotionStep } from "../motion.js";
import type { RigProfile } from "../profile.js";
import { findGpioChipBase } from "./chip-base.js";
import { homeAxis } from "./homing.js";
import { GpioInputs, type InputName } from "./inputs.js";
import { abortError, Interrupt } from "./interrupt.js";
import { type Kinematics, kinematicsFor, type MotorSteps } from "./kinematics.js";
import type { OnoffLike, PigpioGpio, PigpioLike } from "./pigpio-types.js";
import { Solenoid } from "./solenoid.js";
import { planMove } from "./wave-planner.js";
import { WaveRunner } from "./wave-runner.js";

export interface GpioBackendOptions {
  profile: RigProfile;
  /** The pigpio module (`loadPigpio()` on a Pi; the simulated gantry's fake elsewhere). */
  pigpio: PigpioLike;
  /** The onoff module for the switch inputs (`loadOnoff()` on a Pi). */
  onoff: OnoffLike;
  /** Timestamps for wave starts (position estimates); the step timing itself is pigpio's. */
  clock: Clock;
  log: Logger;
  /** sysfs number of BCM 0; when absent it is read from `sysfsRoot` (never assumed to be 0). */
  gpioChipBase?: number;
  /** The sysfs GPIO class directory holding the `gpiochip<N>` entries (default `/sys/class/gpio`). */
  sysfsRoot?: string;
}

/** A limit switch closing farther than this from the origin (as commanded) is a crash, not homing. */
const HARD_LIMIT_ZONE_MM = 1;
/** Drivers (A4988, TMC2209) need a moment after enable before they take steps. */
const ENABLE_SETTLE_MS = 2;

/**
 * Direct-GPIO motion: step/dir stepper drivers timed by pigpio DMA waves (see `wave-planner.ts`), the
 * solenoid on hardware PWM, limit switches and an e-stop button through onoff. Pi Zero–4 only (pigpio).
 */
export class GpioBackend implements MotionBackend {
  readonly name = "gpio";
  private readonly kin: Kinematics;
  private readonly runner: WaveRunner;
  private outputs: { enable: PigpioGpio } | null = null;
  private solenoid: Solenoid | null = null;
  private inputs: GpioInputs | null = null;
  private state: MotionState = "disconnected";
  private motors: MotorSteps = { a: 0, b: 0 };
  private referenced = false;
  private alarm: { code: string; message: string } | undefined;
  private driversOn = false;
  private program: Interrupt | null = null;
  private holding = false;
  private resumeWaiters: (() => void)[] = [];
  private homing: InputName | null = null;

  constructor(private readonly o: GpioBackendOptions) {
    this.kin = kinematicsFor(o.profile);
    this.runner = new WaveRunner(o.pigpio, o.clock, o.log);
  }

  private get gpio(): NonNullable<RigProfile["gpio"]> {
    const gpio = this.o.profile.gpio;
    if (!gpio)
      throw new PiclawError("PROFILE_INVALID", "the GPIO back-end needs the profile's gpio: section");
    return gpio;
  }

  async start(): Promise<void> {
    const gpio = this.gpio;
    checkPins(gpio.pins);
    const { pigpio } = this.o;
    pigpio.initialize();
    const out = (pin: number, level: 0 | 1) => {
      const g = new pigpio.Gpio(pin, { mode: pigpio.Gpio.OUTPUT });
      g.digitalWrite(level);
      return g;
    };
    for (const pin of [gpio.pins.stepA, gpio.pins.stepB, gpio.pins.dirA, gpio.pins.dirB]) out(pin, 0);
    this.outputs = { enable: out(gpio.pins.enable, gpio.enableActiveLow ? 1 : 0) };
    const { stylus } = this.o.profile;
    this.solenoid = new Solenoid({
      pin: new pigpio.Gpio(gpio.pins.solenoid, { mode: pigpio.Gpio.OUTPUT }),
      frequencyHz: stylus.pwmFrequencyHz,
      strikePower: stylus.strikePower,
      holdPower: stylus.holdPower,
      maxOnMs: stylus.maxOnMs,
      clock: this.o.clock,
      onWatchdog: (ms) => this.onWatchdog(ms),
    });
    this.solenoid.off();
    await this.enableDrivers();
    const base = this.o.gpioChipBase ?? (await findGpioChipBase(this.o.sysfsRoot));
    this.inputs = new GpioInputs(this.o.onoff, gpio, base);
    this.inputs.open((name, active) => this.onInput(name, active));
    this.motors = this.kin.toSteps(this.o.profile.park);
    this.referenced = false;
    this.state = "idle";
    if (this.inputs.active("estop")) this.haltNow("e-stop button is pressed");
    this.o.log.info("gpio motion up", { chipBase: base, profile: this.o.profile.name });
  }

  async stop(): Promise<void> {
    if (this.state === "disconnected") return;
    this.solenoid?.off();
    try {
      if (this.referenced && this.state === "idle")
        await this.run([{ kind: "travel", to: this.o.profile.park }]);
    } catch (err) {
      this.o.log.warn("could not park on stop", { err });
    }
    this.runner.stop();
    this.setDrivers(false);
    this.inputs?.close();
    this.inputs = null;
    this.o.pigpio.terminate();
    this.state = "disconnected";
  }

  async reference(): Promise<void> {
    this.requireStarted();
    if (this.program) throw new PiclawError("MOTION_BUSY", "a program is running");
    if (this.inputs?.active("estop")) {
      throw new PiclawError(
        "MOTION_ESTOP",
        "the e-stop button is still pressed: release it before referencing",
      );
    }
    this.state = "idle";
    this.alarm = undefined;
    this.referenced = false;
    if (!this.o.profile.homing.endstops) {
      // Parked origin: the carriage was put at the park spot by hand before power-on.
      this.motors = this.kin.toSteps(this.o.profile.park);
      this.referenced = true;
      return;
    }
    const run = new Interrupt();
    this.program = run;
    try {
      await this.enableDrivers();
      for (const axis of ["x", "y"] as const) await homeAxis(this.homingContext(run), axis);
      this.referenced = true;
    } catch (err) {
      // Input callbacks may have changed the state meanwhile (an e-stop keeps its own state).
      if ((this.state as MotionState) !== "estop") {
        this.raiseAlarm("MOTION_HOMING_FAILED", (err as Error).message);
      }
      throw err;
    } finally {
      this.homing = null;
      this.program = null;
      if ((this.state as MotionState) === "moving") this.state = "idle";
    }
  }

  async run(program: readonly MotionStep[], signal?: AbortSignal): Promise<void> {
    this.requireStarted();
    if (this.state === "estop") throw new PiclawError("MOTION_ESTOP", "e-stop latched: reference() first");
    if (this.state === "alarm") throw new PiclawError("MOTION_ALARM", `alarm: ${this.alarm?.message ?? "?"}`);
    if (!this.referenced) throw new PiclawError("MOTION_NOT_REFERENCED", "reference() before moving");
    if (this.program) throw new PiclawError("MOTION_BUSY", "a program is running");
    const run = new Interrupt();
    this.program = run;
    const onAbort = () => {
      this.runner.hold();
      run.fail(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (signal?.aborted) throw abortError();
      await this.enableDrivers();
      for (const step of program) {
        await this.waitWhileHeld(run);
        run.check();
        await this.execute(step, run);
      }
      run.check();
    } catch (err) {
      this.solenoid?.off();
      throw err;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.program = null;
      if (this.state === "moving") this.state = "idle";
    }
  }

  async status(): Promise<MotionStatus> {
    const motors = this.runner.active ? this.runner.positionNow() : this.motors;
    return {
      state: this.state,
      position: this.kin.toBed(motors),
      stylusDown: this.solenoid?.isDown ?? false,
      referenced: this.referenced,
      ...(this.alarm ? { alarm: { ...this.alarm } } : {}),
    };
  }

  /** Hold only means something while a program runs: decelerate the move, pause before the next step. */
  async feedHold(): Promise<void> {
    if (!this.program || (this.state !== "moving" && this.state !== "idle")) return;
    this.holding = true;
    this.runner.hold();
    this.state = "hold";
  }

  async resume(): Promise<void> {
    if (!this.holding) return;
    this.holding = false;
    if (this.state === "hold") this.state = this.program ? "moving" : "idle";
    for (const wake of this.resumeWaiters.splice(0)) wake();
  }

  async halt(reason: string): Promise<void> {
    this.haltNow(reason);
  }

  async disableDrivers(): Promise<void> {
    if (this.program) throw new PiclawError("MOTION_BUSY", "cannot disable the drivers while a program runs");
    this.setDrivers(false);
  }

  /** Move in a straight line to absolute motor steps, riding out holds; false if stopped short. */
  private async moveTo(target: MotorSteps, run: Interrupt, feedMmPerMin?: number): Promise<boolean> {
    for (;;) {
      run.check();
      const plan = planMove(this.o.profile, this.motors, target, feedMmPerMin);
      this.state = "moving";
      const outcome = await this.runner.run(plan);
      this.motors = outcome.position;
      if (this.state === "moving") this.state = "idle";
      if (outcome.end === "done") return true;
      if (outcome.end === "stopped") return false;
      // "held" or "underrun": the motors are at rest short of the target; the next plan starts from rest.
      await this.waitWhileHeld(run);
    }
  }

  private async execute(step: MotionStep, run: Interrupt): Promise<void> {
    switch (step.kind) {
      case "travel":
      case "feed": {
        const feed = step.kind === "feed" ? step.feedMmPerMin : undefined;
        if (!(await this.moveTo(this.kin.toSteps(step.to), run, feed))) run.check();
        return;
      }
      case "stylus":
        if (!step.down) {
          this.solenoid?.off();
          return;
        }
        if (this.solenoid?.isDown) return;
        // Motion has finished here: run() awaits every move to its end before the next step.
        this.solenoid?.strike();
        await run.sleep(this.o.profile.stylus.strikeMs);
        this.solenoid?.hold();
        return;
      case "dwell":
        await run.sleep(step.ms);
        return;
    }
  }

  private waitWhileHeld(run: Interrupt): Promise<void> {
    if (!this.holding) return Promise.resolve();
    return run.until((resolve) => {
      this.resumeWaiters.push(resolve);
      return () => {
        this.resumeWaiters = this.resumeWaiters.filter((w) => w !== resolve);
      };
    });
  }

  /** Synchronous on purpose: input callbacks call it, and the wave must stop before anything awaits. */
  private haltNow(reason: string): void {
    const here = this.runner.stop();
    if (here) this.motors = here;
    this.solenoid?.off();
    if (this.state === "disconnected") return;
    this.state = "estop";
    this.referenced = false;
    this.holding = false;
    this.o.log.warn("motion halted", { reason, position: this.kin.toBed(this.motors) });
    this.program?.fail(new PiclawError("MOTION_HALTED", `motion halted: ${reason}`, { reason }));
  }

  private raiseAlarm(code: string, message: string): void {
    this.state = "alarm";
    this.referenced = false;
    this.alarm = { code, message };
  }

  private onInput(name: InputName, active: boolean): void {
    if (name === "estop") {
      if (active) this.haltNow("e-stop button");
      return;
    }
    if (!active) return;
    if (this.homing === name) {
      const here = this.runner.stop();
      if (here) this.motors = here;
      return;
    }
    if (!this.runner.active) return;
    const p = this.kin.toBed(this.runner.positionNow());
    const along = name === "limitX" ? p.xMm : p.yMm;
    if (along <= HARD_LIMIT_ZONE_MM) return;
    const here = this.runner.stop();
    if (here) this.motors = here;
    this.solenoid?.off();
    const message = `hard limit: ${name} closed at ${along.toFixed(2)} mm (lost steps or a crash)`;
    this.raiseAlarm("MOTION_HARD_LIMIT", message);
    this.o.log.error("hard limit", { input: name, position: p });
    this.program?.fail(new PiclawError("MOTION_HARD_LIMIT", message, { input: name }));
  }

  private onWatchdog(ms: number): void {
    this.o.log.error("stylus watchdog forced the solenoid off", { ms });
    this.program?.fail(
      new PiclawError(
        "MOTION_STYLUS_TIMEOUT",
        `the stylus was down ${Math.round(ms)} ms, over stylus.maxOnMs ${this.o.profile.stylus.maxOnMs}: forced off`,
      ),
    );
  }

  private homingContext(run: Interrupt) {
    return {
      profile: this.o.profile,
      kin: this.kin,
      run,
      position: () => this.motors,
      setPosition: (m: MotorSteps) => {
        this.motors = m;
      },
      switchActive: (name: InputName) => this.inputs?.active(name) ?? false,
      hasSwitch: (name: InputName) => this.inputs?.has(name) ?? false,
      watchSwitch: (name: InputName | null) => {
        this.homing = name;
      },
      moveTo: (target: MotorSteps, feed: number) => this.moveTo(target, run, feed),
    };
  }

  private async enableDrivers(): Promise<void> {
    if (this.driversOn) return;
    this.setDrivers(true);
    await sleep(ENABLE_SETTLE_MS);
  }

  private setDrivers(on: boolean): void {
    const enableActiveLow = this.gpio.enableActiveLow;
    this.outputs?.enable.digitalWrite(on === enableActiveLow ? 0 : 1);
    this.driversOn = on;
  }

  private requireStarted(): void {
    if (this.state === "disconnected")
      throw new PiclawError("MOTION_NOT_STARTED", "start() the back-end first");
  }
}

/** Waves address GPIO 1–31 by number (0 means "none" to pigpio); hardware PWM exists on 12/13/18/19. */
function checkPins(pins: NonNullable<RigProfile["gpio"]>["pins"]): void {
  const wave = { stepA: pins.stepA, dirA: pins.dirA, stepB: pins.stepB, dirB: pins.dirB };
  for (const [name, pin] of Object.entries(wave)) {
    if (pin < 1 || pin > 31) {
      throw new PiclawError(
        "PROFILE_INVALID",
        `gpio.pins.${name}: ${pin} cannot be driven by a pigpio wave (use 1–31)`,
      );
    }
  }
  if (
    new Set(Object.values(pins).filter((p) => p !== undefined)).size !==
    Object.values(pins).filter((p) => p !== undefined).length
  ) {
    throw new PiclawError("PROFILE_INVALID", "gpio.pins: every pin must be different");
  }
  if (![12, 13, 18, 19].includes(pins.solenoid)) {
    throw new PiclawError(
      "PROFILE_INVALID",
      `gpio.pins.solenoid: ${pins.solenoid} has no hardware PWM (use 12, 13, 18 or 19)`,
    );
  }
}
