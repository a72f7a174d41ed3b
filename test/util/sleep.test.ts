import { describe, expect, it } from "vitest";
import { sleep, sleepUnlessAborted } from "../../src/util/sleep.js";

describe("sleep", () => {
  it("waits at least the time asked", async () => {
    const t0 = performance.now();
    await sleep(30);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it("treats a negative wait as none", async () => {
    await expect(sleep(-5)).resolves.toBeUndefined();
  });
});

describe("sleepUnlessAborted", () => {
  it("ends early, without rejecting, when the signal fires", async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const done = sleepUnlessAborted(60_000, ac.signal);
    setTimeout(() => ac.abort(), 10);
    await expect(done).resolves.toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(30_000);
  });

  it("resolves at once for a signal that already fired", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(sleepUnlessAborted(60_000, ac.signal)).resolves.toBeUndefined();
  });

  it("waits the full time when nothing aborts", async () => {
    const t0 = performance.now();
    await sleepUnlessAborted(30, new AbortController().signal);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
  });
});
