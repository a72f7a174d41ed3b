import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/app/config/load.js";
import { Daemon } from "../../src/app/daemon.js";
import { HttpService } from "../../src/http/server.js";
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
    daemon = new Daemon(
      { config, path: null, stateDir },
      log,
      systemClock,
      {},
      { notifier: new FakeNotifier() },
    );
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

  it("TRACE /mcp is 405 with Allow, and logs no error", async () => {
    const before = lines.length;
    const res = await send(base, "/mcp", { method: "TRACE", headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, POST, DELETE");
    const errors = lines.slice(before).filter((l) => l.includes('"level":"error"'));
    expect(errors).toEqual([]);
  });

  it("an unknown method on a plain route is 405 with Allow", async () => {
    const res = await send(base, "/healthz", { method: "TRACE" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });

  it("the API and dashboard routes' 405s name what is allowed", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const calibrate = await send(base, "/api/calibrate", { headers: auth });
    expect([calibrate.status, calibrate.headers.allow]).toEqual([405, "POST"]);
    const status = await send(base, "/api/agent/status", { method: "POST", headers: auth });
    expect([status.status, status.headers.allow]).toEqual([405, "GET"]);
    const park = await send(base, "/dashboard/park", { headers: auth });
    expect([park.status, park.headers.allow]).toEqual([405, "POST"]);
  });

  it("a client that disconnects mid-upload to /mcp is logged at debug, not error", async () => {
    const before = lines.length;
    const url = new URL(base);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    const seen = () => lines.slice(before).some((l) => l.includes("mcp client went away"));
    for (let i = 0; i < 50 && !seen(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen()).toBe(true);
    expect(lines.slice(before).filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });
});

describe("HttpService timeouts (slow clients are not held for Node's 300 s)", () => {
  const log = Logger.create({
    level: "error",
    format: "json",
    sink: { write: () => {} },
    now: () => Date.now(),
  });
  const http = new HttpService(
    {},
    log,
    {
      // Reads the body, then takes longer than `requestMs` to answer: the reply must not be cut.
      "/slow-reply": async (req, res) => {
        for await (const _ of req) {
          // drain
        }
        await new Promise((r) => setTimeout(r, 900));
        res.writeHead(200);
        res.end("done");
      },
    },
    { timeouts: { headersMs: 300, requestMs: 500, checkEveryMs: 100 } },
  );
  let port = 0;
  beforeAll(async () => {
    port = Number(new URL(await http.start({ host: "127.0.0.1", port: 0 })).port);
  });
  afterAll(() => http.stop());

  /** Send `text`, never finish; resolve with what the server wrote before closing, and when. */
  function stall(text: string): Promise<{ reply: string; ms: number }> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      let reply = "";
      const socket = connect(port, "127.0.0.1", () => socket.write(text));
      socket.on("data", (d: Buffer) => {
        reply += d.toString();
      });
      socket.on("close", () => resolve({ reply, ms: Date.now() - started }));
      socket.on("error", reject);
      setTimeout(() => socket.destroy(new Error("still open after 5 s")), 5_000);
    });
  }

  it("headers not finished in time: 408 and the socket closes", async () => {
    const { reply, ms } = await stall("GET /slow-reply HTTP/1.1\r\nHost: localhost\r\n");
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(2_000);
  });

  it("a body not finished in time: 408 and the socket closes", async () => {
    const { reply, ms } = await stall(
      "POST /slow-reply HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n0123456789",
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(2_000);
  });

  it("a reply that takes longer than requestMs, after the whole request was read, is not cut", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/slow-reply`, { method: "POST", body: "x" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("done");
  });

  it("an idle keep-alive socket outlives the header limit and is announced for 30 s", async () => {
    // The client reuses the socket after a pause longer than headersMs: the second request is served.
    const replies = await new Promise<string>((resolve, reject) => {
      let text = "";
      const get = "POST /slow-reply HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n\r\nx";
      const socket = connect(port, "127.0.0.1", () => socket.write(get));
      socket.on("data", (d: Buffer) => {
        text += d.toString();
        // Chunked replies: each ends with the empty last chunk.
        const n = text.match(/\r\n0\r\n\r\n/g)?.length ?? 0;
        if (n === 1 && text.endsWith("\r\n0\r\n\r\n")) setTimeout(() => socket.write(get), 1_000);
        if (n === 2) socket.end(() => resolve(text));
      });
      socket.on("error", reject);
      setTimeout(() => socket.destroy(new Error("no second reply within 8 s")), 8_000);
    });
    expect(replies.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(replies).toMatch(/Keep-Alive: timeout=30/i);
  });
});
