import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rigCommand } from "../../src/app/commands/rig.js";
import { REFERENCE_PARKED_API_PATH } from "../../src/app/rig-api.js";
import {
  callTool,
  captureLog,
  dashboardPost,
  expectCentreTapLands,
  type HardwareDaemon,
  startHardwareDaemon,
  worldConfig,
} from "./hardware-world.js";

/**
 * Issue 14: confirming "the carriage is at park" while the daemon runs and holds the serial port. The
 * real daemon on `rig.backend: hardware`, the GRBL simulator behind a pty: an e-stop mid-swipe leaves
 * the carriage mid-bed, so the dashboard's e-stop reset cannot re-reference (MOTION_ORIGIN_UNCONFIRMED)
 * and motion stays refused, until the operator pushes the carriage to park and says so through the
 * daemon's API (`piclaw rig reference --parked`, which finds the daemon by its lock).
 */
describe("piclaw rig reference --parked while the daemon runs", () => {
  let hw: HardwareDaemon;

  beforeAll(async () => {
    hw = await startHardwareDaemon();
  }, 120_000);

  afterAll(async () => {
    await hw?.stop();
  });

  it("e-stop mid-swipe → motion refused → confirmed through the API → a tap lands", async () => {
    const { world, link, client } = hw;
    const moves = () => world.gantry.motionLog().filter((e) => e.kind === "move").length;
    const swipe = callTool(client, "swipe", {
      bbox: [0.4, 0.75, 0.6, 0.85],
      direction: "up",
      size: "xl",
      speed: "slow",
    });
    const until = async (cond: () => boolean, what: string) => {
      for (let i = 0; !cond(); i++) {
        if (i > 3000) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await until(() => world.gantry.stylusEnergised && world.gantry.isMoving(), "the swipe's drag");
    expect((await dashboardPost(hw, "/dashboard/estop")).status).toBe(200);
    expect((await swipe).isError).toBe(true);
    const stoppedAt = world.gantry.positionAt();
    const park = world.profile.park;
    expect(Math.hypot(stoppedAt.xMm - park.xMm, stoppedAt.yMm - park.yMm)).toBeGreaterThan(10);

    // The e-stop reset cannot re-reference: the carriage stopped mid-bed, GRBL's MPos cannot vouch for it.
    const reset = await dashboardPost(hw, "/dashboard/estop-reset");
    expect(reset.status).toBe(409);
    expect(reset.body.error).toMatchObject({ code: "MOTION_ORIGIN_UNCONFIRMED" });
    expect(String((reset.body.error as { message: string }).message)).toContain("Carriage at park");
    const movesBefore = moves();
    const refused = await callTool(client, "tap", { bbox: [0.45, 0.45, 0.55, 0.55] });
    expect(refused.isError).toBe(true);
    expect(refused.texts.join("\n")).toMatch(/MOTION_NOT_REFERENCED|not referenced|origin is unknown/);
    expect(moves()).toBe(movesBefore); // nothing moved while refused

    // Without the CLI token nobody may confirm (a bearer that is not the token, no dashboard header).
    const anonymous = await fetch(`${hw.daemon.url}${REFERENCE_PARKED_API_PATH}`, {
      method: "POST",
      headers: { authorization: "Bearer not-the-token" },
    });
    expect(anonymous.status).toBe(401);
    const crossSite = await fetch(`${hw.daemon.url}${REFERENCE_PARKED_API_PATH}`, { method: "POST" });
    expect(crossSite.status).toBe(403); // no CLI token and no dashboard action header

    // The operator pushes the carriage to park with the motors off (GRBL's MPos does not see it) and
    // confirms it; the running daemon is found by its lock file and does it.
    const pushEnd = link.sim.moveByHand(park);
    await until(() => world.gantry.now() >= pushEnd, "the hand push");
    const out: string[] = [];
    const config = worldConfig(hw.stateDir, {
      rig: { backend: "hardware", serialPath: link.devicePath },
      server: { port: Number(new URL(hw.daemon.url ?? "").port) },
    });
    const loaded = { config, path: null, stateDir: hw.stateDir };
    const code = await rigCommand("reference", { parked: true }, loaded, {
      log: captureLog([]),
      write: (t) => out.push(t),
    });
    expect(code).toBe(0);
    expect(out.join("")).toContain(`PID ${process.pid}`);
    expect(out.join("")).toContain("referenced at the park spot");

    await expectCentreTapLands(hw);
  }, 240_000);
});

describe("a daemon whose start cannot vouch for the carriage (no position record)", () => {
  let hw: HardwareDaemon;

  beforeAll(async () => {
    hw = await startHardwareDaemon({}, { seedRecord: false });
  }, 120_000);

  afterAll(async () => {
    await hw?.stop();
  });

  it("comes up degraded with motion refused; the dashboard's confirmation makes it ready and a tap lands", async () => {
    const { world, client, daemon } = hw;
    const health = async () => {
      const res = await fetch(`${daemon.url}/healthz`);
      return { status: res.status, body: (await res.json()) as { status: string; reason?: string } };
    };
    const before = await health();
    expect(before.status).toBe(503);
    expect(before.body.status).toBe("degraded");
    expect(before.body.reason).toContain("no position record");
    expect(before.body.reason).toContain("Carriage at park");
    const moves = () => world.gantry.motionLog().filter((e) => e.kind === "move").length;
    const refused = await callTool(client, "tap", { bbox: [0.45, 0.45, 0.55, 0.55] });
    expect(refused.isError).toBe(true);
    expect(moves()).toBe(0);

    expect((await dashboardPost(hw, "/dashboard/confirm-parked")).status).toBe(200);
    expect(await health()).toMatchObject({ status: 200, body: { status: "ready" } });
    await expectCentreTapLands(hw);
  }, 240_000);
});
