import type { RigProfile } from "../profile.js";
import type { OnoffGpio, OnoffLike } from "./pigpio-types.js";

export type InputName = "limitX" | "limitY" | "estop";

/**
 * The limit switches and the e-stop button through onoff (sysfs, so numbered chip base + BCM). Each
 * reports *active* (switch closed / button pressed) whatever the wiring polarity. Edges are watched
 * without debouncing: every reaction to an edge (halt, stop a seek) is safe to repeat.
 */
export class GpioInputs {
  private readonly inputs = new Map<InputName, OnoffGpio>();

  constructor(
    private readonly onoff: OnoffLike,
    private readonly gpio: NonNullable<RigProfile["gpio"]>,
    private readonly chipBase: number,
  ) {}

  /** Export the configured inputs and call `onChange(name, active)` on every edge. */
  open(onChange: (name: InputName, active: boolean) => void): void {
    for (const name of ["limitX", "limitY", "estop"] as const) {
      const bcm = this.gpio.pins[name];
      if (bcm === undefined) continue;
      const input = new this.onoff.Gpio(this.chipBase + bcm, "in", "both");
      this.inputs.set(name, input);
      input.watch((err, value) => {
        if (!err) onChange(name, this.isActive(value));
      });
    }
  }

  has(name: InputName): boolean {
    return this.inputs.has(name);
  }

  /** Current state (false when the input is not configured). */
  active(name: InputName): boolean {
    const input = this.inputs.get(name);
    return input ? this.isActive(input.readSync()) : false;
  }

  close(): void {
    for (const input of this.inputs.values()) {
      input.unwatchAll();
      input.unexport();
    }
    this.inputs.clear();
  }

  private isActive(value: 0 | 1): boolean {
    return this.gpio.inputsActiveLow ? value === 0 : value === 1;
  }
}
