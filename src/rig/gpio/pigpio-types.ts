/**
 * The parts of the `pigpio` (fivdi/pigpio 3.x) and `onoff` (6.x) npm modules the GPIO back-end uses,
 * typed here because neither module loads off a Pi (native addons). The back-end receives objects of
 * these shapes by injection: the real modules on a Pi (see `loader.ts`), the simulated gantry's fake in
 * tests and the simulator.
 */

/**
 * One pigpio wave pulse. NB fivdi/pigpio takes a *GPIO number* (not a mask) in `gpioOn`/`gpioOff` and
 * turns it into `1 << n`; 0 means "no GPIO". So one pulse switches at most one pin on and one off, GPIO 0
 * cannot be used in waves, and simultaneous edges are consecutive pulses with `usDelay: 0`.
 */
export interface PigpioPulse {
  gpioOn: number;
  gpioOff: number;
  /** Time until the next pulse, µs. */
  usDelay: number;
}

/** `new pigpio.Gpio(n, { mode })`: one BCM pin. */
export interface PigpioGpio {
  mode(mode: number): unknown;
  digitalWrite(level: 0 | 1): unknown;
  digitalRead(): number;
  /** Hardware PWM (GPIO 12/13/18/19 only): frequency in Hz, duty cycle in millionths (0…1,000,000). */
  hardwarePwmWrite(frequency: number, dutyCycle: number): unknown;
}

export interface PigpioGpioClass {
  new (gpio: number, options?: { mode?: number }): PigpioGpio;
  readonly INPUT: number;
  readonly OUTPUT: number;
}

/** The pigpio module: the `Gpio` class plus the module-level wave functions. */
export interface PigpioLike {
  readonly Gpio: PigpioGpioClass;
  /** Start the pigpio library (the module also does this lazily on the first `new Gpio`). */
  initialize(): void;
  /** Release DMA channels and the PWM/PCM peripherals. */
  terminate(): void;
  waveClear(): void;
  /** Adds pulses to the wave being built (merged by time with earlier adds); returns its pulse count. */
  waveAddGeneric(pulses: readonly PigpioPulse[]): number;
  /** Turns the pulses added so far into a wave; returns its id (throws when the DMA pool is full). */
  waveCreate(): number;
  waveDelete(waveId: number): void;
  /** Start a wave. `WAVE_MODE_ONE_SHOT_SYNC` starts it seamlessly when the current wave ends. */
  waveTxSend(waveId: number, waveMode: number): number;
  /** Non-zero while a wave is being transmitted. */
  waveTxBusy(): number;
  /** Id of the wave being transmitted, or 9999 (`PI_NO_TX_WAVE`) / 9998 (`PI_WAVE_NOT_FOUND`). */
  waveTxAt(): number;
  /** Stop transmitting now (the pins keep their current levels). */
  waveTxStop(): void;
  /** The largest number of pulses one wave may hold (the DMA pool is shared by all created waves). */
  waveGetMaxPulses(): number;
  readonly WAVE_MODE_ONE_SHOT: number;
  readonly WAVE_MODE_ONE_SHOT_SYNC: number;
}

/** pigpio's `waveTxAt()` answer when nothing is transmitting. */
export const PI_NO_TX_WAVE = 9999;
/** pigpio's `waveTxAt()` answer when the transmitting wave was deleted. */
export const PI_WAVE_NOT_FOUND = 9998;

export type OnoffValue = 0 | 1;
export type OnoffCallback = (err: Error | null | undefined, value: OnoffValue) => void;

/** `new onoff.Gpio(n, "in", "both", { debounceTimeout })`: a sysfs GPIO input (n = chip base + BCM). */
export interface OnoffGpio {
  readSync(): OnoffValue;
  watch(callback: OnoffCallback): void;
  unwatchAll(): void;
  unexport(): void;
}

export interface OnoffLike {
  readonly Gpio: new (
    gpio: number,
    direction: "in",
    edge?: "none" | "rising" | "falling" | "both",
    options?: { debounceTimeout?: number },
  ) => OnoffGpio;
}
