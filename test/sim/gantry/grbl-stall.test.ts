import { describe, expect, it } from "vitest";
import { GrblSim } from "../../../src/sim/gantry/grbl-sim.js";
import { SimGantry } from "../../../src/sim/gantry/model.js";
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
});
