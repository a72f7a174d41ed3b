import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleTempFiles, writeFileAtomic, writeJsonAtomic } from "../../src/util/atomic-file.js";

const tempDir = (): string => mkdtempSync(join(tmpdir(), "piclaw-atomic-"));

describe("writeFileAtomic", () => {
  it("creates missing folders and writes the data with mode 0600 by default, leaving no temp file", () => {
    const dir = tempDir();
    const path = join(dir, "a", "b", "state.json");
    writeFileAtomic(path, "hello\n");
    expect(readFileSync(path, "utf8")).toBe("hello\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "a")).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(dir, "a", "b"))).toEqual(["state.json"]);
  });

  it("replaces an existing file whole and applies the given mode exactly, whatever the umask", () => {
    const dir = tempDir();
    const path = join(dir, "state.bin");
    writeFileSync(path, "old content that is longer than the new one", { mode: 0o666 });
    const oldUmask = process.umask(0o077);
    try {
      writeFileAtomic(path, new Uint8Array([1, 2, 3]), { mode: 0o644 });
    } finally {
      process.umask(oldUmask);
    }
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(readdirSync(dir)).toEqual(["state.bin"]);
  });

  it("removes its temp file and leaves the target alone when the rename fails", () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    mkdirSync(path); // a folder in the way: the file cannot be renamed over it
    writeFileSync(join(path, "inside"), "keep");
    expect(() => writeFileAtomic(path, "new")).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(["state.json"]);
    expect(readFileSync(join(path, "inside"), "utf8")).toBe("keep");
  });

  it("writeJsonAtomic writes indented JSON with a trailing newline", () => {
    const path = join(tempDir(), "doc.json");
    writeJsonAtomic(path, { version: 1, items: [1] });
    expect(readFileSync(path, "utf8")).toBe('{\n  "version": 1,\n  "items": [\n    1\n  ]\n}\n');
  });

  it("removeStaleTempFiles removes killed writers' temp files older than a minute, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-stale-tmp-"));
    const now = Date.now();
    const make = (rel: string, ageMs: number) => {
      const path = join(dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, "x");
      utimesSync(path, (now - ageMs) / 1000, (now - ageMs) / 1000);
      return path;
    };
    const old = [
      make("tokens.json.4242.0a1b2c3d.tmp", 61_000),
      make("jobs.md.lock.77.ffffffff.tmp", 3_600_000),
      make("memory/daily/2026-03-14.md.9.00000000.tmp", 120_000),
    ];
    const kept = [
      make("tokens.json.4243.0a1b2c3d.tmp", 5_000), // a live writer's, seconds old
      make("notes.tmp", 3_600_000), // not ours
      make("jobs.md", 3_600_000),
      make("a/b/c/d/deep.json.1.0a1b2c3d.tmp", 3_600_000), // below maxDepth
    ];
    expect(removeStaleTempFiles(dir, { nowMs: now }).sort()).toEqual(old.sort());
    for (const path of old) expect(existsSync(path)).toBe(false);
    for (const path of kept) expect(existsSync(path)).toBe(true);
    expect(removeStaleTempFiles(join(dir, "missing"))).toEqual([]);
  });
});
