import { describe, expect, it } from "vitest";
import { Logger, type LoggerOptions } from "../../src/log/logger.js";

function capture(overrides: Partial<LoggerOptions> = {}) {
  const lines: string[] = [];
  const log = Logger.create({
    level: "info",
    format: "json",
    sink: { write: (l) => lines.push(l) },
    now: () => Date.UTC(2026, 10, 22, 8, 0, 0),
    ...overrides,
  });
  return { log, lines };
}

describe("logger", () => {
  it("writes JSON lines with namespace, level and fields", () => {
    const { log, lines } = capture();
    log.child("sim").child("camera").info("frame", { width: 640 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      ts: "2026-11-22T08:00:00.000Z",
      level: "info",
      ns: "piclaw.sim.camera",
      msg: "frame",
      width: 640,
    });
  });

  it("drops lines below the level", () => {
    const { log, lines } = capture({ level: "warn" });
    log.info("hidden");
    log.debug("hidden");
    log.warn("shown");
    expect(lines).toHaveLength(1);
  });

  it("redacts secret-looking field names at any depth and registered secret values anywhere", () => {
    const { log, lines } = capture();
    log.addSecret("246810");
    log.info("unlock with 246810 failed", {
      passcode: "246810",
      nested: { apiKey: "sk-abc", note: "code 246810" },
      list: ["x246810y"],
      err: new Error("bad passcode 246810"),
    });
    const line = lines[0] ?? "";
    expect(line).not.toContain("246810");
    expect(line).not.toContain("sk-abc");
    const rec = JSON.parse(line);
    expect(rec.msg).toBe("unlock with [redacted] failed");
    expect(rec.passcode).toBe("[redacted]");
    expect(rec.nested.apiKey).toBe("[redacted]");
    expect(rec.nested.note).toBe("code [redacted]");
    expect(rec.list).toEqual(["x[redacted]y"]);
    expect(rec.err.message).toBe("bad passcode [redacted]");
  });

  it("redacts whole tokens, longest secret first, and leaves ids, numbers and counts alone", () => {
    const { log, lines } = capture();
    log.addSecret("1234");
    log.addSecret("sk-hostile-0123456789");
    log.info("session 20261125-123415-4ed4 ended", {
      sessionId: "20261125-123415-4ed4",
      tokens: { prompt: 1234, completion: 20 },
      maxTokens: 12345,
      bytes: "512340",
      echo: "provider said: bad key sk-hostile-0123456789 (passcode 1234, code:1234)",
      token: "abc",
    });
    const rec = JSON.parse(lines[0] ?? "{}");
    expect(rec.msg).toBe("session 20261125-123415-4ed4 ended");
    expect(rec.sessionId).toBe("20261125-123415-4ed4");
    expect(rec.tokens).toEqual({ prompt: 1234, completion: 20 });
    expect(rec.maxTokens).toBe(12345);
    expect(rec.bytes).toBe("512340");
    expect(rec.echo).toBe("provider said: bad key [redacted] (passcode [redacted], code:[redacted])");
    expect(rec.token).toBe("[redacted]");
    expect(log.redact("x1234y 1234")).toBe("x[redacted]y [redacted]");
  });

  it("prints human lines and a syslog priority prefix for journald", () => {
    const human = capture({ format: "human" });
    human.log.warn("disk low", { freeMb: 12 });
    expect(human.lines[0]).toBe("08:00:00.000 WARN  piclaw disk low freeMb=12\n");
    const journal = capture({ syslogPrefix: true });
    journal.log.error("boom");
    expect(journal.lines[0]?.startsWith("<3>{")).toBe(true);
  });
});
