import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { Logger } from "../../src/log/logger.js";
import { systemClock } from "../../src/util/clock.js";
import { FakeNotifier } from "../fakes/notifier.js";
import { spawnProjectBin } from "../helpers/process.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";
import { connectClient } from "../mcp/helpers.js";

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function daemonWith(sim: Record<string, unknown>, camera: Record<string, unknown> = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-ready-"));
  dirs.push(stateDir);
  const lines: string[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => lines.push(l) },
    now: () => Date.now(),
  });
  const config = parseConfig({
    stateDir,
    server: { port: 0 },
    camera: { ...SIM_TEST_CAMERA, ...camera },
    sim,
  });
  const notifier = new FakeNotifier();
  const daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, {}, { notifier });
  daemons.push(daemon);
  return { daemon, lines, notifier, stateDir };
}

async function health(url: string): Promise<{ code: number; status: string; detail?: string }> {
  const res = await fetch(`${url}/healthz`);
  const body = (await res.json()) as { status: string; detail?: string };
  return { code: res.status, ...body };
}

describe("readiness: starting → calibrating → ready | degraded", () => {
  it("a camera that gives no frame for 12 s fails the first calibration grabs; the daemon retries and ends ready without a restart", async () => {
    // Grabs give up after 3 s: the first calibration attempts meet CAMERA_TIMEOUT until the camera wakes.
    const { daemon, lines, notifier } = daemonWith(
      { camera: { startDelaySeconds: 12 } },
      { grabTimeoutMs: 3000 },
    );
    await daemon.start();
    const url = daemon.url ?? "";
    const seen: { code: number; status: string }[] = [];
    for (const deadline = Date.now() + 150_000; Date.now() < deadline; ) {
      const h = await health(url);
      if (seen.at(-1)?.status !== h.status) seen.push({ code: h.code, status: h.status });
      if (h.status === "ready" || h.status === "degraded") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seen[0]).toEqual({ code: 503, status: "calibrating" });
    expect(seen.at(-1)).toEqual({ code: 200, status: "ready" });
    const retried = lines.filter((l) => l.includes("transient fault, retrying"));
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.join("\n")).toContain("CAMERA_TIMEOUT");
    // systemd heard READY=1 exactly once, only after the calibration: STATUS names the state.
    const ready = notifier.messages.filter((m) => m.includes("READY=1"));
    expect(ready).toHaveLength(1);
    expect(ready[0]?.find((l) => l.startsWith("STATUS="))).toMatch(
      /^STATUS=serving http:\S+\/mcp \(ready\)$/,
    );
    expect(notifier.lines().some((l) => l.startsWith("STATUS=") && l.includes("(calibrating"))).toBe(true);
  }, 200_000);
});

describe("one daemon per state directory", () => {
  it("a second piclaw start on the same state dir exits non-zero naming the first; the first keeps working", async () => {
    const { daemon, stateDir } = daemonWith({});
    await daemon.start();
    const configPath = join(stateDir, "second.yaml");
    writeFileSync(configPath, `stateDir: ${stateDir}\nserver: { port: 0 }\n`);
    const second = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], { PICLAW_CONFIG: "" });
    const { code } = await second.exit;
    expect(code).not.toBe(0);
    expect(second.stdout() + second.stderr()).toContain(`another piclaw daemon (PID ${process.pid})`);
    // The first keeps working: its simulator socket is intact, and a peek and a tap go through MCP
    // (they wait for its start-up calibration, then use the camera through that socket).
    expect(existsSync(daemon.simSocket ?? "")).toBe(true);
    const client = await connectClient(`${daemon.url}/mcp`, "2026-07-28");
    try {
      const text = (r: unknown) =>
        ((r as { content: { type: string; text?: string }[] }).content ?? [])
          .filter((c) => c.type === "text")
          .map((c) => c.text ?? "")
          .join("\n");
      const peek = await client.callTool({ name: "peek", arguments: {} });
      expect(peek.isError, text(peek)).not.toBe(true);
      const tap = await client.callTool({
        name: "tap",
        arguments: { bbox: [0.45, 0.45, 0.55, 0.55] },
      });
      expect(tap.isError, text(tap)).not.toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);
});
