import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnProjectBin, tempConfig, waitFor } from "../helpers/process.js";
import { type NotifyListener, runSystemdNotifyTests, startNotifyListener } from "./notify-listener.js";

const listeners: NotifyListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

async function listener(): Promise<NotifyListener> {
  const l = await startNotifyListener(join(mkdtempSync(join(tmpdir(), "piclaw-notify-")), "notify.sock"));
  listeners.push(l);
  return l;
}

/** The daemon as systemd starts it: NOTIFY_SOCKET and WATCHDOG_USEC set (2 s → a ping every second). */
function startUnderSystemd(notifySocket: string, yaml: (dir: string) => string, journalStream = "") {
  const { configPath } = tempConfig(yaml);
  return spawnProjectBin("bin/piclaw.js", ["start", "--config", configPath], {
    PICLAW_CONFIG: "",
    NOTIFY_SOCKET: notifySocket,
    WATCHDOG_USEC: "2000000",
    WATCHDOG_PID: "",
    JOURNAL_STREAM: journalStream,
  });
}

describe.runIf(runSystemdNotifyTests)(
  "piclaw start under systemd (Type=notify, a real datagram socket as NOTIFY_SOCKET)",
  () => {
    it("sends READY=1 once the MCP endpoint answers, WATCHDOG=1 while running, STOPPING=1 on SIGTERM", async () => {
      const notify = await listener();
      const proc = startUnderSystemd(notify.path, (d) => `stateDir: ${d}\nserver: { port: 0 }\n`);
      try {
        const status = await waitFor(
          () => notify.messages().find((m) => m.lines.includes("READY=1")),
          "READY=1",
          60_000,
        );
        // The moment READY is seen, the endpoint it names must already answer (401: no token given).
        const statusLine = status.lines.find((l) => l.startsWith("STATUS=")) ?? "";
        const mcpUrl = /STATUS=serving (http:\S+\/mcp)/.exec(statusLine)?.[1];
        expect(mcpUrl, statusLine).toBeDefined();
        const res = await fetch(mcpUrl ?? "", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        expect(res.status).toBeLessThan(500);
        expect(proc.stdout()).toContain('"msg":"mcp endpoint"');

        // Watchdog pings (before READY too: model loading is covered) keep coming while it runs.
        const pingsAtReady = notify.lines().filter((l) => l === "WATCHDOG=1").length;
        await waitFor(
          () =>
            notify.lines().filter((l) => l === "WATCHDOG=1").length >= pingsAtReady + 2 ? true : undefined,
          "two more WATCHDOG=1 pings",
          15_000,
        );
      } finally {
        proc.child.kill("SIGTERM");
      }
      const { code } = await proc.exit;
      expect(code).toBe(0);
      await waitFor(() => (notify.lines().includes("STOPPING=1") ? true : undefined), "STOPPING=1", 5_000);
      const lines = notify.lines().filter((l) => !l.startsWith("STATUS="));
      expect(lines.filter((l) => l === "READY=1")).toHaveLength(1);
      expect(lines.indexOf("STOPPING=1")).toBeGreaterThan(lines.indexOf("READY=1"));
      // The watchdog keeps pinging while the daemon parks the arm and closes down, then stops with it.
      expect(proc.stdout()).toContain('"msg":"stopped"');
      // Bounded by its waits (60 s + 15 s + the exit + 5 s), not vitest's 30 s default: at load ~19 the
      // start-up calibration alone, before READY=1, took longer than 30 s.
    }, 180_000);

    it("never sends READY=1 when the endpoint cannot come up (port taken); logs it at journal priority err", async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
      const port = (blocker.address() as { port: number }).port;
      const notify = await listener();
      // stdout is the journal here (JOURNAL_STREAM set): every line carries its syslog priority.
      const proc = startUnderSystemd(
        notify.path,
        (d) => `stateDir: ${d}\nserver: { port: ${port} }\n`,
        "8:4242",
      );
      try {
        const { code } = await proc.exit;
        expect(code).not.toBe(0);
      } finally {
        proc.child.kill("SIGKILL");
        blocker.close();
      }
      await waitFor(() => (notify.lines().includes("STOPPING=1") ? true : undefined), "STOPPING=1", 5_000);
      expect(notify.lines()).not.toContain("READY=1");
      expect(notify.lines()).toContain("WATCHDOG=1");
      const lines = proc.stdout().split("\n").filter(Boolean);
      for (const line of lines) expect(line).toMatch(/^<[3-7]>\{/);
      const failed = lines.find((l) => l.includes('"msg":"start failed"'));
      expect(failed?.startsWith("<3>"), proc.stdout()).toBe(true);
    }, 120_000);
  },
);
