import { afterEach, describe, expect, it } from "vitest";
import { eepromConfiguredFor, GrblEeprom } from "../../../src/sim/gantry/grbl-eeprom.js";
import { rejection } from "../../helpers/errors.js";
import { cleanupRigs, rig, sleep, tapAt, until } from "./helpers.js";

/**
 * Issue 14: what real GRBL 1.1h does and the driver used to get wrong, each through the real driver over
 * a pty to the simulator (which models the firmware, see src/sim/gantry/README.md).
 */
afterEach(cleanupRigs);

describe("GRBL driver against real-firmware behaviour", () => {
  it("1. sets G21 G90 G94 before G92, so a $N0=G20 startup block cannot make the park point inches", async () => {
    const { backend, gantry } = await rig(undefined, (p) => {
      const e = eepromConfiguredFor(p);
      e.startup[0] = "G20";
      return e;
    });
    await backend.reference();
    await backend.run(tapAt(165, 195));
    expect(gantry.positionAt().xMm).toBeCloseTo(165, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(195, 3);
  });

  it("2. refuses motion on a factory board with one error listing key, board value and expected value", async () => {
    const { backend, gantry } = await rig(undefined, () => new GrblEeprom({ coreXY: true }));
    const err = await rejection(backend.reference());
    expect(err.code).toBe("MOTION_SETTINGS_MISMATCH");
    expect(err.message).toContain("$100=250 (expected 80");
    expect(err.message).toContain("$110=500 (expected 30000");
    const keys = (err.details.mismatches as { key: string }[]).map((m) => m.key);
    expect(keys).toEqual(["$100", "$101", "$110", "$111", "$120", "$121"]);
    expect((await rejection(backend.run(tapAt(150, 150)))).code).toBe("MOTION_SETTINGS_MISMATCH");
    expect(gantry.isMoving()).toBe(false);
  });

  it("2. notices laser mode, $30 against spindleMaxS and a firmware built without CoreXY", async () => {
    const { backend } = await rig(undefined, (p) => {
      const e = eepromConfiguredFor(p);
      e.settings.set(32, 1);
      e.settings.set(30, 255);
      return new GrblEeprom({ coreXY: false }).seed(e.settings);
    });
    const err = await rejection(backend.reference());
    expect(err.code).toBe("MOTION_SETTINGS_MISMATCH");
    const m = err.details.mismatches as { key: string; board: string; expected: string }[];
    expect(m).toEqual([
      expect.objectContaining({ key: "$30", board: "255", expected: "1000" }),
      expect.objectContaining({ key: "$32", board: "1", expected: "0" }),
      expect.objectContaining({ key: "$I:CoreXY", board: "Cartesian build", expected: "CoreXY build" }),
    ]);
  });

  it("4. reference() right after ALARM:2 waits out GRBL's deaf window, resets and re-homes", async () => {
    const { backend, gantry } = await rig((p) => {
      p.homing.endstops = true;
      p.homing.seekFeedMmPerMin = 6000;
      p.park = { xMm: 20, yMm: 15 };
    });
    await backend.reference();
    expect((await backend.status()).position.xMm).toBeCloseTo(2, 3); // bed = MPos + travel
    await backend.run([{ kind: "travel", to: { xMm: 30, yMm: 40 } }]);
    expect(gantry.positionAt().xMm).toBeCloseTo(30, 3);
    expect((await rejection(backend.run([{ kind: "travel", to: { xMm: 250, yMm: 50 } }]))).code).toBe(
      "MOTION_ALARM",
    );
    await backend.reference();
    await backend.run([{ kind: "travel", to: { xMm: 60, yMm: 40 } }]);
    expect(gantry.positionAt().xMm).toBeCloseTo(60, 3);
  });

  for (const state of ["idle", "moving", "feed hold", "ALARM:2", "port gone"] as const) {
    it(`4. stop() and halt() return within 2 s from ${state}`, async () => {
      const homing = state === "ALARM:2";
      const r = await rig((p) => {
        p.maxRateMmPerMin = { x: 1500, y: 1500 };
        if (homing) {
          p.homing.endstops = true;
          p.homing.seekFeedMmPerMin = 6000;
          p.park = { xMm: 20, yMm: 15 };
        }
      });
      await r.backend.reference();
      if (state === "moving" || state === "feed hold") {
        void r.backend.run([{ kind: "travel", to: { xMm: 20, yMm: 20 } }]).catch(() => undefined);
        await sleep(150);
        if (state === "feed hold") {
          await r.backend.feedHold();
          await sleep(100);
        }
      }
      if (state === "ALARM:2") {
        await rejection(r.backend.run([{ kind: "travel", to: { xMm: 250, yMm: 50 } }]));
      }
      if (state === "port gone") await r.unplug();
      let t = Date.now();
      await r.backend.halt("test");
      expect(Date.now() - t).toBeLessThan(2000);
      if (state !== "port gone") expect(r.gantry.stylusEnergised).toBe(false);
      t = Date.now();
      await r.backend.stop();
      expect(Date.now() - t).toBeLessThan(2000);
      if (state === "port gone") expect(r.backend.notDone.join(" ")).toMatch(/port is gone/);
    });
  }

  it("5. stylusDown stays true through a long energised hold although most reports have no A:", async () => {
    const { backend, gantry } = await rig();
    await backend.reference();
    const run = backend.run(tapAt(150, 150, 1500));
    await until(() => gantry.stylusEnergised, "stylus down");
    const seen: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      await sleep(100);
      seen.push((await backend.status()).stylusDown);
    }
    await run;
    expect(seen).toEqual(Array(8).fill(true));
    expect((await backend.status()).stylusDown).toBe(false);
  });

  it("6. never writes F0: a feed that would round to 0 is refused before anything is sent", async () => {
    const { backend, gantry, link } = await rig();
    await backend.reference();
    const before = link().sim.stats.lines.length;
    const err = await rejection(
      backend.run([
        { kind: "travel", to: { xMm: 150, yMm: 150 } },
        { kind: "feed", to: { xMm: 160, yMm: 150 }, feedMmPerMin: 0.0004 },
      ]),
    );
    expect(err.code).toBe("MOTION_BAD_FEED");
    expect(link().sim.stats.lines.slice(before)).toEqual([]);
    expect(gantry.isMoving()).toBe(false);
  });

  it("a tap's contact is the profile's, rounded up to GRBL's 50 ms dwell step", async () => {
    const { backend, stylus, profile } = await rig();
    await backend.reference();
    // A 40 ms press: 30 ms strike + 10 ms hold. GRBL would make each G4 50 ms (100 ms in all); the
    // driver takes the strike's 20 ms of rounding off the hold, so the press is 40 → 50 ms.
    expect(profile.stylus.strikeMs).toBe(30);
    await backend.run(tapAt(150, 150, 10));
    const [down, up] = stylus;
    const contact = (up?.atMs ?? 0) - (down?.atMs ?? 0);
    expect(contact).toBeGreaterThanOrEqual(49);
    expect(contact).toBeLessThan(75);
  });
});
