import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCommand } from "../../src/app/commands/agent.js";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { Logger } from "../../src/log/logger.js";
import { systemClock } from "../../src/util/clock.js";
import {
  closing,
  FakeOpenAIServer,
  type FakeReply,
  type RecordedRequest,
  turn,
} from "../fakes/openai-server.js";
import { SIM_TEST_CAMERA } from "../helpers/sim-camera.js";

/**
 * The end-to-end session: "set a 10-minute timer" on the simulated rig, through the real daemon
 * (GRBL driver over a pty, the rpicam stand-in, OCR + detector, the runtime's manual wake, the agent
 * loop, the real openai SDK against a fake OpenAI-compatible server). The model is a scripted policy
 * that only reads the newest listing the engine sent it — no coordinates and no simulator truth — to
 * pick its boxes. The phone's own state is checked at the end: a timer running from 10:00.
 */

interface Row {
  kind: string;
  label: string;
  box: [number, number, number, number];
}

const ROW = /^\d+ \[(\w+)\] "([^"]*)" \[([\d.]+),([\d.]+),([\d.]+),([\d.]+)\]/;

/** The rows of the newest listing in what the model was sent. */
function newestListing(request: RecordedRequest): Row[] {
  const texts = request.body.messages.flatMap((m) =>
    typeof m.content === "string"
      ? [m.content]
      : Array.isArray(m.content)
        ? m.content.map((p: { text?: string }) => p.text ?? "")
        : [],
  );
  for (const text of texts.reverse()) {
    const rows = text
      .split("\n")
      .map((line) => ROW.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({
        kind: m[1] ?? "",
        label: m[2] ?? "",
        box: [Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])] as Row["box"],
      }));
    if (rows.length > 0) return rows;
  }
  return [];
}

const find = (rows: Row[], label: string) => rows.find((r) => r.label.toLowerCase() === label.toLowerCase());

/** A person's way to set a 10-minute timer, one decision per look at the screen. */
function timerPolicy(): (request: RecordedRequest) => FakeReply {
  let started = false;
  return (request) => {
    const rows = newestListing(request);
    if (rows.length === 0) return turn("look at the phone first", "peek");
    const countdown = rows.find((r) => /^0?(9:[0-5]\d|10:00)$/.test(r.label));
    if (started && countdown)
      return closing("DONE", `timer running, ${countdown.label} left`, "timer is running");
    if (find(rows, "Swipe up to open") || find(rows, "Enter Passcode"))
      return turn("phone is locked", "unlock_phone");
    const start = find(rows, "Start");
    const minutes = rows.filter((r) => /^\d{1,2}$/.test(r.label) && r.box[1] > 0.2 && r.box[3] < 0.6);
    const ten = minutes.find((r) => r.label === "10");
    if (start && minutes.length > 0) {
      // The wheel's selected value is the number level with its "min" unit label.
      const byTop = [...minutes].sort((a, b) => a.box[1] - b.box[1]);
      const unit = find(rows, "min");
      const middle = (r: Row) => (r.box[1] + r.box[3]) / 2;
      const selected = unit
        ? [...minutes].sort(
            (a, b) => Math.abs(middle(a) - middle(unit)) - Math.abs(middle(b) - middle(unit)),
          )[0]
        : undefined;
      if (selected?.label === "10") {
        started = true;
        return turn("10 minutes selected, start the timer", "tap", { bbox: start.box });
      }
      const target = ten ?? byTop.at(-1);
      if (target) return turn(`pick ${target.label} on the minutes wheel`, "tap", { bbox: target.box });
    }
    const timerTab = find(rows, "Timer");
    if (timerTab && find(rows, "World Clock"))
      return turn("open the Timer tab", "tap", { bbox: timerTab.box });
    const clock = find(rows, "Clock");
    if (clock) return turn("open the Clock app", "tap", { bbox: clock.box });
    return turn("not where I expected, go home", "home_screen");
  };
}

describe("an agent session on the simulated rig", () => {
  const server = new FakeOpenAIServer();
  let daemon: Daemon;
  let stateDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    await server.start();
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-agent-e2e-"));
    const log = Logger.create({
      level: "info",
      format: "json",
      sink: { write: (line) => logLines.push(line) },
      now: () => Date.now(),
    });
    const config = parseConfig({
      stateDir,
      server: { port: 0 },
      camera: SIM_TEST_CAMERA,
      timeZone: "UTC",
      sim: { phone: { passcode: "482916", utcOffsetMinutes: 0 } },
      runtime: { enabled: false },
      agent: {
        providers: {
          default: { baseUrl: server.baseUrl, model: "scripted-policy", apiKeyEnv: "PICLAW_E2E_KEY" },
        },
      },
    });
    daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, {
      PICLAW_E2E_KEY: "sk-e2e-secret-value",
    });
    await daemon.start();
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await server.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('"set a 10-minute timer" ends DONE with the phone\'s timer running from 10:00', async () => {
    server.setPolicy(timerPolicy());
    const agent = daemon.agent;
    const rig = daemon.simRig;
    if (!agent || !rig) throw new Error("daemon without agent or rig");
    const notes: string[] = [];
    agent.events.onType("note", (e) => notes.push(e.summary));
    const outcome = await agent.run("set a 10-minute timer", "test");

    expect(outcome.status, notes.join(" | ")).toBe("DONE");
    // Running, started from 10:00 moments ago (the policy closes as soon as it reads the countdown).
    expect(rig.truth().state).toMatch(/timer running,? 0?(9:[0-5]\d|10:00) left/);
    // The model saw only listings and images; the key never reached a trace or a log line.
    const trace = readFileSync(join(stateDir, "sessions", outcome.sessionId, "events.jsonl"), "utf8");
    expect(trace).toContain('"type":"note"');
    expect(trace).not.toContain("sk-e2e-secret-value");
    expect(logLines.join("\n")).not.toContain("sk-e2e-secret-value");
    const summary = JSON.parse(
      readFileSync(join(stateDir, "sessions", outcome.sessionId, "summary.json"), "utf8"),
    ) as { status: string };
    expect(summary.status).toBe("DONE");
    // Every request carried the key as a bearer (the fake server records headers, not the test).
    expect(server.requests.length).toBeGreaterThanOrEqual(5);
  }, 240_000);

  it("piclaw run streams the session's notes through the agent API; say and unauthenticated calls are refused", async () => {
    const url = daemon.url;
    if (!url) throw new Error("daemon has no url");
    const port = Number(new URL(url).port);
    const loaded = {
      config: parseConfig({ stateDir, server: { port } }),
      path: null,
      stateDir,
    };
    server.setPolicy(() => closing("IDLE", "nothing to do", "only checking in"));
    const out: string[] = [];
    const deps = {
      clock: systemClock,
      log: Logger.create({
        level: "error",
        format: "json",
        sink: { write: () => {} },
        now: () => Date.now(),
      }),
      write: (t: string) => out.push(t),
      env: {},
    };
    const code = await agentCommand("run", "check in", loaded, deps);
    expect(code).toBe(0);
    const text = out.join("");
    expect(text).toMatch(/^session \S+ \(scripted-policy\)$/m);
    expect(text).toContain("only checking in");
    expect(text).toMatch(/^IDLE: nothing to do$/m);
    // No session is running now: say is refused with the reason.
    await expect(agentCommand("say", "hello", loaded, deps)).rejects.toThrow(/409: no session is running/);
    // Without the local CLI token (or an MCP token) a POST from outside the page is refused.
    const bare = await fetch(`${url}/api/agent/run`, { method: "POST", body: JSON.stringify({ text: "x" }) });
    expect(bare.status).toBe(403);
    const badBody = await fetch(`${url}/api/agent/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${readFileSync(join(stateDir, "run", "cli-token"), "utf8").trim()}` },
      body: JSON.stringify({ text: "" }),
    });
    expect(badBody.status).toBe(400);
    expect(await badBody.text()).toContain("text: must not be empty");
  }, 120_000);
});
