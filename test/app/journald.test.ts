import { describe, expect, it } from "vitest";
import { processLogger } from "../../src/log/logger.js";

/** A non-TTY stream, as stdout is under systemd (a socket to journald). */
function fakeStdout() {
  const lines: string[] = [];
  const stream = {
    isTTY: false,
    write: (chunk: string) => lines.push(chunk) === 0,
  } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

const JOURNAL = { JOURNAL_STREAM: "8:123456", INVOCATION_ID: "0123456789abcdef" };

describe("logs under systemd (journald)", () => {
  it("writes one JSON line per record with the syslog priority prefix journald reads (SyslogLevelPrefix)", () => {
    const { stream, lines } = fakeStdout();
    const log = processLogger("trace", "auto", JOURNAL, stream).child("service");
    log.trace("t");
    log.debug("d");
    log.info("serving", { url: "http://127.0.0.1:8048" });
    log.warn("w");
    log.error("e", { err: new Error("boom") });
    expect(lines.map((l) => /^<(\d)>\{/.exec(l)?.[1])).toEqual(["7", "7", "6", "4", "3"]);
    for (const line of lines) expect(line.endsWith("\n")).toBe(true);
    const info = JSON.parse((lines[2] ?? "").slice(3)) as Record<string, unknown>;
    expect(info).toMatchObject({
      level: "info",
      ns: "piclaw.service",
      msg: "serving",
      url: "http://127.0.0.1:8048",
    });
  });

  it("so `journalctl -p warning` (priority ≤ 4) keeps exactly the warnings and errors", () => {
    const { stream, lines } = fakeStdout();
    const log = processLogger("debug", "auto", JOURNAL, stream);
    log.debug("a");
    log.info("b");
    log.warn("c");
    log.error("d");
    const kept = lines
      .filter((l) => Number(l.slice(1, 2)) <= 4)
      .map((l) => (JSON.parse(l.slice(3)) as { msg: string }).msg);
    expect(kept).toEqual(["c", "d"]);
  });

  it("keeps secrets out of the journal too", () => {
    const { stream, lines } = fakeStdout();
    const log = processLogger("info", "auto", JOURNAL, stream);
    log.addSecret("975310");
    log.info("passcode 975310 typed", { token: "abc" });
    expect(lines.join("")).not.toContain("975310");
    expect(lines.join("")).not.toContain("abc");
  });

  it("prints plain JSON lines (no prefix) outside systemd, and human lines on a terminal", () => {
    const plain = fakeStdout();
    processLogger("info", "auto", {}, plain.stream).info("x");
    expect(plain.lines[0]?.startsWith("{")).toBe(true);
    const tty = fakeStdout();
    (tty.stream as { isTTY: boolean }).isTTY = true;
    processLogger("info", "auto", JOURNAL, tty.stream).info("x");
    expect(tty.lines[0]).toMatch(/ INFO {2}piclaw x/);
  });
});
