import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/app/config/load.js";
import { readConfigOverlay } from "../../../src/app/config/overlay.js";
import { problem } from "../../../src/app/setup/board-steps.js";
import { SetupWizard, type SetupWizardDeps, setupDone } from "../../../src/app/setup/wizard.js";
import { bundlePaths } from "../../../src/calibration/bundle.js";
import { TokenStore } from "../../../src/mcp/tokens.js";
import { systemClock } from "../../../src/util/clock.js";
import { projectRoot } from "../../../src/util/paths.js";
import { captureLog } from "../hardware-world.js";

/** The wizard's steps on their own: every refusal carries a code, a message and how to fix it. */
describe("SetupWizard steps", () => {
  let stateDir: string;
  const restarts: string[] = [];
  const fakeBin = join(projectRoot(), "test", "fakes", "bin");

  function wizard(config: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = {}): SetupWizard {
    const deps: SetupWizardDeps = {
      config: parseConfig({ stateDir, ...config }),
      stateDir,
      cwd: stateDir,
      env: { PATH: `${fakeBin}:${process.env.PATH}`, ...env },
      tokens: new TokenStore(join(stateDir, "tokens.json"), systemClock),
      bridge: () => null,
      bundleInUse: () => null,
      grabFrame: async () => Buffer.alloc(0),
      rigLabel: () => "Simulated rig",
      requestRestart: (why) => restarts.push(why),
      clock: systemClock,
      log: captureLog([]),
      scan: { byIdDir: join(stateDir, "no-such-dir"), sysRoot: stateDir },
    };
    return new SetupWizard(deps);
  }
  const refusal = async (work: () => unknown) => {
    try {
      await work();
    } catch (err) {
      return problem(err);
    }
    throw new Error("the step did not refuse");
  };

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-wizard-"));
    restarts.length = 0;
  });
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  it("camera: finds the stand-in's imx708, and says to check the cable when there is none", async () => {
    expect(await wizard().camera()).toMatchObject({ cameras: [{ model: "imx708" }] });
    const none = await refusal(() => wizard({}, { FAKE_RPICAM_CAMERAS: "0" }).camera());
    expect(none).toMatchObject({ code: "SETUP_NO_CAMERA", fix: expect.stringMatching(/ribbon cable/) });
  });

  it("boards: none plugged in is an empty list; on a real rig the port is the daemon's", async () => {
    expect(await wizard().boards()).toEqual([]);
    const held = await refusal(() => wizard({ rig: { backend: "hardware" } }).boards());
    expect(held).toMatchObject({ code: "SETUP_PORT_HELD", fix: expect.stringMatching(/simulated rig/) });
    const gpio = await refusal(() =>
      wizard().settings({ profile: "cartesian-gpio", serialPath: "/dev/null", apply: false, parked: false }),
    );
    expect(gpio.code).toBe("SETUP_NOT_GRBL");
    const unknown = await refusal(() =>
      wizard().settings({ profile: "no-such-profile", serialPath: "/dev/null", apply: false, parked: false }),
    );
    expect(unknown).toMatchObject({ code: "SETUP_PROFILE_INVALID", fix: "pick one of the listed profiles" });
  });

  it("pair: with the bridge off it says the switch turns it on", async () => {
    const off = await refusal(() => wizard().pair("appliance.local:8048"));
    expect(off).toMatchObject({
      code: "SETUP_BRIDGE_OFF",
      fix: expect.stringMatching(/switch to the real rig/),
    });
  });

  it("token: a live token and an MCP host entry with the URL the browser used", async () => {
    const w = wizard();
    const t = (await w.token("appliance.local:8048", "laptop")) as {
      token: string;
      mcpConfig: { mcpServers: { piclaw: { url: string; headers: Record<string, string> } } };
    };
    expect(t.mcpConfig.mcpServers.piclaw).toEqual({
      type: "http",
      url: "http://appliance.local:8048/mcp",
      headers: { Authorization: `Bearer ${t.token}` },
    });
    expect(new TokenStore(join(stateDir, "tokens.json"), systemClock).verify(t.token)?.label).toBe("laptop");
  });

  it("switch: refuses without a board, and a board it cannot reach, writing nothing; finish marks setup done", async () => {
    const w = wizard();
    const none = await refusal(() => w.switchRig({ backend: "hardware" }));
    expect(none.code).toBe("SETUP_NO_BOARD");
    // A real rig whose start would fail is never switched to (systemd would restart it in a loop).
    const gone = await refusal(() =>
      w.switchRig({ backend: "hardware", profile: "corexy-fluidnc", serialPath: join(stateDir, "ttyUSB9") }),
    );
    expect(gone).toMatchObject({ code: "SETUP_BOARD_FAILED", fix: expect.stringMatching(/powered/) });
    expect(readConfigOverlay(stateDir)).toBeNull();
    expect(setupDone(stateDir)).toBe(false);
    w.finish();
    expect(setupDone(stateDir)).toBe(true);
  });

  it("switch: each rig keeps its own calibration (put aside, brought back)", async () => {
    const { current } = bundlePaths(stateDir);
    mkdirSync(dirname(current), { recursive: true });
    writeFileSync(current, "the real rig's bundle");
    writeFileSync(join(dirname(current), "bundle.sim-rig.json"), "the simulated rig's bundle");
    await wizard({ rig: { backend: "hardware" } }).switchRig({ backend: "sim" });
    expect(readFileSync(current, "utf8")).toBe("the simulated rig's bundle");
    expect(readFileSync(join(dirname(current), "bundle.hardware-rig.json"), "utf8")).toBe(
      "the real rig's bundle",
    );
    expect(readConfigOverlay(stateDir)).toEqual({ rig: { backend: "sim" } });
    expect(restarts).toEqual([]); // the routes restart once the reply went out, not the step
  });
});
