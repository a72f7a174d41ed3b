import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentConfigSchema } from "../../src/agent/config.js";
import { missingKey, providerBaseUrl } from "../../src/app/commands/doctor.js";
import {
  calibrationCheck,
  cameraCheck,
  clockCheck,
  daemonCheck,
  diskSpaceCheck,
  motionCheck,
  providerCheck,
  runDoctor,
  stateDirCheck,
} from "../../src/app/doctor.js";
import type { Camera } from "../../src/camera/camera.js";
import { settingsMismatchError } from "../../src/rig/grbl/settings.js";
import { PiclawError } from "../../src/util/errors.js";
import { sampleBundle } from "./doctor-fixtures.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

const expected = () => ({ rigProfile: "corexy-fluidnc", phoneModel: "iphone-6.1" });
const missing = () => {
  throw new PiclawError("CALIBRATION_BUNDLE_MISSING", "no calibration");
};

describe("doctor checks", () => {
  it("state dir: FAIL with a chown fix when it cannot be written (a real ENOTDIR, and an EACCES)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-doc-"));
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "x");
    const realFs = await import("node:fs");
    const fs = {
      mkdir: (p: string) => realFs.mkdirSync(p, { recursive: true }),
      writeFile: (p: string, d: string) => realFs.writeFileSync(p, d),
      remove: (p: string) => realFs.rmSync(p, { force: true }),
    };
    const blocked = await stateDirCheck(join(file, "state"), fs, "piclaw").run();
    expect(blocked.status).toBe("fail");
    expect(blocked.fix).toMatch(/chown/);
    const denied = await stateDirCheck(
      "/var/lib/piclaw",
      {
        ...fs,
        mkdir: () => undefined,
        writeFile: () => {
          throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
        },
      },
      "pi",
    ).run();
    expect(denied).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/not writable for pi: EACCES/),
    });
    expect((await stateDirCheck(join(dir, "state"), fs, "piclaw").run()).status).toBe("ok");
  });

  it("calibration: missing is FAIL on a real rig, WARN on the simulated one (the daemon makes one)", async () => {
    const base = { now: () => NOW, maxAgeDays: 30, expected };
    expect(await calibrationCheck({ ...base, read: missing, simulated: false }).run()).toMatchObject({
      status: "fail",
      fix: "run `piclaw calibrate`",
    });
    expect((await calibrationCheck({ ...base, read: missing, simulated: true }).run()).status).toBe("warn");
  });

  it("calibration: fresh is OK with age and error in mm; stale WARNs; failed validation or another rig FAILs", async () => {
    const base = { now: () => NOW, maxAgeDays: 30, expected, simulated: false };
    const fresh = await calibrationCheck({ ...base, read: () => sampleBundle(NOW - 2 * 3_600_000) }).run();
    expect(fresh.status).toBe("ok");
    expect(fresh.detail).toContain("2.0 h old");
    expect(fresh.detail).toContain("worst validation tap 0.21 mm (limit 1 mm)");
    const stale = await calibrationCheck({ ...base, read: () => sampleBundle(NOW - 45 * DAY) }).run();
    expect(stale).toMatchObject({ status: "warn", detail: expect.stringMatching(/^stale: 45 days old/) });
    expect(stale.fix).toMatch(/calibrate --check/);
    const neverStale = await calibrationCheck({
      ...base,
      maxAgeDays: 0,
      read: () => sampleBundle(NOW - 400 * DAY),
    }).run();
    expect(neverStale.status).toBe("ok");
    const failed = await calibrationCheck({ ...base, read: () => sampleBundle(NOW - DAY, false) }).run();
    expect(failed).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/validation failed.*1\.70 mm/),
    });
    const other = await calibrationCheck({
      ...base,
      read: () => sampleBundle(NOW),
      expected: () => ({ rigProfile: "cartesian-gpio", phoneModel: "iphone-6.1" }),
    }).run();
    expect(other.status).toBe("fail");
    const corrupt = await calibrationCheck({
      ...base,
      read: () => {
        throw new PiclawError("CALIBRATION_BUNDLE_INVALID", "bundle.json: not valid JSON");
      },
    }).run();
    expect(corrupt).toMatchObject({ status: "fail", detail: "bundle.json: not valid JSON" });
  });

  it("disk space: FAIL under the minimum, WARN under the warning level", async () => {
    const limits = { minFreeMb: 200, warnFreeMb: 1000 };
    const mb = (n: number) => () => ({ freeBytes: n * 1_048_576, totalBytes: 30_000 * 1_048_576 });
    expect((await diskSpaceCheck("/s", mb(100), limits).run()).status).toBe("fail");
    expect((await diskSpaceCheck("/s", mb(500), limits).run()).status).toBe("warn");
    expect(await diskSpaceCheck("/s", mb(5000), limits).run()).toMatchObject({
      status: "ok",
      detail: "5000 MB free of 30000 MB on the file system of /s",
    });
  });

  it("motion: unreachable or not homed FAILs; idle and homed is OK", async () => {
    const status = {
      state: "idle" as const,
      position: { xMm: 0, yMm: 0 },
      stylusDown: false,
      referenced: true,
    };
    const down = await motionCheck(async () => {
      throw new PiclawError("MOTION_PORT", "cannot open /dev/ttyACM0: ENOENT");
    }).run();
    expect(down).toMatchObject({ status: "fail", detail: expect.stringMatching(/unreachable.*ttyACM0/) });
    const unhomed = await motionCheck(async () => ({
      status: { ...status, referenced: false },
      via: "serial",
    })).run();
    expect(unhomed).toMatchObject({ status: "fail", detail: expect.stringMatching(/not homed/) });
    const alarm = await motionCheck(async () => ({
      status: { ...status, state: "alarm", alarm: { code: "ALARM:1", message: "hard limit" } },
      via: "serial",
    })).run();
    expect(alarm.detail).toContain("ALARM:1: hard limit");
    expect((await motionCheck(async () => ({ status, via: "serial" })).run()).status).toBe("ok");
    // The GRBL settings check (issue 14): the same list the driver refuses with, and the command to fix it.
    const settings = await motionCheck(async () => {
      throw settingsMismatchError([{ key: "$100", board: "250", expected: "80", meaning: "X steps/mm" }]);
    }).run();
    expect(settings).toMatchObject({
      status: "fail",
      fix: expect.stringContaining("piclaw rig settings --apply"),
    });
    expect(settings.detail).toContain("$100=250 (expected 80");
    const origin = await motionCheck(async () => {
      throw new PiclawError("MOTION_ORIGIN_UNCONFIRMED", "where the carriage is cannot be vouched for");
    }).run();
    expect(origin.fix).toContain("piclaw rig reference --parked");
  });

  it("camera: a missing rpicam binary FAILs with the install fix, and the camera is stopped either way", async () => {
    let stopped = 0;
    const camera: Camera = {
      start: async () => {
        throw new PiclawError("CAMERA_BINARY_MISSING", "rpicam-vid not found");
      },
      grab: async () => {
        throw new Error("unreachable");
      },
      stop: async () => {
        stopped++;
      },
    };
    const r = await cameraCheck(
      camera,
      { width: 2304, height: 1296, timeoutMs: 100, what: "camera" },
      () => 0,
    ).run();
    expect(r).toMatchObject({ status: "fail", fix: expect.stringMatching(/rpicam-apps/) });
    expect(stopped).toBe(1);
  });

  it("simulated parts get simulated-rig advice, never cable, ribbon or config.txt advice", async () => {
    const timedOut: Camera = {
      start: async () => {},
      grab: async () => {
        throw new PiclawError("CAMERA_TIMEOUT", "no camera frame within 5000 ms");
      },
      stop: async () => {},
    };
    const expected = { width: 2304, height: 1296, timeoutMs: 100, what: "simulated camera" };
    const sim = await cameraCheck(timedOut, { ...expected, simulated: true }, () => 0).run();
    expect(sim).toMatchObject({ status: "fail", fix: expect.stringMatching(/simulator.*grabTimeoutMs/) });
    expect(sim.fix).not.toMatch(/ribbon|config\.txt/);
    const real = await cameraCheck(timedOut, { ...expected, what: "camera" }, () => 0).run();
    expect(real.fix).toMatch(/ribbon cable/);
    const missing: Camera = {
      ...timedOut,
      start: async () => {
        throw new PiclawError("CAMERA_BINARY_MISSING", "bin/sim/rpicam-vid: dist/ missing");
      },
    };
    const noBuild = await cameraCheck(missing, { ...expected, simulated: true }, () => 0).run();
    expect(noBuild.fix).toMatch(/npm run build/);
    expect(noBuild.fix).not.toMatch(/rpicam-apps/);

    const unreachable = async (): Promise<never> => {
      throw new PiclawError("MOTION_PORT", "cannot open the pty");
    };
    const simMotion = await motionCheck(unreachable, true).run();
    expect(simMotion).toMatchObject({ status: "fail", fix: expect.stringMatching(/simulated board/) });
    expect(simMotion.fix).not.toMatch(/USB|cable|power/);
    expect((await motionCheck(unreachable).run()).fix).toMatch(/USB\/serial cable/);
  });

  it("provider: no key or not configured WARNs; a live URL is OK; a dead one FAILs", async () => {
    const agent = agentConfigSchema.parse({ providers: { default: { baseUrl: "https://api.example/v1" } } });
    expect(providerBaseUrl(agent)).toBe("https://api.example/v1");
    expect(missingKey(agent, {}, "/nonexistent")).toMatch(/OPENAI_API_KEY/);
    expect(missingKey(agent, { OPENAI_API_KEY: "sk-x" }, "/nonexistent")).toBeNull();
    const off = await providerCheck("https://api.example/v1", fetch, 1000, "no API key").run();
    expect(off).toMatchObject({ status: "warn", detail: expect.stringMatching(/agent is off: no API key/) });
    expect(await providerCheck(null, fetch, 1000).run()).toMatchObject({
      status: "warn",
      detail: "not configured",
    });
    const server: Server = createServer((req, res) => {
      res.statusCode = req.url === "/v1/models" ? 401 : 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect(await providerCheck(`http://127.0.0.1:${port}/v1/`, fetch, 2000).run()).toMatchObject({
        status: "ok",
        detail: `http://127.0.0.1:${port}/v1/models reachable (HTTP 401)`,
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const dead = await providerCheck(`http://127.0.0.1:${port}/v1`, fetch, 2000).run();
    expect(dead).toMatchObject({
      status: "fail",
      detail: expect.stringMatching(/unreachable: .*ECONNREFUSED/),
    });
  });

  it("clock: synced is OK; unsynced or unknown (no timedatectl) WARNs", async () => {
    expect((await clockCheck(async () => "yes").run()).status).toBe("ok");
    expect((await clockCheck(async () => "no").run()).status).toBe("warn");
    expect(await clockCheck(async () => null).run()).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/cannot tell/),
    });
  });

  it("runDoctor: one line per check plus its fix, exit 1 on any FAIL, 0 with only WARNs; a throw is a FAIL", async () => {
    const out: string[] = [];
    const good = await runDoctor(
      [
        { name: "a", run: async () => ({ status: "ok", detail: "fine" }) },
        { name: "b", run: async () => ({ status: "warn", detail: "meh", fix: "do x" }) },
      ],
      (t) => out.push(t),
    );
    expect(good.exitCode).toBe(0);
    expect(out.join("")).toBe("OK   a: fine\nWARN b: meh\n     fix: do x\ndoctor: 1 ok, 1 warn, 0 fail\n");
    const bad = await runDoctor(
      [
        {
          name: "c",
          run: async () => {
            throw new PiclawError("BOOM", "it broke");
          },
        },
      ],
      () => undefined,
    );
    expect(bad.exitCode).toBe(1);
    expect(bad.results[0]).toMatchObject({ status: "fail", detail: "it broke [BOOM]" });
  });
});

describe("doctor: the daemon's readiness", () => {
  const answer = (status: number, body: unknown) => async () => ({ status, json: async () => body });
  const url = "http://127.0.0.1:8048/healthz";
  it("ready is OK; calibrating WARNs with its progress; degraded FAILs with its reason; down WARNs", async () => {
    expect(await daemonCheck(url, answer(200, { status: "ready", uptimeS: 5 })).run()).toMatchObject({
      status: "ok",
      detail: `running and ready (${url}, up 5 s)`,
    });
    expect(
      await daemonCheck(
        url,
        answer(503, { status: "calibrating", detail: "arm grid 3/5", uptimeS: 9 }),
      ).run(),
    ).toMatchObject({ status: "warn", detail: `running, calibrating: arm grid 3/5 (${url}, up 9 s)` });
    const degraded = await daemonCheck(
      url,
      answer(503, { status: "degraded", reason: "not calibrated: no calibration bundle", uptimeS: 1 }),
    ).run();
    expect(degraded).toMatchObject({ status: "fail" });
    expect(degraded.detail).toContain("degraded: not calibrated: no calibration bundle");
    const down = await daemonCheck(url, async () => {
      throw new Error("ECONNREFUSED");
    }).run();
    expect(down.status).toBe("warn");
  });
});
