import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HashedSecretFile, hashedSecretFields } from "../../src/util/hashed-secret-file.js";

const schema = z.strictObject(hashedSecretFields);
const open = (path: string) =>
  new HashedSecretFile({
    path,
    recordSchema: schema,
    key: "things",
    secretPrefix: "tst_",
    errorPrefix: "THING",
    description: "thing file",
  });
const tempFile = (): string => join(mkdtempSync(join(tmpdir(), "piclaw-secrets-")), "things.json");

describe("HashedSecretFile", () => {
  it("stores only the hash, privately, and verifies the minted plaintext (and nothing else)", () => {
    const path = tempFile();
    const file = open(path);
    expect(file.read()).toEqual([]);
    const { fields, plaintext } = file.mint([], "2025-01-01T00:00:00.000Z");
    file.write([fields]);
    expect(plaintext).toMatch(/^tst_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain(plaintext.slice(13));
    expect(JSON.parse(text)).toEqual({ version: 1, things: [fields] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(file.verify(plaintext)).toEqual(fields);
    expect(file.verify(`${plaintext.slice(0, -1)}${plaintext.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(file.verify(plaintext.replace("tst_", "xyz_"))).toBeNull();
  });

  it("sees another writer's change and names bad files with its error prefix", () => {
    const path = tempFile();
    const a = open(path);
    const b = open(path);
    const minted = a.mint([], "t");
    a.write([minted.fields]);
    expect(b.verify(minted.plaintext)).not.toBeNull();
    a.write([]);
    expect(b.verify(minted.plaintext)).toBeNull();
    writeFileSync(path, JSON.stringify({ version: 1, tokens: [] }));
    expect(() => b.read()).toThrow(expect.objectContaining({ code: "THING_FILE_INVALID" }));
    expect(() => open(join(path, "below-a-file")).read()).toThrow(
      expect.objectContaining({ code: "THING_FILE_UNREADABLE" }),
    );
  });

  it("sees a change that keeps the inode, the size and the mtime (a stat key would not)", () => {
    const path = tempFile();
    const writer = open(path);
    const reader = open(path);
    const first = writer.mint([], "2025-01-01T00:00:00.000Z");
    writer.write([first.fields]);
    // A whole-second mtime, so putting it back below restores it exactly.
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    expect(reader.verify(first.plaintext)).not.toBeNull();
    const second = writer.mint([], "2025-01-01T00:00:00.000Z");
    // Rewritten in place, same length, mtime put back: only the bytes differ.
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.replace(first.fields.sha256, second.fields.sha256));
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    expect(reader.verify(first.plaintext)).toBeNull();
  });

  it("update() is one locked read-modify-write: a throw leaves the file, null writes nothing", async () => {
    const path = tempFile();
    const file = open(path);
    const minted = file.mint([], "t");
    expect(
      await file.update((records) => ({ records: [...records, minted.fields], result: records.length })),
    ).toBe(0);
    await expect(
      file.update(() => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await file.update((records) => ({ records: null, result: records.map((r) => r.id) }))).toEqual([
      minted.fields.id,
    ]);
    expect(readdirSync(dirname(path))).toEqual(["things.json"]);
  });
});
