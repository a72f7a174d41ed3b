import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeCliToken } from "../../src/app/agent-api.js";
import { rigCommand } from "../../src/app/commands/rig.js";
import { grblBackendFor } from "../../src/app/hardware-rig-stack.js";
import type { GrblBackend } from "../../src/rig/grbl/backend.js";
import type { RigProfile } from "../../src/rig/profile.js";
import { GrblEeprom } from "../../src/sim/gantry/grbl-eeprom.js";
import { fluidncBoardFor } from "../../src/sim/gantry/grbl-fluidnc.js";
import { startSimGrblLink } from "../../src/sim/gantry/grbl-link.js";
import { SimRig } from "../../src/sim/rig.js";
import { systemClock } from "../../src/util/clock.js";
import { rejection } from "../helpers/errors.js";
import { captureLog, worldConfig } from "./hardware-world.js";

/**
 * Issue 14: `piclaw rig settings [--apply]` and `piclaw rig reference --parked` against the GRBL
 * simulator on a pty, a factory-fresh board (its settings are GRBL's defaults, not the profile's).
 */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function factoryBoard(board?: (profile: RigProfile) => GrblEeprom) {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-rigcmd-"));
  const log = captureLog([]);
  const world = SimRig.fromConfig(worldConfig(stateDir), { clock: systemClock, log, cwd: process.cwd() });
  await world.start();
  const link = await startSimGrblLink({
    gantry: world.gantry,
    profile: world.profile,
    log,
    eeprom: board?.(world.profile) ?? new GrblEeprom({ coreXY: world.profile.kinematics === "corexy" }),
  });
  cleanups.push(async () => {
    await link.stop();
    await world.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });
  const config = worldConfig(stateDir, { rig: { backend: "hardware", serialPath: link.devicePath } });
  const loaded = { config, path: null, stateDir };
  const out: string[] = [];
  const run = (sub: string, flags: Record<string, boolean>, confirm = async () => true) =>
    rigCommand(sub, flags, loaded, {
      log,
      write: (t) => out.push(t),
      confirm,
      daemonPid: () => null,
      now: () => new Date("2026-11-25T10:00:00Z"),
    });
  /** The daemon's back-end, as `HardwareRigStack` makes it. */
  const backend = async (): Promise<GrblBackend> => {
    const b = grblBackendFor(config, world.profile, { log, stateDir }).backend;
    cleanups.push(() => b.stop());
    await b.start();
    return b;
  };
  return { world, link, stateDir, run, out, backend };
}

describe("piclaw rig", () => {
  it("settings: a factory board refuses motion with the list; after --apply a tap lands within 0.1 mm", async () => {
    const w = await factoryBoard();
    expect(await w.run("settings", {})).toBe(1);
    const diff = w.out.join("");
    expect(diff).toMatch(/\$100\s+250\s+80/);
    expect(diff).toMatch(/\$110\s+500\s+/);

    let b = await w.backend();
    const err = await rejection(b.reference());
    expect(err.code).toBe("MOTION_SETTINGS_MISMATCH");
    expect(err.message).toContain("$100=250 (expected 80");
    await b.stop();

    // Declined at the prompt: nothing written, but the backup is there.
    w.out.length = 0;
    expect(await w.run("settings", { apply: true }, async () => false)).toBe(1);
    expect(w.out.join("")).toContain("nothing written");
    expect(w.link.sim.eeprom.settings.get(100)).toBe(250);

    w.out.length = 0;
    expect(await w.run("settings", { apply: true, yes: true })).toBe(0);
    expect(w.out.join("")).toContain("match the rig profile");
    const backups = readdirSync(w.stateDir).filter((f) => f.startsWith("grbl-settings-backup-"));
    expect(backups).toEqual(["grbl-settings-backup-2026-11-25T10-00-00-000Z.txt"]);
    expect(readFileSync(join(w.stateDir, backups[0] ?? ""), "utf8")).toContain("$100=250\n");
    expect(w.link.sim.eeprom.settings.get(100)).toBe(w.world.profile.stepsPerMm.x);

    // No position record yet: the operator confirms the carriage at park, then a start may move.
    b = await w.backend();
    expect((await rejection(b.reference())).code).toBe("MOTION_ORIGIN_UNCONFIRMED");
    await b.stop();
    expect(await w.run("reference", { parked: true })).toBe(0);
    b = await w.backend();
    await b.reference();
    const target = { xMm: w.world.profile.park.xMm - 35, yMm: w.world.profile.park.yMm - 20 };
    await b.run([
      { kind: "travel", to: target },
      { kind: "stylus", down: true },
      { kind: "dwell", ms: 80 },
      { kind: "stylus", down: false },
    ]);
    const at = w.world.gantry.positionAt();
    expect(Math.hypot(at.xMm - target.xMm, at.yMm - target.yMm)).toBeLessThan(0.1);
  }, 60_000);

  it("FluidNC: shows the diff with config.yaml keys and what is not checked; --apply writes nothing", async () => {
    const w = await factoryBoard((p) => fluidncBoardFor(p).seed([[110, 500]]));
    expect(await w.run("settings", { apply: true, yes: true })).toBe(1);
    const text = w.out.join("");
    expect(text).toMatch(/\$110\s+500\s+\d+/);
    expect(text).toContain("axes/x/max_rate_mm_per_min");
    expect(text).toContain("not checked here");
    expect(text).toContain("$31");
    expect(text).toContain("nothing written");
    expect(w.link.sim.stats.lines.filter((l) => /^\$\d+=/.test(l))).toEqual([]);
  }, 30_000);

  it("refuses while the daemon holds the port, and reference needs --parked", async () => {
    const w = await factoryBoard();
    await expect(w.run("reference", {})).rejects.toMatchObject({ code: "USAGE" });
    const loaded = { config: worldConfig(w.stateDir), path: null, stateDir: w.stateDir };
    await expect(
      rigCommand("settings", {}, loaded, {
        log: captureLog([]),
        write: () => {},
        daemonPid: () => null,
      }),
    ).rejects.toMatchObject({ code: "USAGE" });
    const out: string[] = [];
    const hw = worldConfig(w.stateDir, { rig: { backend: "hardware", serialPath: w.link.devicePath } });
    const code = await rigCommand(
      "settings",
      {},
      { config: hw, path: null, stateDir: w.stateDir },
      { log: captureLog([]), write: (t) => out.push(t), daemonPid: () => 4242 },
    );
    expect(code).toBe(1);
    expect(out.join("")).toContain("is running and holds the serial port");
  }, 30_000);

  it("reference --parked asks a running daemon (CLI token as bearer); its refusals and silence say what to do", async () => {
    const w = await factoryBoard();
    const hw = worldConfig(w.stateDir, { rig: { backend: "hardware", serialPath: w.link.devicePath } });
    const loaded = { config: hw, path: null, stateDir: w.stateDir };
    writeCliToken(w.stateDir);
    const asked: { url: string; auth: string | null }[] = [];
    const answer = (status: number, body: unknown): typeof fetch =>
      (async (url: string | URL | Request, init?: RequestInit) => {
        asked.push({ url: String(url), auth: new Headers(init?.headers).get("authorization") });
        return new Response(JSON.stringify(body), { status });
      }) as typeof fetch;
    const out: string[] = [];
    const deps = (fetch: typeof globalThis.fetch) => ({
      log: captureLog([]),
      write: (t: string) => out.push(t),
      daemonPid: () => 4242,
      fetch,
    });
    const ok = answer(200, { ok: true, message: "referenced at the park spot; the arm may move" });
    expect(await rigCommand("reference", { parked: true }, loaded, deps(ok))).toBe(0);
    expect(asked[0]?.url).toMatch(/\/api\/rig\/reference-parked$/);
    expect(asked[0]?.auth).toMatch(/^Bearer \S{20,}/);
    expect(out.join("")).toContain("PID 4242");
    const busy = answer(409, { error: "the arm is busy", code: "OWNER_WAIT_LIMIT" });
    await expect(rigCommand("reference", { parked: true }, loaded, deps(busy))).rejects.toMatchObject({
      code: "OWNER_WAIT_LIMIT",
    });
    const silent = (async () => {
      throw new Error("ECONNREFUSED");
    }) as typeof fetch;
    const err = await rejection(rigCommand("reference", { parked: true }, loaded, deps(silent)));
    expect(err.code).toBe("DAEMON_UNREACHABLE");
    expect(err.message).toContain("sudo systemctl stop piclaw");
    expect(w.link.sim.stats.lines).toEqual([]); // the port the daemon holds was never opened
  }, 30_000);
});
