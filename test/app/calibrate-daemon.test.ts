import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliTokenPath } from "../../src/app/agent-api.js";
import { calibrateCommand } from "../../src/app/commands/calibrate.js";
import { type LoadedConfig, parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { bundlePaths, readBundle } from "../../src/calibration/bundle.js";
import { systemClock } from "../../src/util/clock.js";
import type { DashboardStatus } from "../../src/web/status.js";
import { quietLog } from "../fakes/log.js";
import { waitFor } from "../helpers/process.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";

/**
 * Calibration while the daemon runs (issue 16): `piclaw calibrate` (the CLI's command function, in this
 * process, finding the daemon through its lock file) asks the running daemon, which calibrates with its
 * own camera and arm and uses the new bundle at once; the dashboard shows one state throughout. The
 * daemon is the simulated appliance on a fresh state directory (needs `npm run build`: the camera is the
 * rpicam-vid stand-in).
 */
describe("piclaw calibrate beside a running daemon", () => {
  let stateDir = "";
  let daemon: Daemon;
  let loaded: LoadedConfig;
  let url = "";

  const status = async (): Promise<DashboardStatus> =>
    (await (await fetch(`${url}/dashboard/status.json`)).json()) as DashboardStatus;
  const post = (path: string) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "x-piclaw-dashboard": "1" } });
  /** The dashboard's parts that must agree: the banner, the calibration part and the phone view. */
  const consistent = (s: DashboardStatus, createdAt: string) => {
    expect(s.readiness).toMatchObject({ state: "ready" });
    expect(s.calibration).toMatchObject({ present: true, passed: true, createdAt });
    expect(s.frameError).toBeNull();
  };
  const ready = () =>
    waitFor(
      () => (daemon.readiness.snapshot.state === "ready" ? true : undefined),
      "the daemon to be ready",
      150_000,
    );

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-calapi-"));
    const config = parseConfig({ stateDir, server: { port: 0 }, camera: SIM_TEST_CAMERA });
    daemon = new Daemon({ config, path: null, stateDir }, quietLog(), systemClock, {});
    await daemon.start();
    url = daemon.url ?? "";
    // The CLI reaches the daemon at the configured port: here, the one port 0 became.
    const port = Number(new URL(url).port);
    loaded = { config: { ...config, server: { ...config.server, port } }, path: null, stateDir };
    await ready(); // the start-up calibration of the fresh state dir
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("the daemon calibrates, uses the new bundle without a restart, and the dashboard agrees with itself", async () => {
    const first = readBundle(bundlePaths(stateDir).current);
    expect((await post("/dashboard/peek")).status).toBe(200);
    consistent(await status(), first.createdAt);

    // Watch the dashboard while the CLI runs: calibrating with progress, never "ready" without a bundle.
    const seen: DashboardStatus[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        seen.push(await status());
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const out: string[] = [];
    const code = await calibrateCommand(loaded, false, {
      clock: systemClock,
      log: quietLog(),
      write: (t) => out.push(t),
      seed: 7,
    });
    watching = false;
    await watch;
    const text = out.join("");
    expect(code, text).toBe(0);
    expect(text).toMatch(
      new RegExp(`^the PiClaw daemon \\(PID ${process.pid}\\) runs on this state directory`),
    );
    expect(text).toMatch(/random seed 7/);
    expect(text).toMatch(/45\/45 markers found/);
    expect(text.match(/validation tap \d\/5 .* error \d+\.\d+ mm ok/g)).toHaveLength(5);
    expect(text).toMatch(/^PASS: /m);
    expect(text).toContain(`calibration written to ${bundlePaths(stateDir).current}`);

    const during = seen.filter((s) => s.readiness?.state === "calibrating");
    expect(during.length).toBeGreaterThan(0);
    expect(
      during.some((s) => s.readiness?.detail && /validation tap|markers|grid/.test(s.readiness.detail)),
    ).toBe(true);
    for (const s of seen) if (s.readiness?.state === "ready") expect(s.calibration.present).toBe(true);

    // The new bundle is the one in use (no restart): the dashboard's calibration part names it, the
    // phone view looks through it, and the banner is ready.
    const second = readBundle(bundlePaths(stateDir).current);
    expect(second.createdAt).not.toBe(first.createdAt);
    expect((await post("/dashboard/peek")).status).toBe(200);
    const after = await status();
    consistent(after, second.createdAt);
    expect(after.calibrationRuns).toMatchObject({
      running: null,
      last: {
        by: "piclaw calibrate",
        check: false,
        passed: true,
        summary: expect.stringContaining("calibration written"),
      },
    });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
  }, 240_000);

  it("piclaw calibrate --check runs in the daemon and writes nothing", async () => {
    const before = readBundle(bundlePaths(stateDir).current);
    const out: string[] = [];
    const code = await calibrateCommand(loaded, true, {
      clock: systemClock,
      log: quietLog(),
      write: (t) => out.push(t),
    });
    const text = out.join("");
    expect(code, text).toBe(0);
    expect(text).toMatch(/stored camera map vs fresh markers/);
    expect(text).toMatch(/^PASS: /m);
    expect(readBundle(bundlePaths(stateDir).current)).toEqual(before);
    consistent(await status(), before.createdAt);
  }, 240_000);

  it("the dashboard's Calibrate button does the same, one run at a time", async () => {
    const before = readBundle(bundlePaths(stateDir).current);
    const started = await post("/dashboard/calibrate");
    expect(started.status).toBe(200);
    const again = await post("/dashboard/calibrate");
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ ok: false, error: { code: "CALIBRATION_RUNNING" } });
    // The CLI is refused too while it runs, with the same code.
    await expect(
      calibrateCommand(loaded, false, { clock: systemClock, log: quietLog(), write: () => undefined }),
    ).rejects.toMatchObject({ code: "CALIBRATION_RUNNING" });
    let runs = await status();
    for (const deadline = Date.now() + 180_000; runs.calibrationRuns?.running && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 500));
      runs = await status();
    }
    const after = readBundle(bundlePaths(stateDir).current);
    expect(after.createdAt).not.toBe(before.createdAt);
    expect(runs.calibrationRuns?.last).toMatchObject({ by: "dashboard:local", passed: true });
    expect((await post("/dashboard/peek")).status).toBe(200);
    consistent(await status(), after.createdAt);
  }, 240_000);

  it("a client that goes away (Ctrl-C) stops the run: the arm is free again, the bundle in use stays", async () => {
    const before = readBundle(bundlePaths(stateDir).current);
    const token = readFileSync(cliTokenPath(stateDir), "utf8").trim();
    const gone = new AbortController();
    const res = await fetch(`${url}/api/calibrate`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
      signal: gone.signal,
    });
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of res.body ?? []) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (/grid 2\/24/.test(text)) break;
    }
    gone.abort();
    let s = await status();
    for (const deadline = Date.now() + 60_000; s.calibrationRuns?.running && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 200));
      s = await status();
    }
    expect(s.calibrationRuns?.last).toMatchObject({
      passed: false,
      summary: expect.stringMatching(/^error: /),
    });
    expect(readBundle(bundlePaths(stateDir).current)).toEqual(before);
    expect((await post("/dashboard/peek")).status).toBe(200);
    consistent(await status(), before.createdAt);
    expect(daemon.owner?.status().holder).toBeNull();
  }, 120_000);
});
