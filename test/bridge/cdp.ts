import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/**
 * Just enough of the Chrome DevTools Protocol, over `--remote-debugging-pipe` (NUL-separated JSON on
 * fds 3/4), to drive headless Chromium from a test without a browser-automation package.
 */

export const CHROMIUM = process.env.PICLAW_CHROMIUM ?? "/usr/bin/chromium";
export const hasChromium = (): boolean => existsSync(CHROMIUM);

type Pending = { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void };

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = "";

  private constructor(
    private readonly child: ChildProcess,
    private readonly toChrome: Writable,
    private readonly profileDir: string,
  ) {}

  static async launch(): Promise<Browser> {
    const profileDir = mkdtempSync(join(tmpdir(), "piclaw-chromium-"));
    const child = spawn(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--remote-debugging-pipe",
        `--user-data-dir=${profileDir}`,
        "about:blank",
      ],
      { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
    );
    const browser = new Browser(child, child.stdio[3] as Writable, profileDir);
    (child.stdio[4] as Readable).on("data", (chunk: Buffer) => browser.receive(chunk.toString("utf8")));
    child.on("exit", () => {
      for (const p of browser.pending.values()) p.reject(new Error("chromium exited"));
      browser.pending.clear();
    });
    await browser.send("Browser.getVersion");
    return browser;
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string) {
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.toChrome.write(`${message}\0`);
    });
  }

  /** A new tab, attached: commands for it go through the returned function. */
  async newPage(): Promise<
    (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>
  > {
    const { targetId } = (await this.send("Target.createTarget", { url: "about:blank" })) as {
      targetId: string;
    };
    const { sessionId } = (await this.send("Target.attachToTarget", { targetId, flatten: true })) as {
      sessionId: string;
    };
    return (method, params = {}) => this.send(method, params, sessionId);
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    this.send("Browser.close").catch(() => {});
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(timer);
    rmSync(this.profileDir, { recursive: true, force: true });
  }

  private receive(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf("\0"); end >= 0; end = this.buffer.indexOf("\0")) {
      const message = JSON.parse(this.buffer.slice(0, end)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      this.buffer = this.buffer.slice(end + 1);
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter || message.id === undefined) continue; // an event: not needed here
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result ?? {});
    }
  }
}
