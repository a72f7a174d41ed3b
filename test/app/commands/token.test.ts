import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnProjectBin, tempConfig, waitFor } from "../../helpers/process.js";
import { INITIALIZE_BODY, MCP_HEADERS } from "../../mcp/helpers.js";

async function piclaw(
  args: string[],
  configPath: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawnProjectBin("bin/piclaw.js", [...args, "--config", configPath], { PICLAW_CONFIG: "" });
  const { code } = await proc.exit;
  return { code, out: proc.stdout(), err: proc.stderr() };
}

const parseLines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("piclaw token + the daemon's /mcp", () => {
  it("creates, lists and revokes tokens; the daemon on 0.0.0.0 honours them", async () => {
    const { dir, configPath } = tempConfig((d) => `stateDir: ${d}\nserver: { host: 0.0.0.0, port: 0 }\n`);

    const created = await piclaw(["token", "create", "--label", "claude-desktop"], configPath);
    expect(created.code, created.err).toBe(0);
    const token = /piclaw_[0-9a-f]{8}_[A-Za-z0-9_-]{43}/.exec(created.out)?.[0] ?? "";
    expect(token).not.toBe("");
    const id = token.split("_")[1] ?? "";
    const file = join(dir, "tokens.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = readFileSync(file, "utf8");
    // The secret is everything after `piclaw_<id>_` (base64url: it may hold `_` itself).
    const secret = token.slice("piclaw_".length + id.length + 1);
    expect(secret).toHaveLength(43);
    expect(stored).not.toContain(secret);
    expect(stored).toContain("claude-desktop");

    const listed = await piclaw(["token", "list"], configPath);
    expect(listed.out).toContain(id);
    expect(listed.out).toContain("claude-desktop");
    expect(listed.out).not.toContain(token);
    expect((await piclaw(["token", "create", "--label", "claude-desktop"], configPath)).err).toContain(
      "TOKEN_LABEL_TAKEN",
    );

    const daemon = spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], { PICLAW_CONFIG: "" });
    try {
      const line = await waitFor(
        () => parseLines(daemon.stdout()).find((l) => l.msg === "mcp endpoint"),
        "the mcp endpoint log line",
      );
      expect(line).toMatchObject({ auth: "bearer token required" });
      expect(line.tools).toHaveLength(12);
      const port = new URL(String(line.url)).port;
      const mcp = `http://127.0.0.1:${port}/mcp`;
      const post = (headers: Record<string, string>, body = INITIALIZE_BODY) =>
        fetch(mcp, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body });

      const anonymous = await post({});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");
      const auth = { authorization: `Bearer ${token}` };
      const init = await post(auth);
      expect(init.status).toBe(200);
      expect(await init.text()).toContain('"name":"piclaw"');
      const list = await post(auth, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
      expect(await list.text()).toContain('"name":"unlock_phone"');

      const revoked = await piclaw(["token", "revoke", "claude-desktop"], configPath);
      expect(revoked.out).toContain(`token ${id} (claude-desktop) revoked`);
      expect((await post(auth)).status).toBe(401);
      expect((await piclaw(["token", "list"], configPath)).out).toContain("no tokens");
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exit;
    }
    expect(daemon.stdout() + daemon.stderr()).not.toContain(token);
    // A daemon and CLI processes started and stopped: over vitest's 30 s default at load ~25.
  }, 180_000);
});
