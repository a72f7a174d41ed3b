import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic, writeJsonAtomic } from "../../src/util/atomic-file.js";

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
});
