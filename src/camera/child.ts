import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Readable } from "node:stream";
import { PiclawError } from "../util/errors.js";
import { CameraErrorCode } from "./camera.js";

/**
 * A capture program (rpicam-vid / rpicam-still) as a child process: spawned in its own process group so
 * that stopping it also stops anything it started (a wrapper script that did not `exec`), with the tail
 * of its stderr kept for error reports.
 */

/** How a capture process ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines it wrote to stderr (at most ~4 KB). */
  stderrTail: string;
}

const STDERR_TAIL_CHARS = 4096;
const PIPE_GRACE_MS = 1000;

export class CaptureProcess {
  private stderrText = "";
  private exitInfo: ChildExit | null = null;
  /** Resolves once the process has exited (never rejects). */
  readonly exited: Promise<ChildExit>;

  private constructor(private readonly child: ChildProcess) {
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      this.stderrText = (this.stderrText + text).slice(-STDERR_TAIL_CHARS);
    });
    // A broken pipe must not become an uncaught 'error' event; the exit tells what happened.
    child.stdout?.on("error", () => undefined);
    child.stderr?.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      // "close" waits for stdout/stderr to drain too, so the last frame and error line are in.
      child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
        this.exitInfo = { code, signal, stderrTail: this.stderrTail() };
        resolve(this.exitInfo);
      });
    });
    // Something the program started (in another session) may hold the pipes open after it exited:
    // close them after a grace period so the exit is still reported.
    child.once("exit", () => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, PIPE_GRACE_MS).unref();
    });
  }

  /**
   * Spawn `binary` with `args`; resolves once the process runs. Rejects with `CAMERA_BINARY_MISSING`
   * when the program does not exist (ENOENT) and `CAMERA_SPAWN_FAILED` for other spawn errors.
   */
  static spawn(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<CaptureProcess> {
    return new Promise((resolve, reject) => {
      const child = spawn(binary, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      child.once("spawn", () => resolve(new CaptureProcess(child)));
      // Stays attached: after "spawn", errors are kill/pipe errors of a running process (its exit reports
      // what matters) and rejecting a settled promise does nothing.
      child.on("error", (err: NodeJS.ErrnoException) => {
        const missing = err.code === "ENOENT";
        reject(
          new PiclawError(
            missing ? CameraErrorCode.binaryMissing : CameraErrorCode.spawnFailed,
            missing
              ? `camera program not found: ${binary} (install rpicam-apps, or set camera.vidBinary / camera.stillBinary)`
              : `cannot start the camera program ${binary}: ${err.message}`,
            { binary, errno: err.code ?? null },
            { cause: err },
          ),
        );
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout(): Readable {
    const out = this.child.stdout;
    if (!out) throw new Error("capture process has no stdout pipe");
    return out;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  stderrTail(): string {
    return this.stderrText;
  }

  /**
   * CPU time (ms, user + system, all threads) the program has used so far, or null where that cannot
   * be read (no procfs, or it has exited). From /proc/<pid>/stat fields 14–15 (proc(5)), counted in
   * USER_HZ ticks, which Linux fixes at 100 per second for user space on every architecture it runs on.
   * A child the program started itself is not counted (the stand-ins and rpicam-vid do not).
   */
  cpuMs(): number | null {
    const pid = this.child.pid;
    if (pid === undefined || this.exitInfo) return null;
    try {
      const text = readFileSync(`/proc/${pid}/stat`, "utf8");
      // The name (field 2) is in parentheses and may hold spaces: count fields after its last ")".
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? ticks * 10 : null;
    } catch {
      return null;
    }
  }

  /**
   * SIGTERM to the whole process group, SIGKILL after `graceMs` if it has not exited; resolves with how
   * it ended. Safe to call more than once or after it exited.
   */
  async kill(graceMs: number): Promise<ChildExit> {
    if (this.exitInfo) return this.exitInfo;
    // Unread output would keep the pipe (and so "close") pending: discard it from here on.
    this.child.stdout?.resume();
    this.signal("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const forced = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.signal("SIGKILL");
        resolve();
      }, graceMs);
    });
    await Promise.race([this.exited, forced]);
    clearTimeout(timer);
    return this.exited;
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig); // the group: the program and anything it started
    } catch {
      try {
        this.child.kill(sig);
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Whether `binary` names a runnable program: a path with a slash is checked as is, a bare name on the
 * PATH of `env`. Lets a driver that spawns per grab fail at `start()` like one that spawns at start.
 */
export function isExecutable(binary: string, env: NodeJS.ProcessEnv): boolean {
  const runnable = (path: string): boolean => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  if (binary.includes("/")) return runnable(binary);
  return (env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && runnable(join(dir, binary)));
}
