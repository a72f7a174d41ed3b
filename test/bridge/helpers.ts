import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { PhoneBridge } from "../../src/bridge/bridge.js";
import { type BridgeConfig, bridgeConfigSchema } from "../../src/bridge/config.js";
import { Logger } from "../../src/log/logger.js";
import { type Clock, systemClock } from "../../src/util/clock.js";

export interface StartedBridge {
  bridge: PhoneBridge;
  url: string;
  dir: string;
  config: BridgeConfig;
  logLines: string[];
  stop(): Promise<void>;
}

/** A PhoneBridge on 127.0.0.1, port 0, with a temp state dir and a captured debug-level JSON log. */
export async function startBridge(
  options: { config?: Partial<BridgeConfig>; clock?: Clock } = {},
): Promise<StartedBridge> {
  const logLines: string[] = [];
  const clock = options.clock ?? systemClock;
  const log = Logger.create({
    level: "trace",
    format: "json",
    sink: { write: (l) => logLines.push(l) },
    now: () => clock.now(),
  });
  const dir = mkdtempSync(join(tmpdir(), "piclaw-bridge-"));
  const config = bridgeConfigSchema.parse({ host: "127.0.0.1", port: 0, ...options.config });
  const bridge = new PhoneBridge({ config, stateDir: dir, log: log.child("bridge"), clock });
  const url = await bridge.start();
  return { bridge, url, dir, config, logLines, stop: () => bridge.stop() };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

/** A scripted stand-in for the page: the same requests page.html makes, with its cookie. */
export class PageClient {
  cookie: string | null = null;

  constructor(readonly url: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Reply> {
    const headers = new Headers(init.headers);
    if (this.cookie && !headers.has("cookie")) headers.set("cookie", this.cookie);
    const res = await fetch(`${this.url}${path}`, { ...init, headers });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = {};
    }
    return { status: res.status, headers: res.headers, body, text };
  }

  post(path: string, value: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(value),
    });
  }

  /** Pair with `code`; keeps the cookie when the bridge sets one. */
  async pair(code: string): Promise<Reply> {
    const reply = await this.post("/api/pair", { code });
    const setCookie = reply.headers.get("set-cookie");
    if (setCookie) this.cookie = setCookie.split(";")[0] ?? null;
    return reply;
  }

  hello(screen = { width: 390, height: 844 }, fullScreen = true): Promise<Reply> {
    return this.post("/api/hello", {
      screen,
      viewport: fullScreen ? screen : { width: screen.width, height: screen.height - 120 },
      devicePixelRatio: 3,
      fullScreen,
      standalone: fullScreen,
      secureContext: false,
    });
  }

  poll(since = 0, wait = 0): Promise<Reply> {
    return this.request(`/api/poll?since=${since}&wait=${wait}`);
  }

  upload(bytes: Buffer, contentType = "image/png"): Promise<Reply> {
    return this.request("/api/screenshot", {
      method: "POST",
      headers: { "content-type": contentType },
      body: new Uint8Array(bytes),
    });
  }
}

/** A started bridge with a paired page client. */
export async function pairedBridge(
  options: Parameters<typeof startBridge>[0] = {},
): Promise<StartedBridge & { page: PageClient }> {
  const started = await startBridge(options);
  const page = new PageClient(started.url);
  const { code } = started.bridge.pairCode();
  const reply = await page.pair(code);
  if (reply.status !== 200) throw new Error(`pairing failed: ${reply.text}`);
  return { ...started, page };
}

export function pngBytes(width = 39, height = 84): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

export function jpegBytes(width = 39, height = 84): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 20 } } })
    .jpeg()
    .toBuffer();
}
