import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";

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
