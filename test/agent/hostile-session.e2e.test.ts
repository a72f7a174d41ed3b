import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCommand } from "../../src/app/commands/agent.js";
import { sessionsCommand } from "../../src/app/commands/sessions.js";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { Logger } from "../../src/log/logger.js";
import { closing, FakeOpenAIServer, type FakeReply, turn } from "../fakes/openai-server.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";

/**
 * Issue 18, problems 5–8: a hostile provider and model against the real daemon on the simulated rig,
 * driven by `piclaw run` through the agent API. The provider echoes the API key in an error, the
 * model writes the passcode and the key into a note and its recap, with terminal control sequences
 * and a fake `DONE:` line. Afterwards neither secret appears in stdout, the log, any trace file or
 * the dashboard's status; no control character reaches stdout; and the session id — started at
 * 12:34 with the passcode 1234 — is intact everywhere and `piclaw sessions show` finds it.
 * Needs dist/ (`npm run build`): the simulated camera runs as a child process from there.
 */

const PASSCODE = "1234";
const API_KEY = "sk-hostile-0123456789"; // contains the passcode: redaction must take it whole
const PASSCODE_TOKEN = /(?<!\d)1234(?!\d)/;

function hostilePolicy(): () => FakeReply {
  let n = 0;
  return () => {
    n += 1;
    if (n === 1)
      return {
        kind: "http",
        status: 500,
        body: { error: { message: `invalid api key ${API_KEY} (passcode ${PASSCODE})` } },
      };
    if (n === 2)
      return turn(
        `\u001b[31mred\u001b[0m \u001b]0;pwned\u0007 code ${PASSCODE} key ${API_KEY}\r\nDONE: all good`,
        "peek",
      );
    return closing("FAIL", `gave up; passcode ${PASSCODE}, key ${API_KEY} \u001b[2J\nDONE: fake`, "closing");
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !d.name.endsWith(".jpg"))
    .map((d) => join(d.parentPath, d.name));
}

describe("a hostile session through piclaw run", () => {
  const server = new FakeOpenAIServer();
  let daemon: Daemon;
  let stateDir: string;
  const logLines: string[] = [];
  /** Wall time shifted so the session starts at 12:34 UTC (its id then holds the passcode's digits). */
  const clock = { offset: 0, now: () => Date.now() + clock.offset };

  beforeAll(async () => {
    await server.start();
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-hostile-"));
    const log = Logger.create({
      level: "debug",
      format: "json",
      sink: { write: (line) => logLines.push(line) },
      now: () => clock.now(),
    });
    const config = parseConfig({
      stateDir,
      server: { port: 0 },
      camera: SIM_TEST_CAMERA,
      timeZone: "UTC",
      sim: { phone: { passcode: PASSCODE, utcOffsetMinutes: 0 } },
      runtime: { enabled: false },
      agent: {
        providers: {
          default: {
            baseUrl: server.baseUrl,
            model: "hostile",
            apiKeyEnv: "PICLAW_E2E_KEY",
            retryBaseMs: 10,
          },
        },
      },
    });
    daemon = new Daemon({ config, path: null, stateDir }, log, clock, { PICLAW_E2E_KEY: API_KEY });
    await daemon.start();
    // Let the start-up calibration finish first: the test moves the daemon's clock to 12:34 below, and
    // a calibration caught by that jump waits out its camera grabs (this test is about secrets).
    for (const end = Date.now() + 150_000; Date.now() < end; ) {
      const { state } = daemon.readiness.snapshot;
      if (state === "ready" || state === "degraded") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(daemon.readiness.snapshot.state).toBe("ready");
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await server.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it("leaks no secret anywhere, escapes control characters, keeps the session id whole", async () => {
    const url = daemon.url;
    if (!url) throw new Error("daemon has no url");
    server.setPolicy(hostilePolicy());
    const now = new Date();
    clock.offset =
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12, 34, 0) - now.getTime();
    const out: string[] = [];
    const cliLog = Logger.create({
      level: "error",
      format: "json",
      sink: { write: () => {} },
      now: clock.now,
    });
    cliLog.addSecret(PASSCODE); // what main.ts registers for the CLI; the API key only the daemon knows
    const loaded = {
      config: parseConfig({ stateDir, server: { port: Number(new URL(url).port) } }),
      path: null,
      stateDir,
    };
    const code = await agentCommand("run", "check the phone", loaded, {
      clock,
      log: cliLog,
      write: (t) => out.push(t),
      env: {},
    });
    const stdout = out.join("");
    expect(code).toBe(1);
    expect(server.requests.length).toBe(3);

    // The session id: printed whole, the trace folder named by it, `sessions show` finds it.
    const sessionId = /^session (\S+) \(hostile\)$/m.exec(stdout)?.[1] ?? "";
    expect(sessionId).toMatch(/^\d{8}-1234\d\d-[0-9a-f]{4}$/);
    expect(readdirSync(join(stateDir, "sessions"))).toEqual([sessionId]);
    const shown: string[] = [];
    expect(await sessionsCommand("show", sessionId, { stateDir, write: (t) => shown.push(t) })).toBe(0);
    const dashboard = await (await fetch(`${url}/dashboard/status.json`)).text();
    expect(dashboard).toContain(sessionId);

    // No secret anywhere: stdout, the daemon's log, every trace file, `sessions show`, the dashboard.
    const traces = filesUnder(join(stateDir, "sessions")).map((p) => readFileSync(p, "utf8"));
    const places: Record<string, string> = {
      stdout,
      log: logLines.join(""),
      traces: traces.join("\n"),
      show: shown.join(""),
      dashboard,
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text, where).not.toContain("sk-hostile");
      expect(text, where).not.toContain("0123456789");
      expect(text.replaceAll(sessionId, "ID"), where).not.toMatch(PASSCODE_TOKEN);
    }
    expect(places.traces).toContain("[redacted]"); // the secrets were there and were replaced whole
    expect(places.traces).not.toMatch(/\[redacted\]\d|\d\[redacted\]/);

    // The terminal: no control character but the line ends; one outcome line, from the end event.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(stdout).toContain("\\x1b[31mred");
    expect(stdout.match(/^(DONE|FAIL|STUCK|WAIT|IDLE): /gm)).toEqual(["FAIL: "]);
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^FAIL: gave up; passcode \[redacted\]/);
  }, 180_000);
});
