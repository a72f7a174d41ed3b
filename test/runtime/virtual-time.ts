import type { TimerScheduler } from "../../src/rig/owner.js";
import { ManualClock } from "../../src/util/clock.js";

/**
 * Virtual time for the runtime: a ManualClock plus one-shot timers that fire only when the test
 * advances time. After each timer it lets pending work finish (`quiesce`, e.g. the runtime's tick,
 * which may do real I/O such as rendering the simulated phone) before moving on.
 */
export class VirtualTime implements TimerScheduler {
  private timers: Array<{ due: number; seq: number; fn: () => void }> = [];
  private seq = 0;
  quiesce: () => Promise<void> = async () => {};

  constructor(readonly clock: ManualClock = new ManualClock()) {}

  now(): number {
    return this.clock.now();
  }

  set(callback: () => void, ms: number): () => void {
    const timer = { due: this.clock.now() + ms, seq: this.seq++, fn: callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Move time forward by `ms`, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    const end = this.clock.now() + ms;
    await this.settle();
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!next || next.due > end) break;
      this.timers = this.timers.filter((t) => t !== next);
      if (next.due > this.clock.now()) this.clock.set(next.due);
      next.fn();
      await this.settle();
    }
    if (end > this.clock.now()) this.clock.set(end);
    await this.settle();
  }

  private async settle(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.quiesce();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
