import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AgentEvent, AgentEvents } from "../../src/agent/events.js";
import { SessionStore } from "../../src/agent/session-store.js";
import { TRACE_STRING_MAX, TraceWriter } from "../../src/agent/traces.js";
import { dashboardSessionSources } from "../../src/app/dashboard-sources.js";
import { Logger } from "../../src/log/logger.js";
import { PiclawError } from "../../src/util/errors.js";
import { JPEG, SECRET, session, T0 } from "./traces-fixtures.js";

let stateDir: string;
let logged: string[];
let log: Logger;

beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), "piclaw-traces-"));
  logged = [];
  log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => logged.push(l) },
    now: () => T0,
  });
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe("TraceWriter", () => {
  it("caps trace size: long strings are clipped, events.jsonl stops at its cap but keeps session_end", () => {
    const writer = new TraceWriter({ stateDir, redact: (t) => t, log, maxEventsBytes: 200_000 });
    const [start, ...rest] = session("big");
    writer.handle(start as AgentEvent);
    const huge = "y".repeat(5_000_000);
    for (let turn = 1; turn <= 40; turn++) {
      writer.handle({ type: "steer", sessionId: "big", at: T0, attempt: 1, text: huge } as AgentEvent);
    }
    for (const e of rest.filter((x) => x.type === "session_end")) writer.handle(e);
    const text = readFileSync(join(stateDir, "sessions", "big", "events.jsonl"), "utf8");
    expect(text.length).toBeLessThan(200_000 + 1000);
    const types = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).type);
    expect(types).toContain("trace_truncated");
    expect(types.at(-1)).toBe("session_end");
    const steer = JSON.parse(text.split("\n")[1] ?? "{}");
    expect(steer.text.length).toBeLessThan(TRACE_STRING_MAX + 100);
    expect(steer.text).toContain("clipped, 5000000 characters");
  });

  it("writes events.jsonl, the images and summary.json, with secrets redacted everywhere", async () => {
    const events = new AgentEvents();
    // The daemon hands traces its logger's redaction: every registered secret (short values ignored).
    for (const secret of [SECRET, undefined, "ab"]) log.addSecret(secret);
    const writer = new TraceWriter({ stateDir, redact: (text) => log.redact(text), log });
    writer.start(events);
    const dir = join(stateDir, "sessions", "s1");
    for (const e of session("s1")) {
      events.emit(e);
      // after every event summary.json is whole (atomic replace) and no temp file is left behind
      const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
      expect(summary.sessionId).toBe("s1");
      expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    }
    writer.stop();
    events.emit(session("s2")[0] as AgentEvent);
    expect(readdirSync(join(stateDir, "sessions"))).toEqual(["s1"]); // unsubscribed

    const lines = readFileSync(join(dir, "events.jsonl"), "utf8").trim().split("\n");
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.map((e) => e.type)).toEqual(session("s1").map((e) => e.type));
    const toolEnd = parsed.find((e) => e.type === "tool_end" && e.name === "peek");
    expect(toolEnd.result.content[0]).toEqual({
      type: "image",
      path: "images/a2-t001-peek-1.jpg",
      bytes: JPEG.length,
    });
    expect(readFileSync(join(dir, "images", "a2-t001-peek-1.jpg"))).toEqual(JPEG);
    expect(readFileSync(join(dir, "images", "a2-t002-tap-1.jpg"))).toEqual(JPEG);
    expect(lines.join("\n")).not.toContain(JPEG.toString("base64")); // no inline base64

    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary).toMatchObject({
      status: "DONE",
      recap: "timer running",
      attempts: 2,
      turns: 3,
      toolCalls: 2,
      tokens: { prompt: 2200, completion: 110 },
      costUsd: 0.0123,
      provider: "fake",
      model: "m1",
      triggers: ["cli: set a timer"],
      startedAt: "2026-11-23T18:00:00.000Z",
      endedAt: "2026-11-23T18:00:10.000Z",
      durationMs: 10_000,
      images: ["a2-t001-peek-1.jpg", "a2-t002-tap-1.jpg"],
    });
    expect(summary.notes.map((n: { summary: string }) => n.summary)).toEqual([
      "look first",
      "paste [redacted] then tap Start",
    ]);

    for (const file of filesUnder(join(stateDir, "sessions"))) {
      expect(readFileSync(file).includes(SECRET), file).toBe(false);
    }
    expect(lines.join("\n")).toContain("[redacted]");
  });

  it("never throws into the loop when it cannot write", () => {
    writeFileSync(join(stateDir, "sessions"), "a file where the folder should be");
    const writer = new TraceWriter({ stateDir, redact: (t) => t, log });
    for (const e of session("s1")) expect(() => writer.handle(e)).not.toThrow();
    expect(logged.some((l) => l.includes("trace write failed"))).toBe(true);
  });

  it("refuses session ids that could leave the sessions folder", () => {
    const writer = new TraceWriter({ stateDir, redact: (t) => t, log });
    writer.handle({ ...(session("x")[0] as AgentEvent), sessionId: "../evil" });
    expect(readdirSync(stateDir)).toEqual([]);
  });
});

describe("SessionStore", () => {
  it("lists newest first, shows one with its events, reads images, prunes old ones", async () => {
    const writer = new TraceWriter({ stateDir, redact: (t) => t, log });
    for (const e of session("old", T0)) writer.handle(e);
    for (const e of session("new", T0 + 3_600_000)) writer.handle(e);
    for (const e of session("live", T0 + 7_200_000).slice(0, 8)) writer.handle(e);
    const store = new SessionStore(stateDir);
    const list = await store.list();
    expect(list.map((s) => [s.sessionId, s.status])).toEqual([
      ["live", "running"],
      ["new", "DONE"],
      ["old", "DONE"],
    ]);
    expect((await store.list(1)).map((s) => s.sessionId)).toEqual(["live"]);

    const shown = await store.show("new");
    expect(shown?.summary.recap).toBe("timer running");
    expect(shown?.events).toHaveLength(session("new").length);
    expect(await store.image("new", "a2-t001-peek-1.jpg")).toEqual(JPEG);
    expect(await store.image("new", "nope.jpg")).toBeNull();
    await expect(store.image("new", "../summary.json")).rejects.toThrow(PiclawError);
    expect(await store.show("missing")).toBeNull();
    await expect(store.show("../etc")).rejects.toThrow(PiclawError);

    // a torn last line (crash mid-write) is skipped
    writeFileSync(
      join(stateDir, "sessions", "new", "events.jsonl"),
      `${readFileSync(join(stateDir, "sessions", "new", "events.jsonl"), "utf8")}{"type":"no`,
    );
    expect((await store.show("new"))?.events).toHaveLength(session("new").length);

    expect(await store.prune(1)).toEqual(["old"]);
    expect((await store.list()).map((s) => s.sessionId)).toEqual(["live", "new"]);
  });

  it("feeds the dashboard's sessions and session images", async () => {
    const writer = new TraceWriter({ stateDir, redact: (t) => t, log });
    for (const e of session("s1")) writer.handle(e);
    const sources = dashboardSessionSources(new SessionStore(stateDir));
    expect(await sources.sessions(5)).toEqual([
      {
        id: "s1",
        startedAt: "2026-11-23T18:00:00.000Z",
        endedAt: "2026-11-23T18:00:10.000Z",
        status: "DONE",
        recap: "timer running",
        notes: ["look first", `paste ${SECRET} then tap Start`],
        images: ["a2-t001-peek-1.jpg", "a2-t002-tap-1.jpg"],
      },
    ]);
    expect(await sources.sessionImage("s1", "a2-t001-peek-1.jpg")).toEqual({
      contentType: "image/jpeg",
      body: JPEG,
    });
    expect(await sources.sessionImage("s1", "../x")).toBeNull();
  });

  it("is empty when no session ran yet", async () => {
    expect(await new SessionStore(join(stateDir, "nowhere")).list()).toEqual([]);
  });
});
