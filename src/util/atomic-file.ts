import { randomBytes } from "node:crypto";
import {
  closeSync,
  type Dirent,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

/** How `writeFileAtomic` creates the file. */
export interface AtomicWriteOptions {
  /** Permission bits of the written file, applied exactly (not reduced by the umask). Default 0o600. */
  mode?: number;
}

/**
 * Replace `path` with `data` so that a reader (possibly another process) sees either the old file or
 * the whole new one, never a half-written one, and the new content survives a power cut once this
 * returns: write a uniquely named temp file beside it, fsync it, rename it over `path`, fsync the
 * folder (which makes the rename durable). Missing parent folders are created with mode 0o700, as
 * everything written this way is private state. On failure the temp file is removed and `path` is
 * left as it was.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const mode = options.mode ?? 0o600;
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const fd = openSync(tmp, "wx", mode);
    try {
      fchmodSync(fd, mode);
      writeFileSync(fd, data); // loops until every byte is written, unlike writeSync
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncPath(dir);
}

function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `writeFileAtomic` of `value` as indented JSON with a trailing newline (the state files' format). */
export function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options);
}

/**
 * Temp files a killed writer leaves behind: `writeFileAtomic`'s and the state-file lock's
 * (`<name>.<pid>.<8 hex digits>.tmp`). Nothing else in the state directory is named like this.
 */
const TEMP_NAME = /\.\d+\.[0-9a-f]{8}\.tmp$/;

export interface StaleTempOptions {
  /** Now, as wall-clock epoch ms (file mtimes are wall-clock; default Date.now()). */
  nowMs?: number;
  /** Only files at least this old are removed (default 60 s: a live write takes milliseconds). */
  maxAgeMs?: number;
  /** How many folders below `dir` are searched (default 3). */
  maxDepth?: number;
}

/**
 * Remove temp files of killed writers (see TEMP_NAME) under `dir` that are older than `maxAgeMs`,
 * at start-up, so SIGKILLed writes do not pile up (issue 19). Unreadable folders and files that
 * vanish meanwhile are skipped. Returns the paths removed.
 */
export function removeStaleTempFiles(dir: string, options: StaleTempOptions = {}): string[] {
  const now = options.nowMs ?? Date.now();
  const maxAge = options.maxAgeMs ?? 60_000;
  const removed: string[] = [];
  const visit = (folder: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < (options.maxDepth ?? 3)) visit(path, depth + 1);
      } else if (entry.isFile() && TEMP_NAME.test(entry.name)) {
        try {
          if (now - statSync(path).mtimeMs < maxAge) continue;
          rmSync(path, { force: true });
          removed.push(path);
        } catch {
          /* removed by someone else meanwhile */
        }
      }
    }
  };
  visit(dir, 0);
  return removed;
}
