import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { Logger } from "../../src/log/logger.js";
import { tokenFilePath } from "../../src/mcp/config.js";
import { TokenStore } from "../../src/mcp/tokens.js";
import { systemClock } from "../../src/util/clock.js";
import { FakeNotifier } from "../fakes/notifier.js";

/**
 * Issue 19 items 3 and 6: one request policy for every route of the daemon's public server. A DNS
 * rebinding page (any Host) reads nothing, `/sim/*` needs the `/mcp` token, unknown methods get 405.
 */

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method ?? "GET" },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    for (const [k, v] of Object.entries(opts.headers ?? {})) req.setHeader(k, v);
    req.on("error", reject);
    req.end();
  });
}

describe("the daemon's request policy (mcp.requireToken: always)", () => {
  const lines: string[] = [];
  let stateDir = "";
  let daemon: Daemon;
  let base = "";
  let token = "";

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), "piclaw-policy-"));
    const log = Logger.create({
      level: "debug",
      format: "json",
      sink: { write: (l) => lines.push(l) },
      now: () => Date.now(),
    });
    const config = parseConfig({ stateDir, server: { port: 0 }, mcp: { requireToken: "always" } });
    token = (await new TokenStore(tokenFilePath(config.mcp, stateDir), systemClock).create("policy")).token;
    daemon = new Daemon({ config, path: null, stateDir }, log, systemClock, {}, new FakeNotifier());
    await daemon.start();
    base = daemon.url ?? "";
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const rebound = () => ({ host: `attacker.example:${new URL(base).port}` });

  it.each(["/sim/frame.jpg", "/sim/truth.json", "/sim/screen.png", "/healthz"])(
    "a rebinding Host on %s is refused with 403, as /mcp refuses it",
    async (path) => {
      const auth = { authorization: `Bearer ${token}` };
      const res = await send(base, path, { headers: { ...auth, ...rebound() } });
      expect(res.status).toBe(403);
      expect(res.body).toContain("Host not allowed");
      expect((await send(base, "/mcp", { method: "POST", headers: { ...auth, ...rebound() } })).status).toBe(
        403,
      );
    },
  );

  it("a foreign Origin is refused on /healthz and /sim/*", async () => {
    const origin = { origin: "http://attacker.example" };
    expect((await send(base, "/healthz", { headers: origin })).status).toBe(403);
    expect((await send(base, "/sim/truth.json", { headers: origin })).status).toBe(403);
  });

  it("/sim/* without a token is 401 (the /mcp rule); with one it answers; /healthz stays open", async () => {
    for (const path of ["/sim/frame.jpg", "/sim/truth.json", "/sim/screen.png"]) {
      const res = await send(base, path);
      expect(res.status, path).toBe(401);
      expect(res.headers["www-authenticate"]).toContain("Bearer");
      expect(res.body).not.toContain("phone");
    }
    expect((await send(base, "/sim/truth.json", { headers: { authorization: "Bearer nope" } })).status).toBe(
      401,
    );
    const ok = await send(base, "/sim/truth.json", { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect([200, 503]).toContain((await send(base, "/healthz")).status);
  });
});
