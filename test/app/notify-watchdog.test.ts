import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Watchdog, watchdogPingIntervalMs } from "../../src/app/watchdog.js";
import { quietLog } from "../fakes/log.js";
import { FakeNotifier } from "../fakes/notifier.js";

describe("watchdogPingIntervalMs (sd_watchdog_enabled rules)", () => {
  it("is half of WATCHDOG_USEC, in ms", () => {
    expect(watchdogPingIntervalMs({ WATCHDOG_USEC: "30000000" }, 42)).toBe(15_000);
    expect(watchdogPingIntervalMs({ WATCHDOG_USEC: "30000000", WATCHDOG_PID: "42" }, 42)).toBe(15_000);
  });

  it("is off when unset, malformed, zero, or meant for another process", () => {
    expect(watchdogPingIntervalMs({}, 42)).toBeNull();
    expect(watchdogPingIntervalMs({ WATCHDOG_USEC: "abc" }, 42)).toBeNull();
    expect(watchdogPingIntervalMs({ WATCHDOG_USEC: "-5" }, 42)).toBeNull();
    expect(watchdogPingIntervalMs({ WATCHDOG_USEC: "0" }, 42)).toBeNull();
    expect(watchdogPingIntervalMs({ WATCHDOG_USEC: "30000000", WATCHDOG_PID: "7" }, 42)).toBeNull();
  });
});

describe("Watchdog cadence (virtual time)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const watchings = (n: FakeNotifier) => n.lines().filter((l) => l === "WATCHDOG=1").length;

  it("pings at once, then every half WatchdogSec, and stops on stop()", async () => {
    const notifier = new FakeNotifier();
    const interval = watchdogPingIntervalMs({ WATCHDOG_USEC: "30000000" }, 1);
    const dog = new Watchdog(notifier, interval, quietLog());
    dog.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(watchings(notifier)).toBe(1);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(watchings(notifier)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(watchings(notifier)).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(watchings(notifier)).toBe(6);
    dog.stop();
    expect(dog.active).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(watchings(notifier)).toBe(6);
  });

  it("does not double up while a ping is still in flight (the helper waiting on systemd)", async () => {
    let release: () => void = () => undefined;
    const sent: string[] = [];
    const slow = {
      enabled: true,
      notify: (fields: Record<string, string>) => {
        sent.push(Object.keys(fields).join());
        return new Promise<boolean>((resolve) => {
          release = () => resolve(true);
        });
      },
      close: async () => undefined,
    };
    const dog = new Watchdog(slow, 1_000, quietLog());
    dog.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sent).toHaveLength(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toHaveLength(2);
    dog.stop();
  });

  it("stays off without an interval or without a supervisor", async () => {
    const notifier = new FakeNotifier();
    new Watchdog(notifier, null, quietLog()).start();
    const off = new FakeNotifier({ enabled: false });
    const dog = new Watchdog(off, 1_000, quietLog());
    dog.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(notifier.lines()).toEqual([]);
    expect(dog.active).toBe(false);
  });
});
