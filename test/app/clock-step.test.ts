import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { bundlePaths, readBundle } from "../../src/calibration/bundle.js";
import { Logger } from "../../src/log/logger.js";
import type { Clock } from "../../src/util/clock.js";
import { FakeNotifier } from "../fakes/notifier.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";

const HOUR_MS = 3_600_000;
const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The system clock as a Pi without an RTC sees it: fake-hwclock's time until NTP steps it, by hours. */
class SteppingWallClock implements Clock {
  private offsetMs = 0;
  readonly steps: number[] = [];
  now(): number {
    return Date.now() + this.offsetMs;
  }
  step(ms: number): void {
    this.offsetMs += ms;
    this.steps.push(ms);
  }
}

describe("a wall-clock step during the start-up calibration", () => {
  it("forward by hours, then back past where it began: the calibration still passes and the daemon ends ready", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "piclaw-clockstep-"));
    dirs.push(stateDir);
    const lines: string[] = [];
    const log = Logger.create({
      level: "debug",
      format: "json",
      sink: { write: (l) => lines.push(l) },
      now: () => Date.now(),
    });
    const wall = new SteppingWallClock();
    const config = parseConfig({ stateDir, server: { port: 0 }, camera: SIM_TEST_CAMERA, sim: {} });
    const daemon = new Daemon(
      { config, path: null, stateDir },
      log,
      wall,
      {},
      { notifier: new FakeNotifier() },
    );
    daemons.push(daemon);
    // NTP steps the clock while the calibration runs: +3 h at its first progress line (fake-hwclock was
    // behind), then −5 h at a later one (a wrong NTP answer corrected), so the wall clock ends 2 h before
    // the instant the calibration started.
    let progress = 0;
    daemon.readiness.onChange((now) => {
      if (now.state !== "calibrating" || !now.detail) return;
      progress++;
      if (progress === 1) wall.step(3 * HOUR_MS);
      if (progress === 3) wall.step(-5 * HOUR_MS);
    });
    await daemon.start();
    const url = daemon.url ?? "";
    let last = { code: 0, status: "", reason: "", uptimeS: Number.NaN };
    for (const deadline = performance.now() + 150_000; performance.now() < deadline; ) {
      const res = await fetch(`${url}/healthz`);
      last = { code: res.status, ...((await res.json()) as Omit<typeof last, "code">) };
      if (last.status === "ready" || last.status === "degraded") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(wall.steps).toEqual([3 * HOUR_MS, -5 * HOUR_MS]);
    expect(last, lines.filter((l) => l.includes('"warn"') || l.includes('"error"')).join("\n")).toMatchObject(
      {
        code: 200,
        status: "ready",
      },
    );
    // Uptime is a duration: the steps do not show in it (on the wall clock it would be about −2 h).
    expect(last.uptimeS).toBeGreaterThanOrEqual(0);
    expect(last.uptimeS).toBeLessThan(3600);
    // The bundle's date is a date: on the wall clock as it is now, 2 h behind the real time.
    const createdAt = Date.parse(readBundle(bundlePaths(stateDir).current).createdAt);
    expect(Math.abs(createdAt - wall.now())).toBeLessThan(HOUR_MS);
  }, 200_000);
});
