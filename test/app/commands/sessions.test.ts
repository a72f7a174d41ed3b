import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TraceWriter } from "../../../src/agent/traces.js";
import { sessionsCommand } from "../../../src/app/commands/sessions.js";
import { Logger } from "../../../src/log/logger.js";
import { PiclawError } from "../../../src/util/errors.js";
import { session, T0 } from "../../agent/traces-fixtures.js";

let stateDir: string;
let out: string;
const deps = () => ({
  stateDir,
  write: (t: string) => {
    out += t;
  },
});

beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), "piclaw-sessions-"));
  out = "";
  const log = Logger.create({ level: "error", format: "json", sink: { write() {} }, now: () => T0 });
  const writer = new TraceWriter({ stateDir, redact: (t) => t, log });
  for (const e of session("20261123-180000-aaaa", T0)) writer.handle(e);
  for (const e of session("20261123-190000-bbbb", T0 + 3_600_000).slice(0, 8)) writer.handle(e);
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

describe("piclaw sessions", () => {
  it("lists newest first with id, start, status, turns and recap", async () => {
    expect(await sessionsCommand("list", undefined, deps())).toBe(0);
    expect(out.split("\n")).toEqual([
      "ID                    START (UTC)       STATUS   TURNS  RECAP",
      "20261123-190000-bbbb  2026-11-23 19:00  running      2  no progress",
      "20261123-180000-aaaa  2026-11-23 18:00  DONE         3  timer running",
      "",
    ]);
    out = "";
    await sessionsCommand("list", "1", deps());
    expect(out).not.toContain("aaaa");
  });

  it("shows the summary, the notes and tool calls in order with image paths", async () => {
    await sessionsCommand("show", "20261123-180000-aaaa", deps());
    const dir = join(stateDir, "sessions", "20261123-180000-aaaa");
    expect(out).toContain(
      "session 20261123-180000-aaaa: DONE\nrecap:    timer running\nwoken by: cli: set a timer",
    );
    expect(out).toContain("attempts: 2, turns: 3, tool calls: 2");
    expect(out).toContain("tokens:   2200 prompt + 110 completion, $0.0123");
    const body = out.slice(out.indexOf("attempt 1\n"));
    expect(body.split("\n")).toEqual([
      "attempt 1",
      "  t1   rejected: no tool calls",
      "  attempt 1 ended STUCK after 1 turns: no progress",
      "attempt 2",
      "  t1   note: look first",
      `  t1   peek → ok 0.8 s  ${join(dir, "images/a2-t001-peek-1.jpg")}`,
      expect.stringMatching(/^ {2}t2 {3}note: paste .* then tap Start$/),
      expect.stringMatching(
        new RegExp(
          `^  t2   tap \\{"bbox":\\[0.1,0.1,0.2,0.2\\],"why":".*"\\} → screen: changed 0.7 s  ${join(dir, "images/a2-t002-tap-1.jpg")}$`,
        ),
      ),
      "  attempt 2 ended DONE after 2 turns: timer running",
      "",
    ]);
  });

  it("says so when there is nothing, and rejects bad usage", async () => {
    expect(await sessionsCommand("list", undefined, { ...deps(), stateDir: join(stateDir, "empty") })).toBe(
      0,
    );
    expect(out).toBe("no sessions yet\n");
    await expect(sessionsCommand("show", "nope", deps())).rejects.toThrow(/no session nope/);
    await expect(sessionsCommand("show", undefined, deps())).rejects.toThrow(PiclawError);
    await expect(sessionsCommand("list", "0", deps())).rejects.toThrow(/positive integer/);
    await expect(sessionsCommand("frob", undefined, deps())).rejects.toThrow(/unknown sessions command/);
  });
});
