import { afterEach, describe, expect, it } from "vitest";
import { rejection } from "../../helpers/errors.js";
import { cleanupRigs, rig, sleep, tapAt, until } from "./helpers.js";

afterEach(cleanupRigs);

/**
 * Issue 14: a board that resets by itself (reset button, USB brown-out) prints its banner unasked and
 * restarts MPos at 0,0 wherever the carriage is. That is position loss, through the real driver over
 * the pty: neither a kept MPos nor the start's clean-park policy may restore the origin.
 */
describe("GrblBackend: an unsolicited board reset", () => {
  it("mid-swipe: the run fails, motion is refused until the operator confirms park, never restored from MPos", async () => {
    // The swipe is slow (14 s) and the stylus limit long, so that however late a loaded machine lets
    // this test press reset, the swipe is still under way and the stylus watchdog has not fired.
    const { backend, gantry, profile, link } = await rig((p) => {
      p.stylus.maxOnMs = 60_000;
    });
    await backend.reference();
    // Rest at park with MPos 0,0 (the power-on spot): after the reset MPos reads 0,0 again elsewhere,
    // so an MPos comparison alone would "restore" park at the wrong place.
    await backend.run(tapAt(150, 150));
    await backend.run([{ kind: "travel", to: { ...profile.park } }]);
    await backend.status(); // a report at rest (the one the finished program asked for may be late)
    const swipe = backend.run([
      { kind: "travel", to: { xMm: 60, yMm: 60 } },
      { kind: "stylus", down: true },
      { kind: "feed", to: { xMm: 60, yMm: 200 }, feedMmPerMin: 600 },
      { kind: "stylus", down: false },
    ]);
    await until(() => gantry.stylusEnergised, "the swipe's stylus down", 60_000);
    await until(() => gantry.positionAt().yMm > 62, "the swipe under way", 60_000);
    link().sim.pressReset();
    expect((await rejection(swipe)).code).toBe("MOTION_RESET");
    expect(gantry.isMoving()).toBe(false);
    expect(gantry.stylusEnergised).toBe(false);
    const stoppedAt = gantry.positionAt();
    expect(stoppedAt.yMm).toBeGreaterThan(60);
    expect(stoppedAt.yMm).toBeLessThan(200);
    expect((await backend.status()).referenced).toBe(false);
    expect((await rejection(backend.run(tapAt(120, 120)))).code).toBe("MOTION_NOT_REFERENCED");

    const moves = () => gantry.motionLog().filter((e) => e.kind === "move").length;
    const movesBefore = moves();
    const refused = await rejection(backend.reference());
    expect(refused.code).toBe("MOTION_ORIGIN_UNCONFIRMED");
    expect(refused.message).toContain("the board reset on its own");
    expect(refused.message).toContain("piclaw rig reference --parked");
    expect((await rejection(backend.reference())).code).toBe("MOTION_ORIGIN_UNCONFIRMED"); // still
    await sleep(150);
    expect(moves()).toBe(movesBefore);
    expect(gantry.positionAt()).toEqual(stoppedAt);

    link().sim.moveByHand(profile.park); // motors off: GRBL's MPos does not see it
    await until(() => !gantry.isMoving(), "the hand move");
    await backend.confirmParked();
    await backend.run(tapAt(120, 130));
    expect(gantry.positionAt().xMm).toBeCloseTo(120, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(130, 3);
  });

  it("our own soft resets (e-stop at rest) are not taken for one: the kept MPos still restores the origin", async () => {
    const { backend, gantry } = await rig();
    await backend.reference();
    await backend.run([{ kind: "travel", to: { xMm: 120, yMm: 90 } }]);
    // A report at rest, so the kept MPos is this spot (a fixed 100 ms wait was too short at load ~20).
    await backend.status();
    await backend.halt("test");
    await backend.reference();
    await backend.run(tapAt(140, 100));
    expect(gantry.positionAt().xMm).toBeCloseTo(140, 3);
  });
});
