import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calibrateCommand } from "../../src/app/commands/calibrate.js";
import { parseConfig } from "../../src/app/config/load.js";
import { bundlePaths, readBundle } from "../../src/calibration/bundle.js";
import { systemClock } from "../../src/util/clock.js";
import type { DashboardStatus } from "../../src/web/status.js";
import { parseListing } from "../tools/sim-daemon.js";
import {
  type Called,
  callTool,
  captureLog,
  type HardwareDaemon,
  PASSCODE,
  startHardwareDaemon,
} from "./hardware-world.js";

/**
 * The real daemon on `rig.backend: hardware` with the bridge off: the GRBL driver on a serial device
 * (a pty whose far end is the world's simulated board), the rpicam binaries (stand-ins looking at the
 * world's phone), no simulator inside the daemon. Gestures must reach the world's phone only through
 * G-code on the wire.
 */
describe("the daemon on rig.backend: hardware (GRBL over serial, bridge off)", () => {
  let hw: HardwareDaemon;
  const allTexts: string[] = [];
  const timings: Record<string, number[]> = {};
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<Called> => {
    const t0 = performance.now();
    const c = await callTool(hw.client, name, args);
    timings[name] = [...(timings[name] ?? []), performance.now() - t0];
    allTexts.push(...c.texts);
    return c;
  };

  beforeAll(async () => {
    hw = await startHardwareDaemon();
  }, 120_000);

  afterAll(async () => {
    await hw?.stop();
    // Printed, never asserted (wall clock on a shared machine, real-time gantry behind the serial line).
    if (hw) console.log(`hardware daemon: start → READY ${(hw.startMs / 1000).toFixed(2)} s`);
    for (const [name, ms] of Object.entries(timings))
      console.log(`latency ${name}: ${ms.map((m) => (m / 1000).toFixed(2)).join(", ")} s`);
  });

  it("starts to READY with the serial transport, and serves no simulator", async () => {
    expect(hw.notifier.lines()).toContain("READY=1");
    expect(hw.daemon.simRig).toBeNull();
    const lines = hw.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const motion = lines.find((l) => l.msg === "motion ready");
    expect(motion).toMatchObject({ backend: "grbl", transport: expect.stringContaining(hw.link.devicePath) });
    expect(lines.some((l) => l.msg === "simulator control socket ready")).toBe(false);
    expect(lines.find((l) => l.msg === "phone tools ready")).toBeDefined();
    expect(existsSync(join(hw.stateDir, "run", "sim.sock"))).toBe(false);
    const health = (await (await fetch(`${hw.daemon.url}/healthz`)).json()) as { rig: string };
    expect(health.rig).toBe("hardware");
    for (const path of ["/sim/truth.json", "/sim/screen.png", "/sim/frame.jpg"])
      expect((await fetch(`${hw.daemon.url}${path}`)).status, path).toBe(404);
    // The handshake and the parked-origin reference crossed the wire.
    expect(hw.link.sim.stats.lines).toEqual(expect.arrayContaining(["$I", "$X"]));
  });

  it("unlock_phone wakes a dark phone with a stylus tap (no side button) and types the passcode", async () => {
    hw.world.phone.pressSideButton(); // the phone went to sleep
    expect(hw.world.truth().screen).toBe("off");
    const t0 = hw.world.gantry.now();
    const res = await call("unlock_phone");
    expect(res.isError, res.texts.join("\n")).toBe(false);
    expect(res.texts[0]).toContain("woke the screen (tap to wake)");
    expect(res.texts[0]).toContain("unlocked");
    expect(hw.world.truth()).toMatchObject({ locked: false, screen: "home" });
    // The first touch was the wake tap in the middle of the screen.
    const first = hw.world.phone.touchReports(t0)[0];
    expect(first?.x).toBeCloseTo(0.5, 1);
    expect(first?.y).toBeCloseTo(0.5, 1);
  }, 180_000);

  it("a tap from the listing reaches the world's phone through G-code on the serial line", async () => {
    const home = await call("peek");
    expect(home.isError, home.texts.join("\n")).toBe(false);
    const clock = parseListing(home.texts.at(-1) ?? "").find((r) => r.label.toLowerCase() === "clock");
    if (!clock) throw new Error(`no Clock row in:\n${home.texts.join("\n")}`);
    const linesBefore = hw.link.sim.stats.lines.length;
    const t0 = hw.world.gantry.now();
    const tap = await call("tap", { bbox: clock.bbox });
    expect(tap.isError, tap.texts.join("\n")).toBe(false);
    expect(tap.texts[0]).toContain("screen: changed");
    expect(hw.world.truth().app).toBe("clock");
    const touches = hw.world.phone.touchReports(t0);
    expect(touches).toHaveLength(1);
    const [l, t, r, b] = clock.bbox;
    expect(touches[0]?.x).toBeCloseTo((l + r) / 2, 2);
    expect(touches[0]?.y).toBeCloseTo((t + b) / 2, 2);
    // The stylus went down as the spindle (M3) and up again (M5), over the wire.
    const sent = hw.link.sim.stats.lines.slice(linesBefore);
    expect(sent.some((line) => /^M3\b/.test(line))).toBe(true);
    expect(sent.some((line) => /^M5\b/.test(line))).toBe(true);
  }, 180_000);

  it("screenshot and send_to_clipboard without the bridge answer how to enable it, moving nothing", async () => {
    const t0 = hw.world.gantry.now();
    const shot = await call("screenshot");
    expect(shot.isError).toBe(true);
    expect(shot.texts[0]).toContain("[BRIDGE_DISABLED]");
    expect(shot.texts[0]).toContain("bridge.enabled: true");
    expect(shot.texts[0]).toContain("piclaw bridge pair");
    const clip = await call("send_to_clipboard", { text: "hello" });
    expect(clip.isError).toBe(true);
    expect(clip.texts[0]).toContain("bridge.enabled: true");
    expect(hw.world.phone.touchReports(t0)).toEqual([]);
  });

  it("piclaw calibrate asks this daemon, which refuses without the bridge; its bundle stays in use", async () => {
    const url = hw.daemon.url ?? "";
    const bundle = readBundle(bundlePaths(hw.stateDir).current);
    const loaded = {
      config: parseConfig({ stateDir: hw.stateDir, server: { port: Number(new URL(url).port) } }),
      path: null,
      stateDir: hw.stateDir,
    };
    const out: string[] = [];
    const run = calibrateCommand(loaded, false, {
      clock: systemClock,
      log: captureLog([]),
      write: (t) => out.push(t),
    });
    await expect(run).rejects.toMatchObject({
      code: "CALIBRATE_BRIDGE_DISABLED",
      message: expect.stringMatching(/^bridge\.enabled: /),
    });
    expect(out.join("")).toMatch(/^the PiClaw daemon \(PID \d+\) runs on this state directory/);
    // Refused before it took the arm: nothing moved, and the daemon is as it was.
    expect(hw.daemon.readiness.snapshot.state).toBe("ready");
    const status = (await (await fetch(`${url}/dashboard/status.json`)).json()) as DashboardStatus;
    expect(status.calibration).toMatchObject({ present: true, createdAt: bundle.createdAt });
    expect(status.readiness).toMatchObject({ state: "ready" });
    expect((await call("peek")).isError).toBe(false);
  }, 60_000);

  it("never shows the passcode in results or logs", () => {
    expect(allTexts.join("\n")).not.toContain(PASSCODE);
    expect(hw.logLines.join("\n")).not.toContain(PASSCODE);
  });
});
