import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
});
