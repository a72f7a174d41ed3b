import { randomBytes } from "node:crypto";
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { PiclawError } from "./errors.js";
import { sleep } from "./sleep.js";

/**
 * A cross-process lock: a lock file created exclusively (O_EXCL semantics, via link()). Its content names the holder (pid, host,
 * a random token). A waiter takes a lock over when its holder's process is gone (same host) or the
 * file is older than `staleMs` — a writer killed mid-update leaves its lock behind. Lock age and
 * waiting use the real clock on purpose: they are about OS processes, not about scheduled time.
 *
 * Taking over renames the stale file away first (only one waiter's rename can succeed) and checks
 * that what it renamed is what it judged stale; if a fresh lock slipped in between, it is linked
 * back. Release removes the file only while it still holds this lock's token.
 */
export interface FileLockOptions {
  /** A lock file older than this is stale even when its holder looks alive. */
  staleMs: number;
  /** Give up (PiclawError `timeoutCode`) after waiting this long. */
  timeoutMs: number;
  /** The error code of a timeout; default JOBS_LOCK_TIMEOUT (other state files name their own). */
  timeoutCode?: string;
}

/** Run `fn` while holding the lock file `lockPath`; the lock is released even when `fn` throws. */
export async function withFileLock<T>(lockPath: string, options: FileLockOptions, fn: () => T): Promise<T> {
  const token = await acquire(lockPath, options);
  try {
    return fn();
  } finally {
    release(lockPath, token);
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const token = `${process.pid}\n${hostname()}\n${randomBytes(8).toString("hex")}\n`;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, token)) return token;
    breakIfStale(lockPath, options.staleMs);
    if (Date.now() - started > options.timeoutMs) {
      throw new PiclawError(
        options.timeoutCode ?? "JOBS_LOCK_TIMEOUT",
        `could not lock ${lockPath} within ${options.timeoutMs} ms (held by: ${holderOf(lockPath) ?? "?"})`,
        { lockPath },
      );
    }
    // Short, growing waits: critical sections are a read, a parse and one atomic write.
    await sleep(Math.min(2 + attempt * 2, 25) + (process.pid % 5));
  }
}

/**
 * The token is written to a private temp file first and hard-linked into place (link fails with
 * EEXIST like O_EXCL does), so a lock file is never seen empty, even when its writer is killed.
 */
function tryCreate(lockPath: string, token: string): boolean {
  const tmp = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeFileSync(fd, token);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function release(lockPath: string, token: string): void {
  if (readOrNull(lockPath) === token) rmSync(lockPath, { force: true });
}

function breakIfStale(lockPath: string, staleMs: number): void {
  const content = readOrNull(lockPath);
  if (content === null) return;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch {
    return; // released meanwhile
  }
  const holderGone = !holderAlive(content);
  if (!holderGone && Date.now() - mtimeMs <= staleMs) return;
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // another waiter took it over first
  }
  if (readOrNull(aside) !== content) {
    // A fresh lock was created between our read and the rename: put it back (fails only if yet
    // another writer already holds a new lock, which is then the valid one).
    try {
      linkSync(aside, lockPath);
    } catch {
      /* see above */
    }
  }
  rmSync(aside, { force: true });
}

/** False only when the holder ran on this host and its pid no longer exists. */
function holderAlive(content: string): boolean {
  const [pidText, host] = content.split("\n");
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (host !== hostname()) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holderOf(lockPath: string): string | null {
  const content = readOrNull(lockPath);
  if (content === null) return null;
  const [pid, host] = content.split("\n");
  return `pid ${pid} on ${host}`;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
