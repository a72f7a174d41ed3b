/**
 * sd_notify(3) for a Node daemon. Node has no Unix datagram sockets, so the real notifier runs systemd's
 * own `systemd-notify` as a child per message. Why that tool and not an alternative:
 * - it ships with systemd itself (same package as the manager), so it is present wherever
 *   `NOTIFY_SOCKET` can be set, on every architecture, with no native addon to compile for arm64;
 * - a python3 one-shot would add python3 to the image and has the same attribution problem;
 * - a native addon (`unix-dgram`, `sd-notify`) needs a compiler or libsystemd-dev on the image build.
 * The known catch: a message from a short-lived process can be dropped when systemd looks up the
 * sender's cgroup after the sender exited. `systemd-notify` handles it with its barrier (its default
 * mode): it stays alive until the manager has processed the message (it sends `BARRIER=1` with a pipe fd
 * and waits until the manager closes it). Run unprivileged (as the `piclaw` user) the kernel stamps the
 * helper's own PID on the datagram, so the unit needs `NotifyAccess=all` (the helper is in the unit's
 * cgroup). `--pid=$MAINPID` would not help an unprivileged sender (it only adds `MAINPID=`). Each
 * message costs one ~7 ms child process; the watchdog sends one every WatchdogSec/2.
 */
import { spawn } from "node:child_process";
import type { Logger } from "../log/logger.js";
import type { ServiceConfig } from "./config/service.js";

/** Assignments of one notification, e.g. `{ READY: "1", STATUS: "serving" }` (sent in insertion order). */
export type NotifyFields = Record<string, string>;

/**
 * Contract of a notifier (the daemon's side of sd_notify):
 * - `enabled` is false when there is no supervisor to tell (no `NOTIFY_SOCKET`, or `service.notify: off`);
 *   `notify()` then resolves false at once and nothing is sent or logged above debug.
 * - `notify(fields)` sends one message with every field (`KEY=VALUE` lines) and resolves true once it was
 *   handed to the supervisor, false when it could not be (a missing socket or helper, a timeout). It
 *   never rejects: a service must not die because its supervisor could not be told something.
 * - `close()` ends every message still in flight; later `notify()` calls resolve false. Idempotent.
 */
export interface Notifier {
  readonly enabled: boolean;
  notify(fields: NotifyFields): Promise<boolean>;
  close(): Promise<void>;
}

/** Render fields as the datagram body sd_notify expects (`KEY=VALUE` lines); rejects newlines in keys/values. */
export function notifyLines(fields: NotifyFields): string[] {
  return Object.entries(fields).map(([key, value]) => {
    if (!/^[A-Z_][A-Z0-9_]*$/.test(key)) throw new RangeError(`not a notify variable name: ${key}`);
    return `${key}=${value.replace(/[\r\n]+/g, " ")}`;
  });
}

export interface SystemdNotifierDeps {
  config: Pick<ServiceConfig, "notify" | "notifyCommand" | "notifyBarrier" | "notifyTimeoutMs">;
  /** Reads `NOTIFY_SOCKET` (the helper gets it from here too). */
  env: NodeJS.ProcessEnv;
  log: Logger;
}

/** The real notifier: one `systemd-notify KEY=VALUE…` child per message (see the file comment for why). */
export class SystemdNotifier implements Notifier {
  readonly enabled: boolean;
  private readonly inFlight = new Set<{ kill: () => void }>();
  private closed = false;
  private warnedMissing = false;

  constructor(private readonly deps: SystemdNotifierDeps) {
    this.enabled = deps.config.notify !== "off" && Boolean(deps.env.NOTIFY_SOCKET);
  }

  notify(fields: NotifyFields): Promise<boolean> {
    const lines = notifyLines(fields);
    const { log, config } = this.deps;
    if (!this.enabled || this.closed) {
      log.debug("not notifying the service manager", {
        message: lines.join(" "),
        reason: this.closed ? "closed" : "NOTIFY_SOCKET unset or service.notify off",
      });
      return Promise.resolve(false);
    }
    const args = [...(config.notifyBarrier ? [] : ["--no-block"]), ...lines];
    return new Promise<boolean>((resolve) => {
      let stderr = "";
      let done = false;
      const child = spawn(config.notifyCommand, args, {
        env: { ...this.deps.env, NOTIFY_SOCKET: this.deps.env.NOTIFY_SOCKET },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const entry = { kill: () => child.kill("SIGKILL") };
      this.inFlight.add(entry);
      const timer = setTimeout(() => {
        stderr += `(killed after ${config.notifyTimeoutMs} ms)`;
        child.kill("SIGKILL");
      }, config.notifyTimeoutMs);
      timer.unref();
      const finish = (ok: boolean, why?: string) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.inFlight.delete(entry);
        if (ok) log.debug("notified the service manager", { message: lines.join(" ") });
        else if (this.closed) log.debug("notification ended by close()", { message: lines.join(" ") });
        else log.warn("could not notify the service manager", { message: lines.join(" "), why });
        resolve(ok);
      };
      child.stderr?.on("data", (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString("utf8");
      });
      child.on("error", (err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT" && !this.warnedMissing) {
          this.warnedMissing = true;
          log.error(`${config.notifyCommand} not found: systemd will not see READY/WATCHDOG`, {
            fix: "install systemd or set service.notifyCommand",
          });
        }
        finish(false, err.message);
      });
      child.on("close", (code, signal) =>
        finish(code === 0, code === 0 ? undefined : `exit ${code ?? signal}: ${stderr.trim()}`),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.inFlight) entry.kill();
    this.inFlight.clear();
  }
}
