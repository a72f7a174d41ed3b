import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { spawnProjectBin, tempConfig, waitFor } from "../helpers/process.js";

interface LogLine {
  level: string;
  ns: string;
  msg: string;
  [key: string]: unknown;
}

function childPids(pid: number): number[] {
  const out = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).stdout;
  return out.split("\n").filter(Boolean).map(Number);
}

function processGroup(pid: number): number {
  return Number(spawnSync("ps", ["-o", "pgid=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim());
}

function groupMembers(pgid: number): number[] {
  const out = spawnSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" }).stdout;
  return out.split("\n").filter(Boolean).map(Number);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const parseLines = (text: string): LogLine[] =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);

describe("piclaw start (the daemon, as npm start runs it)", () => {
  it("serves the simulated rig, logs what it serves, and stops cleanly on SIGTERM", async () => {
    const { dir, configPath } = tempConfig(
      (d) => `stateDir: ${d}\nserver: { port: 0 }\nsim: { phone: { passcode: "975310" } }\n`,
    );
    const proc = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], { PICLAW_CONFIG: "" });
    const serving = await waitFor(
      () => parseLines(proc.stdout()).find((l) => l.msg === "serving"),
      "the serving log line",
    );
    const url = String(serving.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // A fresh state dir: the simulated rig calibrates in the background, and /healthz says so (503 until ready).
    const res = await fetch(`${url}/healthz`);
    const health = (await res.json()) as { status: string };
    expect(["calibrating", "ready"]).toContain(health.status);
    expect(res.status).toBe(health.status === "ready" ? 200 : 503);
    const frame = Buffer.from(await (await fetch(`${url}/sim/frame.jpg?width=640&height=360`)).arrayBuffer());
    expect(await sharp(frame).metadata()).toMatchObject({ format: "jpeg", width: 640, height: 360 });
    const bad = await fetch(`${url}/sim/frame.jpg?width=abc`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("width");

    const socket = join(dir, "run", "sim.sock");
    expect(existsSync(socket)).toBe(true);
    // The simulated serial cable (socat or a python3 relay) is a child process: it must not outlive us.
    const children = childPids(proc.child.pid ?? -1);
    expect(children.length).toBeGreaterThan(0);
    expect(parseLines(proc.stdout()).find((l) => l.msg === "motion ready")).toBeDefined();
    proc.child.kill("SIGTERM");
    const { code } = await proc.exit;
    expect(code).toBe(0);
    for (const pid of children) expect(isAlive(pid), `child ${pid} left running`).toBe(false);
    const lines = parseLines(proc.stdout());
    expect(lines.map((l) => l.msg)).toContain("stopped");
    expect(existsSync(socket)).toBe(false);
    expect(proc.stdout() + proc.stderr()).not.toContain("975310");
  });

  it("Ctrl-C on the terminal (SIGINT to the whole process group) lifts and parks over a cable that stays up", async () => {
    const { configPath } = tempConfig((d) => `stateDir: ${d}\nserver: { port: 0 }\n`);
    const proc = spawnProjectBin(
      "bin/piclaw.js",
      ["start", "--config", configPath],
      { PICLAW_CONFIG: "" },
      {
        group: true,
      },
    );
    await waitFor(() => parseLines(proc.stdout()).find((l) => l.msg === "motion ready"), "motion ready");
    await waitFor(() => parseLines(proc.stdout()).find((l) => l.msg === "serving"), "serving");
    const children = childPids(proc.child.pid ?? -1);
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    process.kill(-(proc.child.pid ?? 0), "SIGINT");
    const { code } = await proc.exit;
    expect(code).toBe(0);
    const msgs = parseLines(proc.stdout()).map((l) => l.msg);
    expect(msgs).toContain("stopped");
    expect(msgs.join("\n")).not.toMatch(/port vanished|could not park on shutdown/);
    for (const pid of children) expect(isAlive(pid), `child ${pid} left running`).toBe(false);
  }, 120_000);

  it("kill -9 of the daemon takes the serial-cable relay (its own process group) down with it", async () => {
    const { configPath } = tempConfig((d) => `stateDir: ${d}\nserver: { port: 0 }\n`);
    const proc = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], { PICLAW_CONFIG: "" });
    await waitFor(() => parseLines(proc.stdout()).find((l) => l.msg === "motion ready"), "motion ready");
    // Every process in the relay's group (the shell and socat, or the python3 relay).
    const groups = childPids(proc.child.pid ?? -1).map((pid) => ({ pid, pgid: processGroup(pid) }));
    const relayGroups = groups.filter((g) => g.pgid === g.pid).map((g) => g.pgid);
    expect(relayGroups.length).toBeGreaterThan(0);
    proc.child.kill("SIGKILL");
    await proc.exit;
    await waitFor(
      () => (relayGroups.every((g) => groupMembers(g).length === 0) ? true : undefined),
      "the relay's group to exit",
      10_000,
    );
  }, 120_000);

  it("fails at start on an invalid config, naming the key path", async () => {
    const { configPath } = tempConfig("server:\n  port: 99999\n");
    const proc = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath]);
    const { code } = await proc.exit;
    expect(code).toBe(2);
    expect(proc.stderr()).toMatch(/CONFIG_INVALID.*server\.port/);
  });
});
