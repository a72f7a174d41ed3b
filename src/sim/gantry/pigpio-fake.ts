import type { MotorSteps } from "../../rig/gpio/kinematics.js";
import { kinematicsFor } from "../../rig/gpio/kinematics.js";
import {
  type OnoffLike,
  PI_NO_TX_WAVE,
  PI_WAVE_NOT_FOUND,
  type PigpioGpio,
  type PigpioLike,
  type PigpioPulse,
} from "../../rig/gpio/pigpio-types.js";
import type { RigProfile } from "../../rig/profile.js";
import type { Clock } from "../../util/clock.js";
import type { SimGantry } from "./model.js";
import { createOnoffFake, type SwitchInputs } from "./pigpio-onoff-fake.js";
import { executeWave, wiringOf } from "./pigpio-wave-exec.js";
import { WavePool } from "./pigpio-wave-pool.js";

/**
 * A pigpio-shaped module that drives the simulated gantry: the same API subset the GPIO back-end uses on
 * a Pi, but `waveTxSend` *executes* the pulses — step edges and dir levels become carriage motion timed
 * exactly by the pulse delays — hardware PWM on the solenoid pin energises the stylus, and an onoff-shaped
 * module reads the gantry's endstops and an e-stop switch the test or simulator controls.
 */

export interface PigpioFakeOptions {
  gantry: SimGantry;
  profile: RigProfile;
  clock: Clock;
  /** sysfs number of BCM 0 the onoff side expects (kernel ≥ 6.6: 512 on a Pi 4, 571 on a Pi 5). */
  chipBase?: number;
  /** `waveGetMaxPulses()`, also the DMA pool shared by all created waves (pigpio: 12,000). */
  maxPulses?: number;
  /** How often the switch inputs are sampled for onoff `watch` edges. */
  pollMs?: number;
}

/** One transmitted wave as the pins saw it. */
export interface RecordedWave {
  id: number;
  mode: number;
  /** Clock time its first pulse went out. */
  startMs: number;
  /**
   * The same instant in whole µs since the fake was created, exact: a wave queued behind another starts
   * at the previous one's `startUs + durationUs`. (Epoch milliseconds in a double resolve only 0.24 µs,
   * too coarse to difference step intervals that are whole µs.)
   */
  startUs: number;
  pulses: readonly PigpioPulse[];
  durationUs: number;
  /** Rising-edge times (µs from `startMs`) per pin: the exact step trains. */
  rising: ReadonlyMap<number, readonly number[]>;
  /** Set when `waveTxStop` cut it short. */
  stoppedAtMs: number | null;
}

export interface PigpioRecorder {
  waves: RecordedWave[];
  pwm: { atMs: number; pin: number; frequencyHz: number; duty: number }[];
  writes: { atMs: number; pin: number; level: 0 | 1 }[];
  /** Every rising edge on `pin` across all waves, as absolute clock times (ms). */
  risingTimesMs(pin: number): number[];
  /** The same edges in exact whole µs since the fake was created (for step-interval arithmetic). */
  risingTimesUs(pin: number): number[];
  /** The drivers' step counters (what the motors received, whether or not the carriage could follow). */
  motors(): MotorSteps;
  driversEnabled(): boolean;
  initialized(): boolean;
}

export interface PigpioFake {
  pigpio: PigpioLike;
  onoff: OnoffLike;
  recorder: PigpioRecorder;
  pressEstop(): void;
  releaseEstop(): void;
  /** Stop the input polling (if a test ends without the back-end releasing its inputs). */
  dispose(): void;
}

const OUTPUT = 1;
const INPUT = 0;
const ONE_SHOT = 0;
const ONE_SHOT_SYNC = 2;

interface TxEntry {
  id: number;
  startMs: number;
  endMs: number;
  record: RecordedWave;
}

/** A transmitted wave whose pulses have not been replayed onto the gantry yet. */
interface Unplayed {
  pulses: readonly PigpioPulse[];
  startMs: number;
  /** Nothing was transmitting when it was sent: the carriage/motor offset is re-read at its start. */
  chainStart: boolean;
  record: RecordedWave;
}

export function createPigpioFake(options: PigpioFakeOptions): PigpioFake {
  const { gantry, profile, clock } = options;
  const gpio = profile.gpio;
  if (!gpio) throw new Error("pigpio fake: the profile has no gpio: section");
  const wiring = wiringOf(profile);
  const pool = new WavePool(options.maxPulses ?? 12_000);
  const levels = new Map<number, 0 | 1>();
  const kin = kinematicsFor(profile);
  // The motors start wherever the carriage physically is; only differences matter to the drivers.
  let motors = kin.toSteps(gantry.positionAt());
  let tx: TxEntry[] = [];
  let initialized = false;
  const originMs = clock.now();
  const recorded: RecordedWave[] = [];
  // pigpio's gpioWaveTxSend only points the DMA engine at the wave and returns (pigpio.h, joan2937/pigpio:
  // it "transmits the waveform"; the SYNC modes wait in the DMA engine, not in the caller); replaying the pulses
  // here (thousands of edges → carriage motion) costs milliseconds, tens of them on a loaded machine, and
  // doing it inside waveTxSend made the caller's *next* send late: a gap between waves, i.e. a speed
  // jump, that real hardware would not have. So sends are queued and replayed right after the caller's
  // synchronous code (a microtask), or earlier when anything reads the state the replay produces.
  const unplayed: Unplayed[] = [];
  let settling = false;
  // Carriage minus motor position, fixed while waves chain (see executeWave); re-read at rest.
  let offset: { xMm: number; yMm: number } | null = null;
  const recorder: PigpioRecorder = {
    get waves() {
      settle();
      return recorded;
    },
    pwm: [],
    writes: [],
    risingTimesMs(pin) {
      const out: number[] = [];
      for (const w of recorder.waves) {
        for (const us of w.rising.get(pin) ?? []) {
          const at = w.startMs + us / 1000;
          if (w.stoppedAtMs === null || at <= w.stoppedAtMs) out.push(at);
        }
      }
      return out;
    },
    risingTimesUs(pin) {
      const out: number[] = [];
      for (const w of recorder.waves) {
        const stopUs = w.stoppedAtMs === null ? Number.POSITIVE_INFINITY : (w.stoppedAtMs - originMs) * 1000;
        for (const us of w.rising.get(pin) ?? [])
          if (w.startUs + us <= stopUs + 1e-3) out.push(w.startUs + us);
      }
      return out;
    },
    motors: () => {
      settle();
      return { ...motors };
    },
    driversEnabled,
    initialized: () => initialized,
  };

  function driversEnabled(): boolean {
    const level = levels.get(gpio?.pins.enable ?? -1) ?? (gpio?.enableActiveLow ? 1 : 0);
    return gpio?.enableActiveLow ? level === 0 : level === 1;
  }

  function pwmOn(): boolean {
    const last = recorder.pwm.filter((p) => p.pin === gpio?.pins.solenoid).at(-1);
    return !!last && last.duty > 0;
  }

  function live(now: number): TxEntry[] {
    return tx.filter((e) => e.endMs > now);
  }

  /** Replay every transmitted wave not replayed yet, in send order (re-entrant calls return at once). */
  function settle(): void {
    if (settling) return;
    settling = true;
    try {
      while (unplayed.length > 0) {
        const next = unplayed.shift() as Unplayed;
        replay(next);
      }
    } finally {
      settling = false;
    }
  }

  function replay(wave: Unplayed): void {
    if (wave.chainStart || !offset) {
      // Start of a chain: pin the carriage-minus-motors offset where this wave's motion begins.
      const at = gantry.positionAt(Math.max(wave.startMs, gantry.motionEndMs()));
      const motorsAt = kin.toBed(motors);
      offset = { xMm: at.xMm - motorsAt.xMm, yMm: at.yMm - motorsAt.yMm };
    }
    const result = executeWave(wave.pulses, {
      wiring,
      profile,
      levels,
      motors,
      // As the drivers are when this wave's pulses reach them (every earlier write is applied by now).
      enabled: driversEnabled(),
      gantry,
      startMs: wave.startMs,
      offset,
    });
    motors = result.motors;
    for (const [pin, times] of result.rising) (wave.record.rising as Map<number, number[]>).set(pin, times);
  }

  class FakeGpio implements PigpioGpio {
    static readonly INPUT = INPUT;
    static readonly OUTPUT = OUTPUT;
    constructor(
      private readonly pin: number,
      init?: { mode?: number },
    ) {
      initialized = true;
      if (init?.mode !== undefined) this.mode(init.mode);
    }
    mode(_mode: number): this {
      return this;
    }
    digitalWrite(level: 0 | 1): this {
      settle();
      levels.set(this.pin, level);
      recorder.writes.push({ atMs: clock.now(), pin: this.pin, level });
      return this;
    }
    digitalRead(): number {
      settle();
      return levels.get(this.pin) ?? 0;
    }
    hardwarePwmWrite(frequency: number, dutyCycle: number): this {
      if (![12, 13, 18, 19].includes(this.pin))
        throw new Error(`pigpio: GPIO ${this.pin} has no hardware PWM`);
      if (!Number.isInteger(dutyCycle) || dutyCycle < 0 || dutyCycle > 1_000_000) {
        throw new Error(`pigpio: bad hardware PWM duty ${dutyCycle}`);
      }
      settle();
      const now = clock.now();
      recorder.pwm.push({ atMs: now, pin: this.pin, frequencyHz: frequency, duty: dutyCycle });
      if (this.pin === gpio?.pins.solenoid) gantry.setStylus(dutyCycle > 0, now);
      return this;
    }
  }

  function stopTx(): void {
    // Dated on entry: gpioWaveTxStop halts the DMA engine at once. Replaying the sent waves onto the gantry
    // (settle) can cost this fake tens of ms on a loaded machine, a GC pause more — time the real call
    // does not take, so the stop must not move with it.
    const now = clock.now();
    settle();
    const running = live(now);
    if (running.length === 0) return;
    for (const e of running) e.record.stoppedAtMs = now;
    tx = [];
    offset = null;
    // pigpio's waveTxStop leaves PWM alone, so the solenoid stays as it is.
    gantry.cut(now);
    // The drivers received only the steps sent before the stop.
    motors = kin.toSteps(gantry.positionAt(now));
  }

  const pigpio: PigpioLike = {
    Gpio: FakeGpio,
    WAVE_MODE_ONE_SHOT: ONE_SHOT,
    WAVE_MODE_ONE_SHOT_SYNC: ONE_SHOT_SYNC,
    initialize() {
      initialized = true;
    },
    terminate() {
      stopTx();
      if (pwmOn() && gpio)
        recorder.pwm.push({ atMs: clock.now(), pin: gpio.pins.solenoid, frequencyHz: 0, duty: 0 });
      gantry.setStylus(false);
      initialized = false;
    },
    waveClear: () => pool.clear(),
    waveAddGeneric: (pulses) => pool.addGeneric(pulses),
    waveCreate: () => pool.create(),
    waveDelete: (id) => pool.delete(id),
    waveTxSend(id, mode) {
      const pulses = pool.get(id);
      if (!pulses) throw new Error(`pigpio: PI_BAD_WAVE_ID ${id}`);
      if (mode !== ONE_SHOT && mode !== ONE_SHOT_SYNC)
        throw new Error(`pigpio fake: wave mode ${mode} not simulated`);
      // ONE_SHOT stops the wave on air first; the new one starts after that, as the call returns.
      if (mode === ONE_SHOT) stopTx();
      const now = clock.now();
      const pending = live(now);
      const last = pending.at(-1);
      // Behind a transmitting wave the start is exact in µs; the clock only places a wave that starts now.
      const startUs = last
        ? last.record.startUs + last.record.durationUs
        : Math.round((now - originMs) * 1000);
      const startMs = last ? last.endMs : now;
      let durationUs = 0;
      for (const p of pulses) durationUs += p.usDelay;
      const record: RecordedWave = {
        id,
        mode,
        startMs,
        startUs,
        pulses,
        durationUs,
        rising: new Map(),
        stoppedAtMs: null,
      };
      recorded.push(record);
      unplayed.push({ pulses, startMs, chainStart: !last, record });
      if (unplayed.length === 1) queueMicrotask(settle);
      tx = [...pending, { id, startMs, endMs: startMs + durationUs / 1000, record }];
      return pulses.length;
    },
    waveTxBusy() {
      return live(clock.now()).length > 0 ? 1 : 0;
    },
    waveTxAt() {
      const now = clock.now();
      const current = live(now).find((e) => e.startMs <= now) ?? live(now)[0];
      if (!current) return PI_NO_TX_WAVE;
      return pool.get(current.id) !== undefined ? current.id : PI_WAVE_NOT_FOUND;
    },
    waveTxStop() {
      stopTx();
    },
    waveGetMaxPulses() {
      return pool.maxPulses;
    },
  };

  gantry.setMotionSource(settle);
  const switches: SwitchInputs = {
    limitX: () => gantry.endstops().x,
    limitY: () => gantry.endstops().y,
    estop: () => estopPressed,
  };
  let estopPressed = false;
  const inputs = createOnoffFake({
    pins: gpio.pins,
    activeLow: gpio.inputsActiveLow,
    chipBase: options.chipBase ?? 512,
    pollMs: options.pollMs ?? 2,
    switches,
  });
  return {
    pigpio,
    onoff: inputs.onoff,
    recorder,
    pressEstop() {
      estopPressed = true;
      inputs.poll();
    },
    releaseEstop() {
      estopPressed = false;
      inputs.poll();
    },
    dispose: () => inputs.dispose(),
  };
}
