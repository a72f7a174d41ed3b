import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serviceConfigSchema } from "../../src/app/config/service.js";
import { type Notifier, notifyLines, SystemdNotifier } from "../../src/app/notify.js";
import { Logger } from "../../src/log/logger.js";
import { FakeNotifier } from "../fakes/notifier.js";
import { waitFor } from "../helpers/process.js";
import { type NotifyListener, runSystemdNotifyTests, startNotifyListener } from "./notify-listener.js";

function captureLog() {
  const lines: { level: string; msg: string }[] = [];
  const log = Logger.create({
    level: "debug",
    format: "json",
    sink: { write: (l) => lines.push(JSON.parse(l) as { level: string; msg: string }) },
    now: () => 0,
  });
  return { log, lines };
}

const socketPath = (): string => join(mkdtempSync(join(tmpdir(), "piclaw-notify-")), "notify.sock");

/** One harness per implementation: make a notifier, and read back what the supervisor received. */
interface Harness {
  notifier: Notifier;
  /** What the supervisor got, once it has at least `count` messages (datagrams arrive asynchronously). */
  received(count: number): Promise<string[][]>;
  /** A notifier of the same kind with no supervisor (NOTIFY_SOCKET unset). */
  disabled(): Notifier;
  /** A notifier of the same kind whose delivery fails. */
  broken(): Notifier;
  close(): Promise<void>;
}

const listeners: NotifyListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

const fakeAndReal: [string, () => Promise<Harness>][] = [
  [
    "FakeNotifier",
    async () => {
      const fake = new FakeNotifier();
      return {
        notifier: fake,
        received: async () => fake.messages,
        disabled: () => new FakeNotifier({ enabled: false }),
        broken: () => new FakeNotifier({ failing: true }),
        close: () => fake.close(),
      };
    },
  ],
  [
    "SystemdNotifier (systemd-notify → a real datagram socket)",
    async () => {
      const listener = await startNotifyListener(socketPath());
      listeners.push(listener);
      const config = serviceConfigSchema.parse({});
      const { log } = captureLog();
      const notifier = new SystemdNotifier({ config, env: { NOTIFY_SOCKET: listener.path }, log });
      return {
        notifier,
        received: (count) =>
          waitFor(
            () => (listener.messages().length >= count ? listener.messages().map((m) => m.lines) : undefined),
            `${count} notify datagrams`,
            5_000,
          ),
        disabled: () => new SystemdNotifier({ config, env: {}, log }),
        broken: () =>
          new SystemdNotifier({ config, env: { NOTIFY_SOCKET: join(tmpdir(), "piclaw-no-such.sock") }, log }),
        close: () => notifier.close(),
      };
    },
  ],
];

const implementations = fakeAndReal.filter(([name]) => runSystemdNotifyTests || name === "FakeNotifier");

describe.each(implementations)("Notifier contract: %s", (_name, make) => {
  it("delivers every field of a message as KEY=VALUE lines, in order, and resolves true", async () => {
    const h = await make();
    expect(h.notifier.enabled).toBe(true);
    expect(await h.notifier.notify({ READY: "1", STATUS: "serving http://127.0.0.1:1/mcp" })).toBe(true);
    expect(await h.notifier.notify({ WATCHDOG: "1" })).toBe(true);
    expect(await h.notifier.notify({ STOPPING: "1" })).toBe(true);
    expect(await h.received(3)).toEqual([
      ["READY=1", "STATUS=serving http://127.0.0.1:1/mcp"],
      ["WATCHDOG=1"],
      ["STOPPING=1"],
    ]);
    await h.close();
  });

  it("is disabled without a supervisor: notify resolves false and sends nothing", async () => {
    const h = await make();
    const off = h.disabled();
    expect(off.enabled).toBe(false);
    expect(await off.notify({ READY: "1" })).toBe(false);
    expect(await h.received(0)).toEqual([]);
    await h.close();
  });

  it("never rejects when delivery fails; resolves false", async () => {
    const h = await make();
    await expect(h.broken().notify({ READY: "1" })).resolves.toBe(false);
    await h.close();
  });

  it("sends nothing after close()", async () => {
    const h = await make();
    await h.notifier.close();
    await h.notifier.close();
    expect(await h.notifier.notify({ READY: "1" })).toBe(false);
    expect(await h.received(0)).toEqual([]);
  });
});

describe("SystemdNotifier specifics", () => {
  it("soft-fails with only a debug line when NOTIFY_SOCKET is unset (no helper is even run)", async () => {
    const { log, lines } = captureLog();
    const config = serviceConfigSchema.parse({ notifyCommand: "/nonexistent/systemd-notify" });
    const notifier = new SystemdNotifier({ config, env: {}, log });
    expect(await notifier.notify({ READY: "1" })).toBe(false);
    expect(lines.map((l) => l.level)).toEqual(["debug"]);
  });

  it("is off when service.notify is off, even with NOTIFY_SOCKET set", async () => {
    const { log } = captureLog();
    const config = serviceConfigSchema.parse({ notify: "off" });
    expect(new SystemdNotifier({ config, env: { NOTIFY_SOCKET: "/run/x" }, log }).enabled).toBe(false);
  });

  it("logs an error (once) when the helper program is missing, and still resolves false", async () => {
    const { log, lines } = captureLog();
    const config = serviceConfigSchema.parse({ notifyCommand: "/nonexistent/systemd-notify" });
    const notifier = new SystemdNotifier({ config, env: { NOTIFY_SOCKET: "/tmp/x.sock" }, log });
    expect(await notifier.notify({ READY: "1" })).toBe(false);
    expect(await notifier.notify({ WATCHDOG: "1" })).toBe(false);
    expect(lines.filter((l) => l.level === "error")).toHaveLength(1);
  });

  it.runIf(runSystemdNotifyTests)(
    "with notifyBarrier false (--no-block) delivers to a plain socket that never closes the barrier fd",
    async () => {
      const listener = await startNotifyListener(socketPath(), { closeBarrierFds: false });
      listeners.push(listener);
      const { log } = captureLog();
      const config = serviceConfigSchema.parse({ notifyBarrier: false });
      const notifier = new SystemdNotifier({ config, env: { NOTIFY_SOCKET: listener.path }, log });
      expect(await notifier.notify({ STOPPING: "1" })).toBe(true);
      await waitFor(() => (listener.lines().length > 0 ? true : undefined), "the datagram", 5_000);
      expect(listener.lines()).toEqual(["STOPPING=1"]);
      // No barrier was asked for: nothing with an fd arrived.
      expect(listener.messages().every((m) => m.fds === 0)).toBe(true);
    },
  );

  it("refuses variable names that are not sd_notify names and flattens newlines in values", () => {
    expect(() => notifyLines({ "READY\nMAINPID": "1" })).toThrow(RangeError);
    expect(notifyLines({ STATUS: "a\nb" })).toEqual(["STATUS=a b"]);
  });
});
