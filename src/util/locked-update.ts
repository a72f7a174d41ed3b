import { type FileLockOptions, withFileLock } from "./file-lock.js";

/**
 * One locked read-modify-write of a state file shared between processes (the daemon and CLI
 * commands): `<path>.lock` is taken with the jobs.md lock (exclusive create, stale takeover after a
 * killed holder), `update` re-reads the file and writes it atomically, and the lock is released.
 * Without the lock, two writers that read the same version each write their own change and one
 * is lost — a revoked token came back that way (issue 19).
 *
 * Contract: `update` must read the file itself, inside the call (a copy read earlier may be stale),
 * and must be synchronous so the lock is held only for the read, the change and one write.
 * Throws PiclawError STATE_LOCK_TIMEOUT after `timeoutMs` (default 10 s) of waiting.
 */
export async function lockedUpdate<T>(
  path: string,
  update: () => T,
  options: Partial<FileLockOptions> = {},
): Promise<T> {
  return withFileLock(
    `${path}.lock`,
    {
      staleMs: options.staleMs ?? DEFAULT_STALE_MS,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      timeoutCode: options.timeoutCode ?? "STATE_LOCK_TIMEOUT",
    },
    update,
  );
}

/** As jobs.md's defaults: a holder that runs 30 s is presumed dead; waiters give up after 10 s. */
const DEFAULT_STALE_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 10_000;
