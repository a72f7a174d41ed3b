import { describe, expect, it } from "vitest";
import { FontBook } from "../../../src/shared/fonts.js";
import { GrblSim } from "../../../src/sim/gantry/grbl-sim.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
import { SimPhone } from "../../../src/sim/phone/index.js";
import { glassFrame, glassToBed } from "../../../src/sim/pose.js";
import { ManualClock } from "../../../src/util/clock.js";
import { fluidncProfile, quietLog, until } from "../../rig/grbl/helpers.js";

/**
 * A real board runs each buffered line the moment the previous one finishes, on its own clock. The
 * simulator runs in a Node process that may stall (load, a frame render): the stall must not stretch
 * the stylus contact, or a tap becomes a long press (seen under load: an 80 ms wake tap held 511 ms).
 */
describe("GRBL simulator timing across a stalled event loop", () => {
  it("M5 after a buffered G4 P0.08 lifts 100 ms (GRBL's 50 ms dwell steps) after the dwell began, however late the loop gets to it", async () => {
    const profile = fluidncProfile();
    const clock = new ManualClock(0);
    const gantry = new SimGantry({
      clock,
      travelMm: profile.travelMm,
      initialPosition: { ...profile.park },
      contactDelayMs: profile.stylus.contactDelayMs,
      releaseDelayMs: profile.stylus.releaseDelayMs,
    });
    const stylus: { down: boolean; atMs: number }[] = [];
    const setStylus = gantry.setStylus.bind(gantry);
    gantry.setStylus = (down: boolean, atMs?: number) => {
      if (down !== gantry.stylusEnergised) stylus.push({ down, atMs: atMs ?? clock.now() });
      setStylus(down, atMs);
    };
    const sim = new GrblSim({ gantry, profile, log: quietLog, write: () => undefined });
    sim.start();
    try {
      clock.advance(1000);
      // The host streams the whole tap at once (character counting), as the driver does.
      sim.receive("M3 S1000\nG4 P0.08\nM5\n");
      await until(() => stylus.length === 1, "stylus down");
      clock.advance(500); // the process was busy for half a second before GRBL's loop ran again
      await until(() => stylus.length === 2, "stylus up");
      expect(stylus).toEqual([
        { down: true, atMs: 1000 },
        { down: false, atMs: 1100 },
      ]);
    } finally {
      sim.stop();
    }
  });

  it("a phone looked at while the board's dwell is overdue sees a tap, not a stylus held down", async () => {
    const profile = fluidncProfile();
    const clock = new ManualClock(0);
    let gantry: SimGantry | null = null;
    const phone = new SimPhone({
      clock,
      fonts: new FontBook(),
      locale: "en",
      passcode: "1234",
      // As SimRig wires it.
      touchesUntil: (nowMs) => {
        gantry?.flush(nowMs);
        return gantry?.settledUntil(nowMs) ?? nowMs;
      },
    });
    const frame = glassFrame(phone.geometry, {
      centerXMm: 100,
      centerYMm: 100,
      rotationDeg: 0,
      tiltXDeg: 0,
      tiltYDeg: 0,
    });
    const over = glassToBed(frame, phone.geometry.glassMm.width / 2, phone.geometry.glassMm.height / 2);
    const g = new SimGantry({
      clock,
      travelMm: profile.travelMm,
      initialPosition: { xMm: over.x, yMm: over.y },
      contactDelayMs: profile.stylus.contactDelayMs,
      releaseDelayMs: profile.stylus.releaseDelayMs,
      surface: { frame, glassMm: phone.geometry.glassMm, touch: (ev) => phone.touch(ev) },
    });
    gantry = g;
    const sim = new GrblSim({ gantry: g, profile, log: quietLog, write: () => undefined });
    sim.start();
    try {
      clock.advance(1000);
      sim.receive("M3 S1000\nG4 P0.08\nM5\n");
      await until(() => g.stylusEnergised, "stylus down");
      // The process is busy 700 ms; the gantry's sampling timer and a camera frame get their turn before
      // the board's loop runs the M5 that, on the board's clock, lifted the stylus 100 ms after M3.
      clock.advance(700);
      g.flush(clock.now());
      phone.truth();
      expect(phone.lastGesture?.kind ?? null).not.toBe("longPress");
      await until(() => !g.stylusEnergised, "stylus up");
      g.flush(clock.now() + profile.stylus.releaseDelayMs);
      clock.advance(profile.stylus.releaseDelayMs);
      g.flush(clock.now());
      phone.truth();
      expect(phone.lastGesture).toMatchObject({ kind: "tap", count: 1 });
    } finally {
      sim.stop();
    }
  });
});
