import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentConfigSchema } from "../../src/agent/config.js";
import { backoffMs, resolveApiKey, retryAfterMs } from "../../src/agent/provider.js";
import { PiclawError } from "../../src/util/errors.js";
import { seededRandom } from "../../src/util/random.js";

function expectPiclawError(work: () => unknown, code: string): PiclawError {
  try {
    work();
  } catch (err) {
    if (err instanceof PiclawError && err.code === code) return err;
    throw err;
  }
  throw new Error(`expected PiclawError ${code}`);
}

describe("provider helpers", () => {
  const settings = { apiKeyEnv: "MY_KEY", apiKeyFile: "secrets/key.txt" };

  it("reads the key from the env var first, else from the file (relative to the state dir)", () => {
    const dir = mkdtempSync(join(tmpdir(), "piclaw-key-"));
    expect(resolveApiKey(settings, { MY_KEY: " sk-env \n" }, dir)).toBe("sk-env");
    const files: string[] = [];
    const key = resolveApiKey(settings, {}, dir, (p) => {
      files.push(p);
      return "sk-file\n";
    });
    expect(key).toBe("sk-file");
    expect(files).toEqual([join(dir, "secrets/key.txt")]);
    writeFileSync(join(dir, "abs.txt"), "sk-abs");
    expect(resolveApiKey({ apiKeyEnv: "X", apiKeyFile: join(dir, "abs.txt") }, {}, "/nowhere")).toBe(
      "sk-abs",
    );
  });

  it("a missing key is PROVIDER_NO_KEY naming where it was looked for", () => {
    const err = expectPiclawError(() => resolveApiKey(settings, {}, "/nowhere"), "PROVIDER_NO_KEY");
    expect(err.message).toContain("key file");
    const err2 = expectPiclawError(() => resolveApiKey({ apiKeyEnv: "MY_KEY" }, {}, "/x"), "PROVIDER_NO_KEY");
    expect(err2.message).toBe("no API key: set MY_KEY");
  });

  it("Retry-After: ms header, seconds, HTTP date, garbage", () => {
    const now = Date.UTC(2026, 0, 5, 9, 41, 0);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ "retry-after": new Date(now + 9000).toUTCString() }), now)).toBe(9000);
    expect(retryAfterMs(new Headers({ "retry-after": new Date(now - 9000).toUTCString() }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });

  it("backoff doubles within ±50% jitter and is capped", () => {
    const random = seededRandom(3);
    for (let retry = 1; retry <= 8; retry++) {
      const nominal = Math.min(10_000, 500 * 2 ** (retry - 1));
      const ms = backoffMs(retry, 500, 10_000, random);
      expect(ms).toBeGreaterThanOrEqual(nominal * 0.5);
      expect(ms).toBeLessThanOrEqual(Math.min(10_000, nominal * 1.5));
    }
  });
});

describe("agent config", () => {
  it("an empty section is complete, with the issue's defaults", () => {
    const c = agentConfigSchema.parse({});
    expect(c.provider).toBe("default");
    expect(c.providers.default?.fold).toEqual({ firstAt: 30, keep: 10, every: 20 });
    expect(c).toMatchObject({
      maxTurnsPerAttempt: 300,
      maxAttempts: 3,
      badTurnLimit: 5,
      followUpMinutes: 15,
    });
    expect(c.budgets.session.maxWallSeconds).toBe(3600);
    expect(c.guard).toEqual({ warnAt: 3, blockAt: 5 });
  });

  it("the active provider must exist; guard block must come after warn", () => {
    expect(agentConfigSchema.safeParse({ provider: "local" }).success).toBe(false);
    expect(agentConfigSchema.safeParse({ guard: { warnAt: 4, blockAt: 4 } }).success).toBe(false);
    const two = agentConfigSchema.parse({
      provider: "local",
      providers: { local: { baseUrl: "http://127.0.0.1:8080/v1", model: "qwen", fold: { firstAt: 40 } } },
    });
    expect(two.providers.local?.fold).toEqual({ firstAt: 40, keep: 10, every: 20 });
  });
});
