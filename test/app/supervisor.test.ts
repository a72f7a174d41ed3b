import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoadedConfig } from "../../src/app/config/load.js";
import { parseConfig } from "../../src/app/config/load.js";
import type { Daemon } from "../../src/app/daemon.js";
import { DaemonSupervisor, RESTART_EXIT_CODE } from "../../src/app/supervisor.js";
import { spawnProjectBin, tempConfig, waitFor } from "../helpers/process.js";
import { captureLog } from "./hardware-world.js";

/** A daemon stand-in that records its life. */
class FakeDaemon {
  restartHandler: ((reason: string) => void) | null = null;
  constructor(
    readonly loaded: LoadedConfig,
    readonly events: string[],
    private readonly failStart = false,
  ) {}
  async start(): Promise<void> {
    this.events.push(`start ${this.loaded.config.rig.backend}`);
    if (this.failStart) throw new Error("no serial device");
  }
  async stop(): Promise<void> {
    this.events.push(`stop ${this.loaded.config.rig.backend}`);
  }
}

const loaded = (backend: "sim" | "hardware"): LoadedConfig => ({
  config: parseConfig({ rig: { backend } }),
  path: null,
  stateDir: "/nonexistent",
});

function supervise(underSystemd: boolean, failSecond = false) {
  const events: string[] = [];
  const exits: number[] = [];
  let made = 0;
  const supervisor = new DaemonSupervisor({
    load: () => loaded("hardware"),
    create: (l) => new FakeDaemon(l, events, failSecond && made++ > 0) as unknown as Daemon,
    underSystemd,
    log: captureLog([]),
    exit: (code) => exits.push(code),
  });
  return { supervisor, events, exits };
}

describe("DaemonSupervisor (the wizard's restart)", () => {
  it("in a terminal: stops the daemon and starts one on the reloaded config, in this process", async () => {
    const { supervisor, events, exits } = supervise(false);
    await supervisor.start(loaded("sim"));
    supervisor.daemon?.restartHandler?.("switched");
    supervisor.daemon?.restartHandler?.("asked twice"); // one restart, not two
    await supervisor.settled();
    expect(events).toEqual(["start sim", "stop sim", "start hardware"]);
    expect(exits).toEqual([]);
    await supervisor.stop();
    expect(events.at(-1)).toBe("stop hardware");
  });

  it("under systemd: stops the daemon and exits 75 for Restart=on-failure", async () => {
    const { supervisor, events, exits } = supervise(true);
    await supervisor.start(loaded("sim"));
    supervisor.daemon?.restartHandler?.("switched");
    await supervisor.settled();
    expect(events).toEqual(["start sim", "stop sim"]);
    expect(exits).toEqual([RESTART_EXIT_CODE]);
    expect(RESTART_EXIT_CODE).toBe(75);
  });

  it("a restart that cannot start stops what it began and exits 1", async () => {
    const { supervisor, events, exits } = supervise(false, true);
    await supervisor.start(loaded("sim"));
    supervisor.daemon?.restartHandler?.("switched");
    await supervisor.settled();
    expect(events).toEqual(["start sim", "stop sim", "start hardware", "stop hardware"]);
    expect(exits).toEqual([1]);
  });
});

describe("piclaw start: the wizard's switch restarts the real process", () => {
  const serving = (out: string) => /"msg":"serving","url":"(http:[^"]+)"/.exec(out)?.[1];

  it("under systemd ($INVOCATION_ID) it writes the overlay and exits 75", async () => {
    const { dir, configPath } = tempConfig((d) => `stateDir: ${d}/state\nserver: { port: 0 }\n`);
    const proc = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], {
      PICLAW_CONFIG: "",
      INVOCATION_ID: "0123456789abcdef",
      NOTIFY_SOCKET: "",
    });
    try {
      const url = await waitFor(() => serving(proc.stdout()), "serving", 120_000);
      const res = await fetch(`${url}/api/setup/switch`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-piclaw-dashboard": "1" },
        body: JSON.stringify({ backend: "sim" }),
      });
      expect(await res.json()).toMatchObject({ ok: true, restarting: true });
      expect((await proc.exit).code, proc.stdout()).toBe(RESTART_EXIT_CODE);
      expect(existsSync(join(dir, "state", "config-overlay.yaml"))).toBe(true);
    } finally {
      proc.child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
