import { describe, expect, it } from "vitest";
import type { LoadedConfig } from "../../src/app/config/load.js";
import { parseConfig } from "../../src/app/config/load.js";
import type { Daemon } from "../../src/app/daemon.js";
import { DaemonSupervisor, RESTART_EXIT_CODE } from "../../src/app/supervisor.js";
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
