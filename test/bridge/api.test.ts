import { afterEach, describe, expect, it } from "vitest";
import { bridgeConfigSchema } from "../../src/bridge/config.js";
import { rejection } from "../helpers/errors.js";
import { jpegHeaderOnly, pngBomb } from "../helpers/image-bomb.js";
import { jpegBytes, PageClient, pairedBridge, pngBytes, type StartedBridge, startBridge } from "./helpers.js";

type Paired = Awaited<ReturnType<typeof pairedBridge>>;
let started: StartedBridge | null = null;
afterEach(async () => {
  await started?.stop();
  started = null;
});

async function paired(options: Parameters<typeof pairedBridge>[0] = {}): Promise<Paired> {
  const b = await pairedBridge(options);
  started = b;
  return b;
}

const ENDPOINTS: [string, string][] = [
  ["POST", "/api/hello"],
  ["GET", "/api/poll"],
  ["POST", "/api/ack"],
  ["POST", "/api/touches"],
  ["POST", "/api/screenshot"],
];

describe("bridge API", () => {
  it("gives an unpaired client nothing but the page: 401 on every other endpoint", async () => {
    const b = await paired();
    const anonymous = new PageClient(b.url);
    const forged = new PageClient(b.url);
    forged.cookie = `piclaw_bridge=pcb_00000000_${"A".repeat(43)}`;
    // Paired devices exist and state is there to leak: clipboard text, a pattern, a screenshot.
    b.bridge.queueClipboard("secret clipboard text");
    await b.page.upload(await pngBytes());
    for (const client of [anonymous, forged])
      for (const [method, path] of ENDPOINTS) {
        const reply = await client.request(path, {
          method,
          ...(method === "POST" ? { headers: { "content-type": "application/json" }, body: "{}" } : {}),
        });
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(reply.headers.get("www-authenticate")).toContain("Bearer");
        expect(reply.text).not.toContain("secret clipboard text");
      }
    const garbageBearer = await anonymous.request("/api/poll", { headers: { authorization: "Bearer nope" } });
    expect(garbageBearer.status).toBe(401);

    const page = await anonymous.request("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/);
    expect((await anonymous.request("/nope")).status).toBe(404);
    expect((await anonymous.request("/api/poll", { method: "DELETE" })).status).toBe(405);
  });

  it("round-trips clipboard text: queue → long-poll → shown → copied", async () => {
    const b = await paired();
    const first = await b.page.poll();
    expect(first.body.clipboard).toBeNull();
    const version = Number(first.body.version);

    // A long-poll that is waiting returns with the news (no sleeping on either side).
    const waiting = b.page.poll(version, 20_000);
    await new Promise((r) => setTimeout(r, 20));
    const item = b.bridge.queueClipboard("héllo 你好");
    const news = await waiting;
    expect(news.body.clipboard).toEqual({ id: item.id, text: "héllo 你好", state: "queued" });
    expect(Number(news.body.version)).toBeGreaterThan(version);

    const shown = b.bridge.awaitClipboard(item.id, "shown", 5000);
    const copied = b.bridge.awaitClipboard(item.id, "copied", 5000);
    expect((await b.page.post("/api/ack", { kind: "clipboard", id: item.id, state: "shown" })).body).toEqual({
      ok: true,
      current: true,
    });
    expect((await shown).state).toBe("shown");
    await b.page.post("/api/ack", { kind: "clipboard", id: item.id, state: "copied", how: "tap" });
    expect(await copied).toMatchObject({ id: item.id, state: "copied", copiedBy: "tap" });
    expect((await b.page.poll()).body.clipboard).toBeNull();
    expect(b.bridge.status().clipboard).toMatchObject({ state: "copied", length: 8 });
    expect(JSON.stringify(b.bridge.status())).not.toContain("héllo");
  });

  it("newer clipboard text replaces older text not yet copied; overlong text is refused", async () => {
    const b = await paired({ config: { maxClipboardChars: 10 } });
    const old = b.bridge.queueClipboard("old");
    const oldWait = b.bridge.awaitClipboard(old.id, "copied", 5000);
    const next = b.bridge.queueClipboard("new");
    expect((await rejection(oldWait)).code).toBe("BRIDGE_CLIPBOARD_SUPERSEDED");
    expect((await b.page.poll()).body.clipboard).toMatchObject({ id: next.id, text: "new" });
    const stale = await b.page.post("/api/ack", { kind: "clipboard", id: old.id, state: "copied" });
    expect(stale.body).toEqual({ ok: true, current: false });
    expect(() => b.bridge.queueClipboard("x".repeat(11))).toThrow(/text: at most 10 characters/);
    const timeout = await rejection(b.bridge.awaitClipboard(next.id, "copied", 30));
    expect(timeout.code).toBe("BRIDGE_NOT_CONNECTED");
  });

  it("accepts PNG and JPEG screenshots, hands them to waiters, and refuses the rest", async () => {
    const b = await paired({ config: { maxUploadBytes: 64 * 1024 } });
    const png = await pngBytes();
    const waiter = b.bridge.nextScreenshot(5000);
    const ok = await b.page.upload(png);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, type: "png", bytes: png.length });
    const shot = await waiter;
    expect(shot.type).toBe("png");
    expect(shot.bytes.equals(png)).toBe(true);

    const jpeg = await jpegBytes();
    const viaOctets = b.bridge.nextScreenshot(5000);
    expect((await b.page.upload(jpeg, "application/octet-stream")).status).toBe(200);
    expect((await viaOctets).type).toBe("jpeg");
    expect(b.bridge.latestScreenshot()?.bytes.equals(jpeg)).toBe(true);

    const oversize = Buffer.concat([png.subarray(0, 8), Buffer.alloc(70 * 1024)]);
    const big = await b.page.upload(oversize);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: { code: "BODY_TOO_LARGE" } });
    expect((await b.page.upload(Buffer.from("just some text"), "text/plain")).status).toBe(415);
    const fake = await b.page.upload(Buffer.from("GIF89a not really"), "image/png");
    expect(fake.status).toBe(415);
    expect(String((fake.body.error as { message: string }).message)).toContain("not a PNG or JPEG");
    expect((await b.page.upload(Buffer.alloc(0))).status).toBe(400);
    expect(b.bridge.latestScreenshot()?.type).toBe("jpeg"); // refused uploads replaced nothing

    const timeout = await rejection(b.bridge.nextScreenshot(30));
    expect(timeout.code).toBe("BRIDGE_SCREENSHOT_TIMEOUT");
    expect(timeout.message).toContain("30 ms");
    // With sinceMs, an upload that already arrived after the mark counts.
    expect((await b.bridge.nextScreenshot(30, shot.receivedAtMs)).type).toBe("jpeg");
  });

  it("refuses a decompression bomb (16000×16000 PNG, ~31 KB) and a headerless image before storing it", async () => {
    const b = await paired();
    const bomb = pngBomb(16000, 16000);
    const reply = await b.page.upload(bomb);
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ error: { code: "BRIDGE_IMAGE_TOO_LARGE" } });
    expect(String((reply.body.error as { message: string }).message)).toContain("16000×16000");
    const truncated = await b.page.upload((await pngBytes()).subarray(0, 12));
    expect(truncated.status).toBe(400);
    expect(truncated.body).toMatchObject({ error: { code: "BRIDGE_IMAGE_UNREADABLE" } });
    expect(b.bridge.latestScreenshot()).toBeNull();
    // A JPEG header is read the same way.
    expect((await b.page.upload(jpegHeaderOnly(16000, 16000))).status).toBe(413);
    expect((await b.page.upload(await pngBytes())).status).toBe(200);
  });

  it("records touch reports in the bridge's clock and validates them", async () => {
    const b = await paired();
    const before = Date.now();
    // The page's clock is its own (performance.now()); it reports touches 300 ms and 100 ms before sending.
    const reply = await b.page.post("/api/touches", {
      sentAtMs: 5000,
      fullScreen: true,
      touches: [
        { x: 0.25, y: 0.5, tMs: 4700 },
        { x: 1, y: 0, tMs: 4900 },
      ],
    });
    expect(reply.body).toEqual({ ok: true, accepted: 2 });
    const touches = b.bridge.touchesSince(before - 1000);
    expect(touches.map((t) => [t.x, t.y])).toEqual([
      [0.25, 0.5],
      [1, 0],
    ]);
    const [a, c] = touches;
    expect((c?.tMs ?? 0) - (a?.tMs ?? 0)).toBe(200);
    expect(a?.tMs).toBeGreaterThanOrEqual(before - 300);
    expect(b.bridge.touchesSince((c?.tMs ?? 0) - 1)).toHaveLength(1);

    const bad = await b.page.post("/api/touches", {
      sentAtMs: 1,
      fullScreen: true,
      touches: [{ x: 1.5, y: 0, tMs: 0 }],
    });
    expect(bad.status).toBe(400);
    expect(String((bad.body.error as { message: string }).message)).toMatch(/^touches\.0\.x: /);
    const empty = await b.page.post("/api/touches", { sentAtMs: 1, fullScreen: true, touches: [] });
    expect(String((empty.body.error as { message: string }).message)).toMatch(/^touches: /);
    expect((await b.page.post("/api/touches", "not an object")).status).toBe(400);
    const tooBig = await b.page.request("/api/touches", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(20_000) }),
    });
    expect(tooBig.status).toBe(413);
  });

  it("shows a pattern only once the page confirms it, and clears it", async () => {
    const b = await paired({ config: { ackTimeoutMs: 5000 } });
    await b.page.hello();
    const v0 = Number((await b.page.poll()).body.version);
    let shownResolved = false;
    const showing = b.bridge.showPattern('<rect width="390" height="844"/>', { width: 390, height: 844 });
    void showing.then(() => {
      shownResolved = true;
    });
    const view = await b.page.poll(v0, 5000);
    const display = view.body.display as { id: number; svg: string; viewBox: unknown };
    expect(display.svg).toBe('<rect width="390" height="844"/>');
    expect(display.viewBox).toEqual({ width: 390, height: 844 });
    expect(shownResolved).toBe(false);
    expect(b.bridge.status().pattern).toEqual({ showing: true, confirmed: false });
    await b.page.post("/api/ack", { kind: "display", id: display.id });
    await showing;
    expect(b.bridge.status().pattern).toEqual({ showing: true, confirmed: true });

    const clearing = b.bridge.clearPattern();
    const cleared = (await b.page.poll(Number(view.body.version), 5000)).body.display as { id: number };
    expect(cleared).toMatchObject({ svg: null });
    await b.page.post("/api/ack", { kind: "display", id: cleared.id });
    await clearing;
    await b.bridge.clearPattern(); // idempotent: nothing to clear, resolves at once
    expect(b.bridge.status().pattern.showing).toBe(false);
  });

  it("reports a pattern nobody confirms as BRIDGE_NOT_CONNECTED", async () => {
    const b = await paired({ config: { ackTimeoutMs: 100 } });
    const err = await rejection(b.bridge.showPattern("<rect/>"));
    expect(err.code).toBe("BRIDGE_NOT_CONNECTED");
    expect(err.message).toContain("is the page open");
  });

  it("status shows the page's contact and geometry; stop ends waits and long-polls", async () => {
    const b = await paired();
    expect(b.bridge.status().page.info).toBeNull();
    await b.page.hello({ width: 412, height: 915 }, false);
    const status = b.bridge.status();
    expect(status.page.connected).toBe(true);
    expect(status.page.info).toMatchObject({ screen: { width: 412, height: 915 }, fullScreen: false });
    expect(status.url).toBe(b.url);

    const v = Number((await b.page.poll()).body.version);
    const longPoll = b.page.poll(v, 20_000);
    const shot = b.bridge.nextScreenshot(20_000);
    await new Promise((r) => setTimeout(r, 20));
    await b.bridge.stop();
    started = null;
    expect((await rejection(shot)).code).toBe("BRIDGE_STOPPED");
    await longPoll.then(
      (reply) => expect(reply.status).toBe(200),
      (err: unknown) => expect(err).toBeInstanceOf(Error), // or the connection was cut
    );
    expect(b.bridge.status().url).toBeNull();
    expect(() => b.bridge.queueClipboard("x")).toThrow(/not running/);
  });

  it("never writes codes or credentials to the log or into error replies", async () => {
    const s = await startBridge();
    started = s;
    const { code } = s.bridge.pairCode();
    const page = new PageClient(s.url);
    // One character off, never the code itself: a code ending in X (1 in 31) once paired here.
    const wrong = await page.pair(`${code.slice(0, 8)}${code.endsWith("X") ? "Y" : "X"}`);
    const token = await page.post("/api/pair", { code, deliver: "token" });
    const credential = String(token.body.credential);
    await page.request("/api/poll?wait=0", { headers: { authorization: `Bearer ${credential}x` } });
    await page.request("/api/poll?wait=0", { headers: { authorization: `Bearer ${credential}` } });
    await page.pair(code); // reused
    const bodies = [wrong.text];
    const log = s.logLines.join("");
    expect(log).toContain("bridge paired a phone");
    expect(log).toContain("bridge pairing refused");
    for (const secret of [code, code.replace("-", ""), credential, credential.slice(13)]) {
      expect(log).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });

  it("has a documented default for every config key", () => {
    const defaults = bridgeConfigSchema.parse({});
    expect(defaults).toMatchObject({ enabled: false, port: 8049, pairCodeTtlSeconds: 600 });
    for (const [key, schema] of Object.entries(bridgeConfigSchema.shape))
      expect(schema.description, key).toBeTruthy();
  });
});
