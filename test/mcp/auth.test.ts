import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { connectClient, INITIALIZE_BODY, MCP_HEADERS, type StartedMcp, startMcp } from "./helpers.js";

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP exchange (node:http, so the Host header can be anything). */
function raw(url: string, headers: Record<string, string>, body = INITIALIZE_BODY): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => {
        text += c.toString("utf8");
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let started: StartedMcp | null = null;
afterEach(async () => {
  await started?.stop();
  started = null;
});

describe("MCP endpoint security", () => {
  it("on a non-loopback bind: 401 without or with a wrong token, 200 with a good one", async () => {
    started = await startMcp({ bindHost: "0.0.0.0" });
    const { token, info } = await started.tokens.create("laptop");

    const none = await raw(started.mcpUrl, {});
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="piclaw"');

    const wrongSecret = `${token.slice(0, -4)}AAAA`;
    const wrong = await raw(started.mcpUrl, { authorization: `Bearer ${wrongSecret}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toBe('Bearer realm="piclaw", error="invalid_token"');
    expect((await raw(started.mcpUrl, { authorization: "Bearer nonsense" })).status).toBe(401);
    expect((await raw(started.mcpUrl, { authorization: `Basic ${token}` })).status).toBe(401);

    const good = await raw(started.mcpUrl, { authorization: `Bearer ${token}` });
    expect(good.status).toBe(200);
    expect(good.body).toContain('"protocolVersion":"2025-11-25"');

    // A real client with the token calls a gesture; the lease carries the token's label, not the token.
    const client = await connectClient(started.mcpUrl, "2026-07-28", token);
    const tap = await client.callTool({ name: "tap", arguments: { bbox: [0, 0, 0.5, 0.5] } });
    await client.close();
    expect(tap.isError).toBeFalsy();
    expect(started.runs[0]?.leaseLabel).toBe("mcp:laptop");

    // Revocation takes effect on the next request, without a restart.
    await started.tokens.revoke(info.id);
    expect((await raw(started.mcpUrl, { authorization: `Bearer ${token}` })).status).toBe(401);

    // Neither the good nor the wrong token ever reaches the log.
    const log = started.logLines.join("");
    expect(log).not.toContain(token);
    expect(log).not.toContain(wrongSecret);
    // The secret part alone: 32 random bytes, 43 base64url characters (which may themselves contain "_").
    expect(log).not.toContain(token.slice(-43));
  });

  it("refuses a foreign Origin and an unknown Host with 403 (DNS rebinding)", async () => {
    started = await startMcp({ bindHost: "0.0.0.0", config: { allowedOrigins: ["app.example.org"] } });
    const { token } = await started.tokens.create();
    const auth = { authorization: `Bearer ${token}` };
    expect((await raw(started.mcpUrl, { ...auth, origin: "http://evil.example.com" })).status).toBe(403);
    expect((await raw(started.mcpUrl, { ...auth, origin: "null" })).status).toBe(403);
    expect((await raw(started.mcpUrl, { ...auth, host: "evil.example.com" })).status).toBe(403);
    expect((await raw(started.mcpUrl, { ...auth, host: "evil.example.com:8048" })).status).toBe(403);
    // Loopback names, this machine's names and configured origins pass.
    expect((await raw(started.mcpUrl, { ...auth, origin: "http://localhost:3000" })).status).toBe(200);
    expect((await raw(started.mcpUrl, { ...auth, origin: "https://app.example.org" })).status).toBe(200);
    expect((await raw(started.mcpUrl, { ...auth, host: "piclaw-test.local:8048" })).status).toBe(200);
    // On loopback too: DNS rebinding targets exactly the local, tokenless case.
    await started.stop();
    started = await startMcp();
    expect((await raw(started.mcpUrl, { host: "rebind.attacker.net" })).status).toBe(403);
    expect((await raw(started.mcpUrl, { origin: "https://attacker.net" })).status).toBe(403);
    expect((await raw(started.mcpUrl, {})).status).toBe(200);
  });

  it("refuses an oversize body with 413 and applies the per-token rate limit with 429 + Retry-After", async () => {
    started = await startMcp({ bindHost: "0.0.0.0", config: { maxBodyBytes: 4096, rateLimitPerMinute: 3 } });
    const a = (await started.tokens.create("a")).token;
    const b = (await started.tokens.create("b")).token;
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "send_to_clipboard", arguments: { text: "x".repeat(5000) } },
    });
    expect((await raw(started.mcpUrl, { authorization: `Bearer ${a}` }, big)).status).toBe(413);
    // Without Content-Length (chunked), the limit is enforced while reading.
    const chunked = await raw(
      started.mcpUrl,
      { authorization: `Bearer ${a}`, "transfer-encoding": "chunked" },
      big,
    );
    expect(chunked.status).toBe(413);
    expect(chunked.body).toContain("request body over the 4096-byte limit");

    expect((await raw(started.mcpUrl, { authorization: `Bearer ${a}` })).status).toBe(200);
    const limited = await raw(started.mcpUrl, { authorization: `Bearer ${a}` });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // Another token has its own budget.
    expect((await raw(started.mcpUrl, { authorization: `Bearer ${b}` })).status).toBe(200);
  });

  it("charges the rate limit per tool call: a batch with more calls than are left is refused whole", async () => {
    started = await startMcp({ bindHost: "0.0.0.0", config: { rateLimitPerMinute: 5 } });
    const a = (await started.tokens.create("a")).token;
    const batch = (n: number): string =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          jsonrpc: "2.0",
          id: i + 1,
          method: "tools/call",
          params: { name: "no_such_tool", arguments: {} },
        })),
      );
    // Six calls in one HTTP request exceed a budget of five: before issue 19 this counted as one request.
    const limited = await raw(started.mcpUrl, { authorization: `Bearer ${a}` }, batch(6));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // The refused batch spent only its request's one: a batch of the four left passes, then nothing does.
    expect((await raw(started.mcpUrl, { authorization: `Bearer ${a}` }, batch(4))).status).not.toBe(429);
    expect((await raw(started.mcpUrl, { authorization: `Bearer ${a}` })).status).toBe(429);
  });

  it("needs no token on loopback unless requireToken is always", async () => {
    started = await startMcp();
    expect((await raw(started.mcpUrl, {})).status).toBe(200);
    await started.stop();
    started = await startMcp({ config: { requireToken: "always" } });
    expect((await raw(started.mcpUrl, {})).status).toBe(401);
    const { token } = await started.tokens.create();
    expect((await raw(started.mcpUrl, { authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
