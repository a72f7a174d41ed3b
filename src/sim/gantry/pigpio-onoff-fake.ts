import type { OnoffCallback, OnoffGpio, OnoffLike, OnoffValue } from "../../rig/gpio/pigpio-types.js";

/** The physical switches behind the inputs: true = closed (pressed / carriage on the endstop). */
export interface SwitchInputs {
  limitX(): boolean;
  limitY(): boolean;
  estop(): boolean;
}

export interface OnoffFakeOptions {
  pins: { limitX?: number | undefined; limitY?: number | undefined; estop?: number | undefined };
  /** Switches pull the line to ground (pull-up): closed reads 0. */
  activeLow: boolean;
  /** sysfs number of BCM 0; opening any other number fails like exporting a wrong GPIO does. */
  chipBase: number;
  pollMs: number;
  switches: SwitchInputs;
}

/**
 * An onoff-shaped module over the simulated switches: sysfs numbering (chip base + BCM), raw levels, and
 * `watch` callbacks on every edge, found by sampling the switches every `pollMs` while anything watches.
 */
export function createOnoffFake(options: OnoffFakeOptions): {
  onoff: OnoffLike;
  poll(): void;
  dispose(): void;
} {
  const watched = new Set<FakeInput>();
  let timer: NodeJS.Timeout | null = null;

  function switchFor(bcm: number): (() => boolean) | null {
    const { pins, switches } = options;
    if (bcm === pins.limitX) return () => switches.limitX();
    if (bcm === pins.limitY) return () => switches.limitY();
    if (bcm === pins.estop) return () => switches.estop();
    return null;
  }

  function poll(): void {
    for (const input of [...watched]) input.sample();
  }

  function updateTimer(): void {
    if (watched.size > 0 && !timer) timer = setInterval(poll, options.pollMs);
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  class FakeInput implements OnoffGpio {
    private readonly closed: () => boolean;
    private callbacks: OnoffCallback[] = [];
    private last: OnoffValue;
    private exported = true;

    constructor(gpio: number, direction: "in", edge?: "none" | "rising" | "falling" | "both") {
      const bcm = gpio - options.chipBase;
      const closed = switchFor(bcm);
      if (direction !== "in" || !closed) {
        throw new Error(`EINVAL: invalid argument, write '${gpio}' to /sys/class/gpio/export`);
      }
      if (edge !== undefined && edge !== "both" && edge !== "none") {
        throw new Error(`onoff fake: edge ${edge} not simulated`);
      }
      this.closed = closed;
      this.last = this.readSync();
    }

    readSync(): OnoffValue {
      if (!this.exported) throw new Error("EBADF: gpio unexported");
      return this.closed() !== options.activeLow ? 1 : 0;
    }

    watch(callback: OnoffCallback): void {
      this.callbacks.push(callback);
      watched.add(this);
      updateTimer();
    }

    unwatchAll(): void {
      this.callbacks = [];
      watched.delete(this);
      updateTimer();
    }

    unexport(): void {
      this.unwatchAll();
      this.exported = false;
    }

    sample(): void {
      if (!this.exported) return;
      const value = this.readSync();
      if (value === this.last) return;
      this.last = value;
      for (const cb of [...this.callbacks]) cb(null, value);
    }
  }

  return {
    onoff: { Gpio: FakeInput },
    poll,
    dispose() {
      watched.clear();
      updateTimer();
    },
  };
}
