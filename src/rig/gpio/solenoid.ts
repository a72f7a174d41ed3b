import type { Clock } from "../../util/clock.js";
import type { PigpioGpio } from "./pigpio-types.js";

export interface SolenoidOptions {
  pin: PigpioGpio;
  frequencyHz: number;
  strikePower: number;
  holdPower: number;
  maxOnMs: number;
  clock: Clock;
  /** Called after the watchdog forced the solenoid off. */
  onWatchdog(energisedMs: number): void;
}

/**
 * The stylus solenoid on a hardware-PWM pin through a MOSFET: full strike power to overcome the spring,
 * then hold power so the coil stays cool; off is duty 0. A watchdog forces it off after `maxOnMs` whatever
 * the program does, because a stuck-on coil overheats and keeps pressing the screen.
 */
export class Solenoid {
  private watchdog: NodeJS.Timeout | null = null;
  private downSinceMs: number | null = null;

  constructor(private readonly o: SolenoidOptions) {}

  get isDown(): boolean {
    return this.downSinceMs !== null;
  }

  /** Energise at strike power (and arm the watchdog). */
  strike(): void {
    this.write(this.o.strikePower);
    if (this.downSinceMs !== null) return;
    this.downSinceMs = this.o.clock.now();
    this.watchdog = setTimeout(() => {
      const since = this.downSinceMs ?? this.o.clock.now();
      this.off();
      this.o.onWatchdog(this.o.clock.now() - since);
    }, this.o.maxOnMs);
  }

  /** Drop to hold power (only while energised). */
  hold(): void {
    if (this.downSinceMs !== null) this.write(this.o.holdPower);
  }

  off(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.downSinceMs = null;
    this.write(0);
  }

  private write(power: number): void {
    const duty = Math.round(Math.min(Math.max(power, 0), 1) * 1_000_000);
    this.o.pin.hardwarePwmWrite(this.o.frequencyHz, duty);
  }
}
