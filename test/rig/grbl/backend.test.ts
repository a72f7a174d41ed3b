import { afterEach, describe, expect, it } from "vitest";
import type { MotionStep } from "../../../src/rig/motion.js";
import { trapezoid } from "../../../src/rig/speed-law.js";
import { rejection } from "../../helpers/errors.js";
import { cleanupRigs, rig, sleep, tapAt, until } from "./helpers.js";

afterEach(cleanupRigs);

describe("GrblBackend against the simulated board over a pty", () => {
  it("handshakes, refuses motion until referenced, then taps with the stylus only after the travel", async () => {
    const { backend, gantry, stylus, profile } = await rig();
    const before = await backend.status();
    expect(before).toMatchObject({ state: "idle", referenced: false, stylusDown: false });
    expect((await rejection(backend.run(tapAt(150, 120)))).code).toBe("MOTION_NOT_REFERENCED");
    expect(gantry.isMoving()).toBe(false);

    await backend.reference();
    const referenced = await backend.status();
    expect(referenced.referenced).toBe(true);
    expect(referenced.position.xMm).toBeCloseTo(profile.park.xMm, 3);
    expect(referenced.position.yMm).toBeCloseTo(profile.park.yMm, 3);

    await backend.run(tapAt(150, 120));
    const end = gantry.now();
    expect(gantry.positionAt().xMm).toBeCloseTo(150, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(120, 3);
    expect(stylus.map((c) => c.down)).toEqual([true, false]);
    const [down, up] = stylus;
    if (!down || !up) throw new Error("no stylus calls");
    // Energised no earlier than the travel's end, held strike + dwell, released before run() resolved.
    expect(down.motionEndMs).toBeGreaterThan(0);
    expect(down.atMs).toBeGreaterThanOrEqual(down.motionEndMs);
    expect(up.atMs - down.atMs).toBeGreaterThanOrEqual(profile.stylus.strikeMs + 80 - 1);
    expect(up.atMs).toBeLessThanOrEqual(end);
    const after = await backend.status();
    expect(after).toMatchObject({ state: "idle", stylusDown: false });
    expect(after.position.xMm).toBeCloseTo(150, 3);
  });

  it("streams a long program with at most 127 unacknowledged bytes", async () => {
    const { backend, gantry, link } = await rig();
    await backend.reference();
    const program: MotionStep[] = [];
    for (let i = 0; i < 70; i++) {
      program.push({ kind: "travel", to: { xMm: 150 + (i % 2) * 0.5 + i * 0.01, yMm: 150.123 + i * 0.2 } });
    }
    const sim = link().sim;
    const receivedBefore = sim.stats.lines.length;
    await backend.run(program);
    const last = program[program.length - 1];
    if (last?.kind !== "travel") throw new Error("bad program");
    expect(gantry.positionAt().xMm).toBeCloseTo(last.to.xMm, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(last.to.yMm, 3);
    const received = sim.stats.lines.slice(receivedBefore);
    expect(received).toHaveLength(71);
    expect(received.at(-1)).toBe("G4 P0");
    expect(sim.stats.rxOverflows).toBe(0);
    expect(sim.stats.maxUnackedBytes).toBeLessThanOrEqual(127);
    // …and it does stream ahead (many lines in flight), rather than one line at a time.
    expect(sim.stats.maxUnackedBytes).toBeGreaterThan(100);
  });

  it("maps error:N to MOTION_GRBL_ERROR, lifts the stylus and keeps working", async () => {
    const { backend, gantry } = await rig();
    await backend.reference();
    const err = await rejection(
      backend.run([
        { kind: "travel", to: { xMm: 150, yMm: 150 } },
        { kind: "stylus", down: true },
        // GRBL rejects a negative P (error:4); F0 can no longer be provoked: the driver never writes it.
        { kind: "dwell", ms: -100 },
        { kind: "stylus", down: false },
      ]),
    );
    expect(err.code).toBe("MOTION_GRBL_ERROR");
    expect(err.details).toMatchObject({ grblCode: 4, meaning: expect.stringMatching(/negative/) });
    expect(gantry.stylusEnergised).toBe(false);
    expect((await backend.status()).state).toBe("idle");
    await backend.run(tapAt(140, 140));
    expect(gantry.positionAt().xMm).toBeCloseTo(140, 3);
  });

  it("maps ALARM:2 (soft limit) to MOTION_ALARM and refuses motion until reference()", async () => {
    const { backend, gantry } = await rig((p) => {
      p.homing.endstops = true;
      p.homing.seekFeedMmPerMin = 6000;
      p.park = { xMm: 20, yMm: 15 };
    });
    expect((await backend.status()).state).toBe("alarm"); // GRBL boots locked when homing is enabled
    await backend.reference(); // $H
    expect(gantry.positionAt().xMm).toBeCloseTo(2, 3);
    const err = await rejection(backend.run([{ kind: "travel", to: { xMm: 250, yMm: 50 } }]));
    expect(err.code).toBe("MOTION_ALARM");
    expect(err.details).toMatchObject({ grblCode: 2, meaning: expect.stringMatching(/soft limit/) });
    const status = await backend.status();
    expect(status).toMatchObject({ state: "alarm", referenced: false, alarm: { code: "ALARM:2" } });
    expect(gantry.positionAt().xMm).toBeCloseTo(2, 3);
    expect((await rejection(backend.run(tapAt(30, 30)))).code).toBe("MOTION_ALARM");
    await backend.reference();
    await backend.run([{ kind: "travel", to: { xMm: 30, yMm: 40 } }]);
    expect(gantry.positionAt().yMm).toBeCloseTo(40, 3);
  });

  it("feed hold delays a move until resume", async () => {
    const { backend, gantry } = await rig((p) => {
      p.maxRateMmPerMin = { x: 3000, y: 3000 };
    });
    await backend.reference();
    await backend.run([{ kind: "travel", to: { xMm: 100, yMm: 195 } }]);
    // 100 mm at 50 mm/s: the hold lands mid-move however late a loaded machine runs the test's timers
    // (a 20 mm move once finished before a 100 ms sleep ended, at load 15–27).
    const run = backend.run([{ kind: "travel", to: { xMm: 200, yMm: 195 } }]);
    let finished = false;
    void run.then(() => {
      finished = true;
    });
    await until(() => gantry.isMoving(), "the move under way");
    await backend.feedHold();
    for (let i = 0; i < 100 && (await backend.status()).state !== "hold"; i++) await sleep(20);
    expect((await backend.status()).state).toBe("hold");
    await until(() => !gantry.isMoving(), "the hold's deceleration");
    const held = gantry.positionAt().xMm;
    await sleep(150);
    // Delayed, not merely slow: the carriage rests short of the target and the run has not finished
    // (judged by position, not by wall-clock time, which load stretches).
    expect(gantry.positionAt().xMm).toBe(held);
    expect(held).toBeLessThan(200);
    expect(finished).toBe(false);
    await backend.resume();
    await run;
    expect(gantry.positionAt().xMm).toBeCloseTo(200, 3);
  });

  it("halt mid-swipe stops the carriage, lifts the stylus and refuses reference() until confirmed at park", async () => {
    const { backend, gantry, profile } = await rig();
    await backend.reference();
    const run = backend.run([
      { kind: "travel", to: { xMm: 150, yMm: 150 } },
      { kind: "stylus", down: true },
      { kind: "feed", to: { xMm: 150, yMm: 100 }, feedMmPerMin: 3000 },
      { kind: "stylus", down: false },
    ]);
    await until(() => gantry.stylusEnergised, "stylus down");
    await sleep(150);
    expect(gantry.isMoving()).toBe(true);
    await backend.halt("test");
    expect((await rejection(run)).code).toBe("MOTION_HALTED");
    expect(gantry.isMoving()).toBe(false);
    expect(gantry.stylusEnergised).toBe(false);
    const y = gantry.positionAt().yMm;
    expect(y).toBeGreaterThan(100);
    expect(y).toBeLessThan(150);
    const status = await backend.status();
    expect(status).toMatchObject({ referenced: false, state: "alarm", alarm: { code: "ALARM:3" } });
    expect((await rejection(backend.run(tapAt(120, 120)))).code).toMatch(/MOTION_(ALARM|NOT_REFERENCED)/);
    // The carriage is mid-bed, not at park: declaring park there would be a lie (issue 14, problem 3).
    const moves = () => gantry.motionLog().filter((e) => e.kind === "move").length;
    const movesBefore = moves();
    const stoppedAt = gantry.positionAt();
    const refused = await rejection(backend.reference());
    expect(refused.code).toBe("MOTION_ORIGIN_UNCONFIRMED");
    expect(refused.message).toMatch(/e-stop \(test\)/);
    expect(refused.message).toMatch(/machine position .* is not the last known/);
    expect((await rejection(backend.reference())).code).toBe("MOTION_ORIGIN_UNCONFIRMED"); // still
    expect((await rejection(backend.run(tapAt(120, 120)))).code).toBe("MOTION_NOT_REFERENCED");
    await sleep(150);
    expect(moves()).toBe(movesBefore); // nothing moved while refused
    expect(gantry.positionAt()).toEqual(stoppedAt);
    // The operator pushes the carriage back to park (motors off), then confirms it there.
    gantry.move({ ...profile.park }, (d) => trapezoid(d, 50, 500));
    await until(() => !gantry.isMoving(), "the hand move");
    await backend.confirmParked();
    await backend.run(tapAt(120, 120));
    expect(gantry.positionAt().xMm).toBeCloseTo(120, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(120, 3);
  });

  it("halt at rest: the board kept its machine position, so reference() restores the origin there", async () => {
    const { backend, gantry } = await rig();
    await backend.reference();
    await backend.run([{ kind: "travel", to: { xMm: 120, yMm: 90 } }]);
    // No wait: run() resolves with the report at rest recorded, so an e-stop right after finds it.
    await backend.halt("test");
    await backend.reference(); // no operator needed: MPos is the one last seen at rest
    const status = await backend.status();
    expect(status.position.xMm).toBeCloseTo(120, 2); // where the carriage is, not the park spot
    expect(status.position.yMm).toBeCloseTo(90, 2);
    await backend.run(tapAt(140, 100));
    expect(gantry.positionAt().xMm).toBeCloseTo(140, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(100, 3);
  });

  it("the stylus watchdog releases a solenoid held past maxOnMs and fails the run", async () => {
    const { backend, gantry, stylus } = await rig((p) => {
      p.stylus.maxOnMs = 150;
    });
    await backend.reference();
    const err = await rejection(
      backend.run([
        { kind: "stylus", down: true },
        { kind: "dwell", ms: 1000 },
        { kind: "stylus", down: false },
      ]),
    );
    expect(err.code).toBe("MOTION_STYLUS_TIMEOUT");
    await until(() => !gantry.stylusEnergised, "release");
    const [down, up] = stylus;
    expect((up?.atMs ?? 0) - (down?.atMs ?? 0)).toBeLessThan(400);
    expect((await backend.status()).referenced).toBe(false);
  });

  it("a vanished port rejects the run, reconnects, and refuses motion until reference()", async () => {
    const { backend, gantry, unplug, replug, opens } = await rig((p) => {
      p.maxRateMmPerMin = { x: 3000, y: 3000 };
    });
    await backend.reference();
    const run = backend.run([{ kind: "travel", to: { xMm: 170, yMm: 195 } }]);
    await sleep(100);
    await unplug();
    expect((await rejection(run)).code).toBe("MOTION_DISCONNECTED");
    expect((await backend.status()).state).toBe("disconnected");
    expect((await rejection(backend.run(tapAt(150, 150)))).code).toBe("MOTION_DISCONNECTED");
    await sleep(300); // a few reconnect attempts fail while the board is away
    await until(() => !gantry.isMoving(), "carriage still");
    await replug();
    await until(() => opens() >= 2, "reconnect");
    for (let i = 0; i < 100 && (await backend.status()).state === "disconnected"; i++) await sleep(20);
    expect((await backend.status()).state).toBe("idle");
    expect((await rejection(backend.run(tapAt(150, 150)))).code).toBe("MOTION_NOT_REFERENCED");
    await backend.reference();
    await backend.run([{ kind: "travel", to: { xMm: 190, yMm: 190 } }]);
  });
});
