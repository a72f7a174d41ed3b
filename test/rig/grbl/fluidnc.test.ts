import { afterEach, describe, expect, it } from "vitest";
import { fluidncBoardFor } from "../../../src/sim/gantry/grbl-fluidnc.js";
import { rejection } from "../../helpers/errors.js";
import { cleanupRigs, rig, tapAt } from "./helpers.js";

afterEach(cleanupRigs);

/**
 * Issue 14: a FluidNC board (the simulator's FluidNC persona: its banner, `[MSG:INFO: …]` chatter,
 * `$I`, and `$$` as read-only numbered views of config.yaml), through the real driver over the pty.
 */
describe("GrblBackend on FluidNC", () => {
  it("recognises the banner, checks the numbered views it lists, and says which checks do not apply", async () => {
    const { backend, gantry, link } = await rig(() => {}, fluidncBoardFor);
    const facts = backend.boardFacts();
    expect(facts?.fluidnc).toBe(true);
    expect(facts?.build.version).toContain("FluidNC");
    expect(facts?.settings.get(100)).toBe(80);
    expect(facts?.mismatches).toEqual([]);
    const notApplicable = facts?.notApplicable.join("\n") ?? "";
    expect(notApplicable).toContain("$31");
    expect(notApplicable).toContain("CoreXY");
    expect(notApplicable).toContain("read-only");
    expect(link().sim.stats.lines).not.toContain("$N"); // GRBL's startup blocks are not asked for
    await backend.reference();
    await backend.run(tapAt(150, 120));
    expect(gantry.positionAt().xMm).toBeCloseTo(150, 3);
    expect(gantry.positionAt().yMm).toBeCloseTo(120, 3);
    // FluidNC's $MD (Motor/Disable) is what disableDrivers sends; it is answered ok.
    await backend.disableDrivers();
    expect(link().sim.stats.lines).toContain("$MD");
  });

  it("a config.yaml that differs from the profile refuses motion, naming the config key to fix", async () => {
    const { backend, gantry } = await rig(
      () => {},
      (p) => fluidncBoardFor(p).seed([[100, 250]]),
    );
    expect(backend.boardFacts()?.mismatches.map((m) => m.key)).toEqual(["$100"]);
    const err = await rejection(backend.reference());
    expect(err.code).toBe("MOTION_SETTINGS_MISMATCH");
    expect(err.message).toContain("$100=250 (expected 80");
    expect(err.message).toContain("axes/x/steps_per_mm");
    expect((await rejection(backend.run(tapAt(150, 120)))).code).toBe("MOTION_SETTINGS_MISMATCH");
    expect(gantry.motionLog().filter((e) => e.kind === "move")).toEqual([]);
  });
});
