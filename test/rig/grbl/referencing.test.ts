import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GrblBackend } from "../../../src/rig/grbl/backend.js";
import { openSerialPort, type SerialLink } from "../../../src/rig/grbl/port.js";
import { filePositionStore } from "../../../src/rig/grbl/position-record.js";
import type { MotionStep } from "../../../src/rig/motion.js";
import { trapezoid } from "../../../src/rig/speed-law.js";
import { eepromConfiguredFor } from "../../../src/sim/gantry/grbl-eeprom.js";
import { startSimGrblLink } from "../../../src/sim/gantry/grbl-link.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
import { systemClock } from "../../../src/util/clock.js";
import { rejection } from "../../helpers/errors.js";
import { fluidncProfile, quietLog, sleep, tapAt, until } from "./helpers.js";

/**
 * Issue 14 problem 3: a restart must not declare "the carriage is at park" when nobody can vouch for it.
 * Through the real driver over the pty; the board stays powered across "restarts" (new back-ends).
 */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function world() {
  const profile = fluidncProfile((p) => {
    p.maxRateMmPerMin = { x: 6000, y: 6000 };
  });
  const limits: string[] = [];
  const gantry = new SimGantry({
    clock: systemClock,
    travelMm: profile.travelMm,
    initialPosition: { ...profile.park },
    contactDelayMs: profile.stylus.contactDelayMs,
    releaseDelayMs: profile.stylus.releaseDelayMs,
    onLimit: (axis) => limits.push(axis),
  });
  const dir = mkdtempSync(join(tmpdir(), "piclaw-ref-test-"));
  const link = await startSimGrblLink({
    gantry,
    profile,
    log: quietLog,
    eeprom: eepromConfiguredFor(profile),
  });
  const recordPath = join(dir, "rig", "grbl-position.json");
  cleanups.push(async () => {
    await link.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  /** A daemon's back-end on the same (still powered) board, with the position record in the state dir. */
  const backend = async (opts: { reconnectMinMs?: number } = {}) => {
    let port: SerialLink | null = null;
    const b = new GrblBackend({
      profile,
      log: quietLog,
      path: link.devicePath,
      positions: filePositionStore(recordPath),
      openPort: async (path, baud) => {
        port = await openSerialPort(path, baud);
        return port;
      },
      // The simulated board answers from this test's own (loaded) process: the 2 s command bound of a
      // real board ran out in a handshake at load ~20, which is the machine's speed, not the policy's.
      timings: {
        bannerWaitMs: 200,
        statusPollMs: 100,
        reconnectMinMs: opts.reconnectMinMs ?? 50,
        commandTimeoutMs: 10_000,
      },
    });
    cleanups.push(() => b.stop());
    await b.start();
    return { b, port: () => port };
  };
  /** Every move the gantry made stayed inside the travel, and none ran into the frame. */
  const insideTravel = () => {
    const { x, y } = profile.travelMm;
    const inside = (p: { xMm: number; yMm: number }) => p.xMm >= 0 && p.yMm >= 0 && p.xMm <= x && p.yMm <= y;
    const moves = gantry.motionLog().filter((e) => e.kind === "move");
    return limits.length === 0 && moves.every((m) => m.kind === "move" && inside(m.from) && inside(m.to));
  };
  return { profile, gantry, link, recordPath, backend, insideTravel };
}

describe("GRBL referencing policy", () => {
  it("no record: motion refused until the operator confirms the carriage at park", async () => {
    const w = await world();
    const { b } = await w.backend();
    const err = await rejection(b.reference());
    expect(err.code).toBe("MOTION_ORIGIN_UNCONFIRMED");
    expect(err.message).toContain("no position record");
    expect(err.message).toContain("piclaw rig reference --parked");
    expect((await rejection(b.run(tapAt(150, 150)))).code).toBe("MOTION_NOT_REFERENCED");
    // A malformed record is no record either.
    mkdirSync(dirname(w.recordPath), { recursive: true });
    writeFileSync(w.recordPath, '{"version":1,"cleanPark":"yes"}');
    expect((await rejection(b.reference())).message).toContain("malformed");
    await b.confirmParked();
    await b.run(tapAt(150, 150));
    expect(w.gantry.positionAt().xMm).toBeCloseTo(150, 3);
    await b.stop();
    const rec = JSON.parse(readFileSync(w.recordPath, "utf8"));
    expect(rec).toMatchObject({ version: 1, cleanPark: true, profile: w.profile.name });
    // The next start on the same powered board (same MPos, clean park) references by itself.
    const { b: next } = await w.backend();
    await next.reference();
    await next.run(tapAt(120, 140));
    expect(w.gantry.positionAt().yMm).toBeCloseTo(140, 3);
  }, 30_000);

  it("crash mid-swipe with the board powered: restart refuses motion until confirmed; never outside the travel", async () => {
    const w = await world();
    const first = await w.backend({ reconnectMinMs: 3_600_000 });
    await first.b.confirmParked();
    const swipe: MotionStep[] = [
      { kind: "travel", to: { xMm: 60, yMm: 60 } },
      { kind: "stylus", down: true },
      { kind: "feed", to: { xMm: 60, yMm: 200 }, feedMmPerMin: 1500 },
      { kind: "stylus", down: false },
    ];
    void first.b.run(swipe).catch(() => undefined);
    await until(() => w.gantry.stylusEnergised, "the swipe's stylus down");
    await sleep(300);
    // kill -9: the process is gone, its port closes, nothing more is sent (no stop(), no park).
    await first.port()?.close();
    expect(JSON.parse(readFileSync(w.recordPath, "utf8")).cleanPark).toBe(false);
    await until(() => !w.gantry.isMoving(), "the board to finish what it had", 10_000);
    const crashedAt = w.gantry.positionAt();
    expect(
      Math.hypot(crashedAt.xMm - w.profile.park.xMm, crashedAt.yMm - w.profile.park.yMm),
    ).toBeGreaterThan(20);
    const moves = () => w.gantry.motionLog().filter((e) => e.kind === "move").length;
    const movesBefore = moves();

    const { b } = await w.backend();
    const err = await rejection(b.reference());
    expect(err.code).toBe("MOTION_ORIGIN_UNCONFIRMED");
    expect(err.message).toContain("did not end with a clean park");
    expect((await rejection(b.run(tapAt(150, 150)))).code).toBe("MOTION_NOT_REFERENCED");
    expect((await rejection(b.reference())).code).toBe("MOTION_ORIGIN_UNCONFIRMED"); // still, until confirmed
    await sleep(200);
    expect(moves()).toBe(movesBefore); // nothing moved while refused
    expect(w.gantry.positionAt()).toEqual(crashedAt);

    await b.stop(); // the daemon gives up with that error

    // The operator pushes the carriage to park (motors off; GRBL's step count does not see it), then
    // runs `piclaw rig reference --parked`, which confirms it on a fresh connection.
    w.gantry.move({ ...w.profile.park }, (d) => trapezoid(d, 50, 500));
    await until(() => !w.gantry.isMoving(), "the hand move");
    const { b: cli } = await w.backend();
    await cli.confirmParked();
    await cli.stop();
    expect(JSON.parse(readFileSync(w.recordPath, "utf8")).cleanPark).toBe(true);
    const { b: restarted } = await w.backend();
    await restarted.reference();
    await restarted.run(tapAt(150, 150));
    expect(w.gantry.positionAt().xMm).toBeCloseTo(150, 3);
    expect(w.gantry.positionAt().yMm).toBeCloseTo(150, 3);
    expect(w.insideTravel()).toBe(true);
  }, 30_000);
});
