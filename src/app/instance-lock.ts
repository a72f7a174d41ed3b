import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { PiclawError } from "../util/errors.js";

/** Where the daemon of `stateDir` keeps its lock (the CLI looks there for a running daemon). */
export function daemonLockPath(stateDir: string): string {
  return join(stateDir, "run", "daemon.lock");
}

/**
 * One daemon per state directory. The lock is a file created exclusively (O_EXCL) holding the owner's
 * PID, kept for the daemon's whole life and removed by `release()`. A lock left by a process that no
 * longer exists (kill -9, a power cut) is stale and taken over; a live holder makes `acquire` throw
 * DAEMON_ALREADY_RUNNING naming it. PIDs are only compared on this host: the state directory is local.
 */
export class InstanceLock {
  private held = false;

  constructor(
    private readonly path: string,
    private readonly pid: number = process.pid,
    /** True when a process with this PID exists (signal 0); injectable for tests. */
    private readonly isAlive: (pid: number) => boolean = processExists,
  ) {}

  acquire(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.tryCreate()) {
        this.held = true;
        return;
      }
      let holder = this.holder();
      if (holder === null) {
        // Created but not yet written by its owner: look again after a moment before calling it stale.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        holder = this.holder();
      }
      if (holder !== null && holder !== this.pid && this.isAlive(holder)) {
        throw new PiclawError(
          "DAEMON_ALREADY_RUNNING",
          `another piclaw daemon (PID ${holder}) is running on this state directory (lock ${this.path}); ` +
            "stop it first (systemctl stop piclaw, or Ctrl-C in its terminal), or give this one another stateDir",
          { pid: holder, lock: this.path },
        );
      }
      // The holder is gone (or the file is unreadable): the lock is stale.
      rmSync(this.path, { force: true });
    }
    throw new PiclawError("DAEMON_LOCK_FAILED", `could not take the daemon lock ${this.path}`, {
      lock: this.path,
    });
  }

  /** Remove the lock file if this process holds it. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    if (this.holder() === this.pid) rmSync(this.path, { force: true });
  }

  /** The PID in the lock file, or null when there is none or it is unreadable. */
  holder(): number | null {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return null;
    }
    const pid = Number(text.trim().split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  /** The PID of a live process holding the lock (another daemon, or this one), or null. */
  liveHolder(): number | null {
    const pid = this.holder();
    return pid !== null && this.isAlive(pid) ? pid : null;
  }

  private tryCreate(): boolean {
    let fd: number;
    try {
      fd = openSync(this.path, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw err;
    }
    try {
      writeSync(fd, `${this.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else — still a live holder.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
