import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCommand } from "../../src/app/commands/agent.js";
import { parseConfig } from "../../src/app/config/load.js";
import { Logger } from "../../src/log/logger.js";
import { systemClock } from "../../src/util/clock.js";
import { FakeOpenAIServer, turn } from "../fakes/openai-server.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";

/**
 * Issue 18, problem 9: SIGINT during an in-process `piclaw run` (no daemon answers) aborts the
 * session like `piclaw abort` does — status ABORTED in the output and the trace, the appliance
 * stopped — instead of Node's immediate exit. Needs dist/ (the simulated camera runs from there).
 */

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("an in-process piclaw run", () => {
  const server = new FakeOpenAIServer();
  let stateDir: string;

  beforeAll(async () => {
    await server.start();
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-inprocess-"));
  });

  afterAll(async () => {
    await server.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it("SIGINT aborts the session (ABORTED, trace ended), then the handlers are gone", async () => {
    const signals = new EventEmitter();
    // The model takes a turn, then the user presses Ctrl-C while the next request is in flight.
    server.enqueue(turn("look at the phone", "peek"));
    server.setPolicy(() => {
      setTimeout(() => signals.emit("SIGINT"), 10);
      return { kind: "hang" };
    });
    const config = parseConfig({
      stateDir,
      server: { host: "127.0.0.1", port: await freePort() },
      camera: SIM_TEST_CAMERA,
      timeZone: "UTC",
      agent: {
        providers: { default: { baseUrl: server.baseUrl, model: "scripted", apiKeyEnv: "PICLAW_E2E_KEY" } },
      },
    });
    const out: string[] = [];
    const log = Logger.create({ level: "error", format: "json", sink: { write: () => {} }, now: Date.now });
    const code = await agentCommand(
      "run",
      "look at the phone",
      { config, path: null, stateDir },
      {
        clock: systemClock,
        log,
        write: (t) => out.push(t),
        env: { PICLAW_E2E_KEY: "sk-inprocess-key" },
        signals,
      },
    );
    const stdout = out.join("");
    expect(stdout).toContain("Ctrl-C aborts it");
    expect(stdout).toContain("SIGINT: aborting the session");
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^ABORTED: aborted: interrupted \(SIGINT\)/);
    expect(code).toBe(1);
    const sessionId = /^session (\S+) /m.exec(stdout)?.[1] ?? "";
    const summary = JSON.parse(readFileSync(join(stateDir, "sessions", sessionId, "summary.json"), "utf8"));
    expect(summary.status).toBe("ABORTED");
    expect(signals.listenerCount("SIGINT") + signals.listenerCount("SIGTERM")).toBe(0);
  }, 180_000);
});
