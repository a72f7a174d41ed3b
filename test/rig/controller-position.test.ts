import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MotionController } from "../../src/rig/controller.js";
import { GrblBackend } from "../../src/rig/grbl/backend.js";
import { eepromConfiguredFor } from "../../src/sim/gantry/grbl-eeprom.js";
import { startSimGrblLink } from "../../src/sim/gantry/grbl-link.js";
import { fluidncProfile, quietLog, recordingGantry } from "./grbl/helpers.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** The controller over the real GRBL driver and the simulated board on a pty. */
async function controllerRig() {
  const profile = fluidncProfile();
  const { gantry } = recordingGantry(profile);
  const dir = mkdtempSync(join(tmpdir(), "piclaw-ctl-test-"));
  // A board configured for the profile (as after `piclaw rig settings --apply`).
  const link = await startSimGrblLink({
    gantry,
    profile,
    log: quietLog,
    dir,
    eeprom: eepromConfiguredFor(profile),
  });
  const backend = new GrblBackend({
    profile,
    log: quietLog,
    path: link.devicePath,
    timings: { bannerWaitMs: 200, statusPollMs: 100, reconnectMinMs: 50, reconnectMaxMs: 200 },
  });
  const motion = new MotionController(backend, profile, quietLog);
  cleanups.push(async () => {
    await backend.stop();
    await link.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await motion.start();
  return { motion, backend, gantry, profile };
}

describe("MotionController: where the arm is", () => {
  it("after an e-stop: the last known position, marked unknown until referenced again", async () => {
    const { motion, backend, gantry, profile } = await controllerRig();
    await motion.reference();
    const target = { xMm: 120, yMm: 90 };
    await motion.run([{ kind: "travel", to: target }]);
    const before = await motion.status();
    expect(before).toMatchObject({ referenced: true, positionKnown: true });
    expect(before.position.xMm).toBeCloseTo(target.xMm, 2);
    expect(before.position.yMm).toBeCloseTo(target.yMm, 2);

    await motion.estop("test");
    // The board's own report after its reset means nothing (its volatile G92 origin is gone)…
    const raw = (await backend.status()).position;
    expect(Math.hypot(raw.xMm - target.xMm, raw.yMm - target.yMm)).toBeGreaterThan(10);
    // …so the controller reports where the arm was last known to be, and says it is not known now.
    const after = await motion.status();
    expect(after).toMatchObject({ referenced: false, positionKnown: false });
    expect(after.position.xMm).toBeCloseTo(target.xMm, 2);
    expect(after.position.yMm).toBeCloseTo(target.yMm, 2);
    expect(gantry.positionAt().xMm).toBeCloseTo(target.xMm, 2); // (and that is where it really is)

    motion.resetEstop();
    // The e-stop came at rest and the board kept its machine position, so referencing restores the
    // origin where the carriage really is (declaring park there would be a lie: issue 14).
    await motion.reference();
    const again = await motion.status();
    expect(again).toMatchObject({ referenced: true, positionKnown: true });
    expect(again.position.xMm).toBeCloseTo(target.xMm, 2);
    expect(again.position.yMm).toBeCloseTo(target.yMm, 2);
    await motion.run([{ kind: "travel", to: { ...profile.park } }]);
    expect(gantry.positionAt().xMm).toBeCloseTo(profile.park.xMm, 2);
    expect(gantry.positionAt().yMm).toBeCloseTo(profile.park.yMm, 2);
  });
});
