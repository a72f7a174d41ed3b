import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { firstBootFiles, tokenCommand } from "../../src/app/commands/token.js";
import { TokenStore } from "../../src/mcp/tokens.js";
import { ManualClock } from "../../src/util/clock.js";

/** `piclaw token show`: what the SD image's first boot left in the state directory. */
describe("token show", () => {
  let dir: string;
  let clock: ManualClock;
  let tokenFile: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "piclaw-token-show-"));
    clock = new ManualClock(Date.UTC(2026, 10, 23, 18, 0, 0));
    tokenFile = join(dir, "tokens.json");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function show(): Promise<string> {
    let out = "";
    const code = await tokenCommand("show", undefined, undefined, {
      tokenFile,
      clock,
      write: (t) => {
        out += t;
      },
    });
    expect(code).toBe(0);
    return out;
  }

  it("says there is none when no first boot happened", async () => {
    expect(await show()).toContain("no first-boot token here");
  });

  it("prints a live first-boot token and a fresh pair code, then their expiry and revocation", async () => {
    const store = new TokenStore(tokenFile, clock);
    const { info, token } = await store.create("first-boot");
    const files = firstBootFiles(tokenFile);
    writeFileSync(files.token, `${token}\n`);
    writeFileSync(files.pairCode, "K7Q-2MZ\n2026-11-23T18:10:00Z\n");

    const first = await show();
    expect(first).toContain(`MCP token ${info.id} (first-boot)`);
    expect(first).toContain(`  ${token}\n`);
    expect(first).toContain("bridge pair code (works once, until 2026-11-23T18:10:00Z):  K7Q-2MZ");

    clock.advance(11 * 60_000);
    expect(await show()).toContain("pair code expired at 2026-11-23T18:10:00Z");

    await store.revoke(info.id);
    const revoked = await show();
    expect(revoked).toContain("first-boot MCP token was revoked");
    expect(revoked).not.toContain(token);
  });
});
