import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bridgeCommand } from "../../src/app/commands/bridge.js";
import { ManualClock } from "../../src/util/clock.js";
import { PageClient, type StartedBridge, startBridge } from "./helpers.js";

let started: StartedBridge | null = null;
afterEach(async () => {
  await started?.stop();
  started = null;
});

async function start(options: Parameters<typeof startBridge>[0] = {}): Promise<StartedBridge> {
  started = await startBridge(options);
  return started;
}

describe("bridge pairing", () => {
  it("a good code sets an HttpOnly, SameSite=Strict credential cookie that opens the API", async () => {
    const { bridge, url, dir } = await start();
    const page = new PageClient(url);
    expect((await page.poll()).status).toBe(401);

    const { code, expiresAtMs } = bridge.pairCode();
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(expiresAtMs - Date.now()).toBeGreaterThan(590_000);
    const reply = await page.pair(code);
    expect(reply.status).toBe(200);
    const cookie = reply.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^piclaw_bridge=pcb_[0-9a-f]{8}_[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/");
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.text).not.toContain("pcb_"); // the credential travels only in the cookie

    expect((await page.poll()).status).toBe(200);
    expect((await page.hello()).status).toBe(200);
    expect(bridge.status().pairedDevices).toHaveLength(1);

    // Both secrets are stored hashed, in private files.
    const deviceFile = join(dir, "bridge-devices.json");
    const secret = page.cookie?.split("_").slice(3).join("_") ?? "";
    expect(secret.length).toBe(43);
    expect(readFileSync(deviceFile, "utf8")).not.toContain(secret);
    expect(statSync(deviceFile).mode & 0o777).toBe(0o600);
  });

  it("a code works once; wrong, missing and expired codes get 401", async () => {
    const clock = new ManualClock();
    const { bridge, url, dir } = await start({ clock, config: { pairAttemptsPerMinute: 100 } });
    const page = new PageClient(url);
    expect((await page.pair("ABCD-EFGH")).status).toBe(401); // no code pending

    const { code } = bridge.pairCode();
    const pairFile = join(dir, "bridge-devices.json.pair");
    const stored = readFileSync(pairFile, "utf8");
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(code.replace("-", ""));
    expect(statSync(pairFile).mode & 0o777).toBe(0o600);

    const wrong = code.startsWith("A") ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    const refused = await page.pair(wrong);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(refused.body).toMatchObject({ error: { code: "BRIDGE_PAIR_REFUSED" } });

    // Typed in lower case with a space instead of the dash: the same code.
    const typed = code.toLowerCase().replace("-", " ");
    expect((await page.pair(typed)).status).toBe(200);
    expect((await new PageClient(url).pair(code)).status).toBe(401); // one-time

    const late = bridge.pairCode();
    clock.advance(600_000);
    expect((await new PageClient(url).pair(late.code)).status).toBe(401);
    expect(bridge.status().pairedDevices).toHaveLength(1);
    expect(bridge.status().pairCodeExpiresAtMs).toBeNull();
  });

  it("rate-limits pairing attempts (even a right code) and recovers after a minute", async () => {
    const clock = new ManualClock();
    const { bridge, url } = await start({ clock, config: { pairAttemptsPerMinute: 3 } });
    const { code } = bridge.pairCode();
    const page = new PageClient(url);
    for (let i = 0; i < 3; i++) expect((await page.pair("2222-2222")).status).toBe(401);
    const limited = await page.pair(code);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ error: { code: "BRIDGE_RATE_LIMITED" } });
    clock.advance(60_000);
    expect((await page.pair(code)).status).toBe(200);
  });

  it("delivers a Bearer credential for Shortcuts and curl, and revoking it locks the phone out", async () => {
    const { bridge, url, config, dir } = await start();
    const { code } = bridge.pairCode();
    const client = new PageClient(url);
    const reply = await client.post("/api/pair", { code, deliver: "token" });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("set-cookie")).toBeNull();
    const credential = String(reply.body.credential);
    expect(credential).toMatch(/^pcb_[0-9a-f]{8}_/);
    const bearer = { authorization: `Bearer ${credential}` };
    expect((await client.request("/api/poll?wait=0", { headers: bearer })).status).toBe(200);

    const out: string[] = [];
    const deps = {
      config,
      stateDir: dir,
      clock: { now: () => Date.now() },
      write: (t: string) => out.push(t),
    };
    await bridgeCommand("devices", undefined, deps);
    expect(out.join("")).toContain(String(reply.body.device));
    expect(out.join("")).not.toContain(credential);
    await bridgeCommand("revoke", String(reply.body.device), deps);
    expect((await client.request("/api/poll?wait=0", { headers: bearer })).status).toBe(401);
  });

  it("`piclaw bridge pair` hands a code to the running bridge through the state dir", async () => {
    const { url, config, dir } = await start();
    const out: string[] = [];
    await bridgeCommand("pair", undefined, {
      config,
      stateDir: dir,
      clock: { now: () => Date.now() },
      write: (t) => out.push(t),
    });
    const code = /[2-9A-Z]{4}-[2-9A-Z]{4}/.exec(out.join(""))?.[0] ?? "";
    expect(out.join("")).toContain("valid 10 min");
    expect((await new PageClient(url).pair(code)).status).toBe(200);
  });

  it("refuses bad pairing bodies with the field named, and foreign origins with 403", async () => {
    const { bridge, url } = await start();
    bridge.pairCode();
    const page = new PageClient(url);
    const missing = await page.post("/api/pair", { kode: "x" });
    expect(missing.status).toBe(400);
    expect(String((missing.body.error as { message: string }).message)).toMatch(/^code: /);
    const notJson = await page.request("/api/pair", { method: "POST", body: "code=x" });
    expect(notJson.status).toBe(415);
    const foreign = await page.post("/api/pair", { code: "x" }, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    const deliver = await page.post("/api/pair", { code: "x", deliver: "email" });
    expect(String((deliver.body.error as { message: string }).message)).toMatch(/^deliver: /);
  });
});
