import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Logger } from "../../src/log/logger.js";
import { memoryConfigSchema } from "../../src/memory/config.js";
import { MemoryStore } from "../../src/memory/store.js";
import { zoneTime } from "../../src/shared/time-zone.js";
import { ManualClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function store(
  options: { softCapBytes?: number; hardCapBytes?: number; timeZone?: string; clock?: ManualClock } = {},
) {
  const stateDir = mkdtempSync(join(tmpdir(), "piclaw-memory-"));
  dirs.push(stateDir);
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 2, 14, 23, 30));
  const memory = new MemoryStore({
    stateDir,
    clock,
    softCapBytes: options.softCapBytes ?? 8192,
    ...(options.hardCapBytes !== undefined ? { hardCapBytes: options.hardCapBytes } : {}),
    timeZone: options.timeZone ?? "UTC",
  });
  return { stateDir, clock, memory };
}

describe("MemoryStore", () => {
  it("starts memory.md and USER.md from the templates, in <stateDir>/memory/", async () => {
    const { stateDir, memory } = store();
    const text = await memory.readMemory();
    expect(text).toBe(readFileSync(join("memory", "memory.md"), "utf8"));
    expect(await memory.readUser()).toBe(readFileSync(join("memory", "USER.md"), "utf8"));
    expect(readdirSync(join(stateDir, "memory")).sort()).toEqual(["USER.md", "memory.md"]);
  });

  it("appends facts as paragraphs and replaces exact text (with `$` kept literal)", async () => {
    const { memory } = store();
    await memory.saveMemory("Anna uses WeChat, not Messages.");
    await memory.saveMemory("  The passcode screen has a 6-digit keypad.\n");
    let text = await memory.readMemory();
    expect(text).toMatch(
      /\n\nAnna uses WeChat, not Messages\.\n\nThe passcode screen has a 6-digit keypad\.\n$/,
    );
    await memory.updateMemory("Anna uses WeChat", "Anna costs $& and uses WhatsApp");
    text = await memory.readMemory();
    expect(text).toContain("Anna costs $& and uses WhatsApp, not Messages.");
    await memory.updateMemory("Anna costs $& and uses WhatsApp, not Messages.", "");
    expect(await memory.readMemory()).not.toMatch(/\n{3}/);
  });

  it("refuses an update whose text is not there with MEMORY_NOT_FOUND, leaving the file alone", async () => {
    const { memory } = store();
    await memory.saveMemory("Bob's birthday is 3 May.");
    const before = await memory.readMemory();
    const err = await memory.updateMemory("Bob's birthday is 4 May.", "x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PiclawError);
    expect((err as PiclawError).code).toBe("MEMORY_NOT_FOUND");
    expect(await memory.readMemory()).toBe(before);
    await expect(memory.saveMemory("   ")).rejects.toMatchObject({ code: "MEMORY_INVALID" });
  });

  it("warns past the soft cap but never drops or trims what was written", async () => {
    const { memory } = store({ softCapBytes: 600 });
    const facts = Array.from({ length: 12 }, (_, i) => `Fact number ${i}: ${"x".repeat(40)}.`);
    const warnings: (string | undefined)[] = [];
    for (const f of facts) warnings.push((await memory.saveMemory(f)).warning);
    const text = await memory.readMemory();
    for (const f of facts) expect(text).toContain(f);
    expect(warnings[0]).toBeUndefined();
    const last = warnings.at(-1);
    expect(last).toMatch(/memory\.md is \d+ bytes, past its soft cap of 600/);
    expect(Buffer.byteLength(text)).toBeGreaterThan(600);
    expect((await memory.updateMemory("Fact number 0", "Fact zero")).warning).toMatch(/soft cap/);
  });

  it("refuses a save past the hard cap whole, with a clear message; a shrinking update still works", async () => {
    const { memory } = store({ softCapBytes: 600, hardCapBytes: 1024 });
    const fact = (i: number) => `Fact number ${i}: ${"x".repeat(80)}.`;
    let refused: unknown = null;
    let saved = 0;
    for (let i = 0; i < 25 && !refused; i++) {
      try {
        await memory.saveMemory(fact(i));
        saved += 1;
      } catch (err) {
        refused = err;
      }
    }
    expect(refused).toMatchObject({ code: "MEMORY_FULL" });
    expect((refused as Error).message).toMatch(/over its hard cap of 1024: nothing was saved/);
    const text = await memory.readMemory();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
    expect(text).not.toContain(fact(saved)); // not trimmed in: absent
    await memory.updateMemory(fact(0), "");
    await memory.saveMemory(fact(saved));
    expect(await memory.readMemory()).toContain(fact(saved));
  });

  it("keeps every concurrent save (writes are serialised)", async () => {
    const { memory } = store();
    await Promise.all(Array.from({ length: 25 }, (_, i) => memory.saveMemory(`concurrent fact ${i}`)));
    const text = await memory.readMemory();
    for (let i = 0; i < 25; i++) expect(text).toContain(`concurrent fact ${i}\n`);
  });

  it("writes atomically: no temp files left, and a failed write leaves the old file whole", async () => {
    const { stateDir, memory } = store();
    await memory.saveMemory("first");
    const dir = join(stateDir, "memory");
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // Make the rename target a directory the temp file cannot replace: the write must fail cleanly.
    const before = await memory.readMemory();
    rmSync(join(dir, "memory.md"));
    mkdirSync(join(dir, "memory.md"));
    writeFileSync(join(dir, "memory.md", "keep"), "x");
    await expect(memory.saveMemory("second")).rejects.toThrow();
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    rmSync(join(dir, "memory.md"), { recursive: true });
    writeFileSync(join(dir, "memory.md"), before);
    await memory.saveMemory("third");
    expect(await memory.readMemory()).toContain("first\n\nthird\n");
  });

  it("names daily logs by the configured zone's date and stamps the zone's time", async () => {
    // 23:30 UTC on 14 March is already 15 March, 08:30 in Tokyo.
    const tokyo = store({ timeZone: "Asia/Tokyo" });
    await tokyo.memory.appendDailyLog("Sent Anna the lunch message.");
    tokyo.clock.advance(5 * 60_000);
    await tokyo.memory.appendDailyLog("Checked mail:\nnothing new.");
    expect(readdirSync(join(tokyo.stateDir, "memory", "daily"))).toEqual(["2026-03-15.md"]);
    expect(await tokyo.memory.readDailyLog()).toBe(
      "# 2026-03-15\n\n- 08:30 Sent Anna the lunch message.\n- 08:35 Checked mail: nothing new.\n",
    );
    expect(await tokyo.memory.readDailyLog("2026-03-14")).toBe("");
    const utc = store({ timeZone: "UTC" });
    await utc.memory.appendDailyLog("late note");
    expect(await utc.memory.readDailyLog("2026-03-14")).toBe("# 2026-03-14\n\n- 23:30 late note\n");
    await expect(utc.memory.readDailyLog("2026-02-30")).rejects.toMatchObject({ code: "MEMORY_INVALID" });
  });

  it("follows DST: New York's date and hour around the spring-forward change", () => {
    // 2026-03-08 07:30 UTC is 03:30 EDT (clocks jumped from 02:00 to 03:00 at 07:00 UTC).
    expect(zoneTime(Date.UTC(2026, 2, 8, 7, 30), "America/New_York")).toEqual({
      date: "2026-03-08",
      time: "03:30",
    });
    expect(zoneTime(Date.UTC(2026, 2, 8, 6, 30), "America/New_York")).toEqual({
      date: "2026-03-08",
      time: "01:30",
    });
  });
});

describe("memory config", () => {
  it("defaults to an 8 KB soft cap; the time zone is the appliance's (top-level `timeZone`)", () => {
    expect(memoryConfigSchema.parse({})).toEqual({ softCapBytes: 8192, hardCapBytes: 16_384 });
    expect(memoryConfigSchema.safeParse({ softCapBytes: 8192, hardCapBytes: 4096 }).success).toBe(false);
    expect(() => memoryConfigSchema.parse({ timeZone: "Europe/Berlin" })).toThrow();
  });

  it("daily-log text passes the redactor before it is written (issue 19)", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "piclaw-memory-"));
    dirs.push(stateDir);
    const log = Logger.create({ level: "error", format: "json", sink: { write: () => {} }, now: () => 0 });
    log.addSecret("483920");
    const memory = new MemoryStore({
      stateDir,
      clock: new ManualClock(Date.UTC(2026, 2, 14, 9, 0)),
      softCapBytes: 8192,
      timeZone: "UTC",
      redact: (text) => log.redact(text),
    });
    await memory.appendDailyLog("Unlocked the phone with 483920\nthen opened Mail");
    const text = await memory.readDailyLog("2026-03-14");
    expect(text).not.toContain("483920");
    expect(text).toContain("- 09:00 Unlocked the phone with [redacted] then opened Mail");
  });

  it("two stores on one state dir (two writers) lose no fact or log line", async () => {
    const a = store();
    const b = new MemoryStore({
      stateDir: a.stateDir,
      clock: a.clock,
      softCapBytes: 1 << 20,
      timeZone: "UTC",
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        a.memory.saveMemory(`fact a${i}`),
        b.saveMemory(`fact b${i}`),
        a.memory.appendDailyLog(`line a${i}`),
        b.appendDailyLog(`line b${i}`),
      ]).flat(),
    );
    const facts = await a.memory.readMemory();
    const log = await a.memory.readDailyLog();
    for (let i = 0; i < 20; i++)
      for (const w of ["a", "b"]) {
        expect(facts).toContain(`fact ${w}${i}\n`);
        expect(log).toContain(` line ${w}${i}\n`);
      }
    expect(readdirSync(join(a.stateDir, "memory")).filter((f) => /\.(lock|tmp)$/.test(f))).toEqual([]);
  });
});
