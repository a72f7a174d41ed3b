import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { calibrateCommand } from "../../../src/app/commands/calibrate.js";
import { parseConfig } from "../../../src/app/config/load.js";
import { systemClock } from "../../../src/util/clock.js";
import { quietLog } from "../../fakes/log.js";

/**
 * `piclaw calibrate` when a daemon holds the state directory: it talks to the daemon and never falls
 * back to opening the camera and port itself. The daemon side is in test/app/calibrate-daemon.test.ts.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-calremote-"));
  dirs.push(stateDir);
  const config = parseConfig({ stateDir, server: { port: 7777 } });
  const out: string[] = [];
  const deps = {
    clock: systemClock,
    log: quietLog(),
    write: (t: string) => out.push(t),
    daemonPid: () => 4242,
  };
  return { loaded: { config, path: null, stateDir }, out, deps };
}

const ndjson = (...values: unknown[]) =>
  new Response(values.map((v) => `${JSON.stringify(v)}\n`).join(""), {
    headers: { "content-type": "application/x-ndjson" },
  });

describe("piclaw calibrate beside a daemon", () => {
  it("prints the daemon's lines and exits with its verdict", async () => {
    const { loaded, out, deps } = setup();
    const seen: { url: string; body: string }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, body: String(init.body) });
      return ndjson({ type: "line", text: "45/45 markers found" }, { type: "result", passed: false });
    }) as unknown as typeof globalThis.fetch;
    expect(await calibrateCommand(loaded, true, { ...deps, fetch, seed: 3 })).toBe(1);
    expect(seen).toEqual([{ url: "http://127.0.0.1:7777/api/calibrate", body: '{"check":true,"seed":3}' }]);
    expect(out.join("")).toMatch(
      /^the PiClaw daemon \(PID 4242\) runs on this state directory.*\n45\/45 markers found\n$/,
    );
  });

  it("a daemon that does not answer is an error naming it, not a second rig on its port", async () => {
    const { loaded, deps } = setup();
    const fetch = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof globalThis.fetch;
    await expect(calibrateCommand(loaded, false, { ...deps, fetch })).rejects.toMatchObject({
      code: "DAEMON_UNREACHABLE",
      message: expect.stringMatching(/PID 4242.*does not answer/),
    });
  });

  it("a refusal keeps the daemon's code (no bundle to check, one already running)", async () => {
    const { loaded, deps } = setup();
    const fetch = (async () =>
      Response.json(
        { error: "no calibration bundle: run `piclaw calibrate`", code: "CALIBRATION_BUNDLE_MISSING" },
        { status: 409 },
      )) as unknown as typeof globalThis.fetch;
    await expect(calibrateCommand(loaded, true, { ...deps, fetch })).rejects.toMatchObject({
      code: "CALIBRATION_BUNDLE_MISSING",
    });
  });
});
