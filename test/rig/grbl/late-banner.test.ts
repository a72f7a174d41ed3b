import { afterEach, describe, expect, it } from "vitest";
import { greetBoard } from "../../../src/rig/grbl/handshake.js";
import type { SerialLink } from "../../../src/rig/grbl/port.js";
import { GrblSession } from "../../../src/rig/grbl/session.js";
import { eepromConfiguredFor } from "../../../src/sim/gantry/grbl-eeprom.js";
import { GrblSim } from "../../../src/sim/gantry/grbl-sim.js";
import { cleanupRigs, fluidncProfile, quietLog, recordingGantry, rig, tapAt } from "./helpers.js";

afterEach(cleanupRigs);

/**
 * A simulated board behind an in-memory link whose board-to-host bytes the test can hold back: what a
 * loaded host (or a slow USB bridge) does to a banner that is already on its way.
 */
function heldBoard(rebootMs: number) {
  const profile = fluidncProfile();
  const { gantry } = recordingGantry(profile);
  let hold = true;
  const held: Buffer[] = [];
  let deliver: (chunk: Buffer) => void = () => {};
  const sim = new GrblSim({
    gantry,
    profile,
    log: quietLog,
    eeprom: eepromConfiguredFor(profile),
    write: (text) => {
      const chunk = Buffer.from(text, "latin1");
      if (hold) held.push(chunk);
      else setImmediate(() => deliver(chunk));
    },
  });
  sim.rebootMs = rebootMs;
  const link: SerialLink = {
    write: (data, done) => {
      setImmediate(() => sim.receive(typeof data === "string" ? Buffer.from(data, "latin1") : data));
      done(null);
    },
    onData: (l) => {
      deliver = l;
    },
    onClose: () => {},
    close: async () => sim.stop(),
  };
  const session = new GrblSession(
    link,
    {
      onAlarm: () => {},
      onBanner: (_l, solicited) => banners.push(solicited),
      onStatus: () => {},
      onClose: () => {},
    },
    quietLog,
  );
  const banners: boolean[] = [];
  session.attach();
  return {
    sim,
    session,
    profile,
    banners,
    /** Let everything held back through, and what follows at once. */
    release: () => {
      hold = false;
      for (const c of held.splice(0)) setImmediate(() => deliver(c));
    },
  };
}

/**
 * A board whose power-on banner reaches us only after `bannerWaitMs` (a slow boot — an ESP32 running
 * FluidNC, an Arduino's bootloader after the DTR reset — or a loaded host reading late) is soft-reset;
 * the old banner then arrives first. The handshake must not take it for the reset's banner: the reset's
 * own stray `ok` and banner come after it and would be credited to `$I`, shifting every answer by one
 * (`$$` read as `$I`'s lines: settings "(missing)", motion refused).
 */
describe("GRBL handshake: the power-on banner arrives after the wait", () => {
  it.each([0, 40])("reads the board in step (reset takes %i ms)", async (rebootMs) => {
    const b = heldBoard(rebootMs);
    b.sim.start(); // its banner is held back: the host's wait for it runs out
    const t = { bannerWaitMs: 30, resetWaitMs: 300, commandTimeoutMs: 1000 };
    const greeting = greetBoard(b.session, b.profile, () => false, t, quietLog, "held");
    setTimeout(b.release, 60); // after the wait, before (or while) the reset's answer
    const facts = await greeting;
    expect(facts.build.version).toContain("1.1");
    expect(facts.mismatches).toEqual([]);
    expect(facts.settings.get(100)).toBeGreaterThan(0);
    expect(b.banners.every((solicited) => solicited)).toBe(true);
    // In step afterwards too: the next command gets its own answer.
    expect((await b.session.command("$G", 1000)).some((l) => l.kind === "gc")).toBe(true);
    b.sim.stop();
  });
});

describe("GrblBackend over a pty: a very short banner wait", () => {
  it("connects and moves", async () => {
    const { backend, gantry } = await rig(undefined, undefined, { bannerWaitMs: 1 });
    expect(backend.boardFacts()?.mismatches).toEqual([]);
    await backend.reference();
    await backend.run(tapAt(120, 130));
    expect(gantry.positionAt().xMm).toBeCloseTo(120, 3);
  });
});
