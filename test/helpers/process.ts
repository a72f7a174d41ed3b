import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../../src/util/paths.js";

/** A temp dir with a config file in it (the YAML may use the dir, e.g. as stateDir); returns both paths. */
export function tempConfig(yaml: string | ((dir: string) => string)): { dir: string; configPath: string } {
  const dir = mkdtempSync(join(tmpdir(), "piclaw-test-"));
  const configPath = join(dir, "piclaw.yaml");
  writeFileSync(configPath, typeof yaml === "string" ? yaml : yaml(dir));
  return { dir, configPath };
}

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawn one of the project's executables (path relative to the project root) with node. */
/**
 * Run one of the project's scripts with Node. `group`: start it as the leader of a process group of its
 * own, as a shell does for a foreground job, so a test can signal the whole group like a terminal's
 * Ctrl-C (`process.kill(-pid, "SIGINT")`).
 */
export function spawnProjectBin(
  relPath: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { group?: boolean } = {},
): Spawned {
  const child = spawn(process.execPath, [join(projectRoot(), relPath), ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.group ?? false,
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Resolve when `predicate` holds for the text `read()` returns; reject after `timeoutMs`. */
export async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Split a byte stream of concatenated JPEGs at SOI (FFD8) … EOI (FFD9) boundaries. */
export function splitJpegs(stream: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let start = -1;
  for (let i = 0; i + 1 < stream.length; i++) {
    if (stream[i] !== 0xff) continue;
    const marker = stream[i + 1];
    if (marker === 0xd8 && start < 0) start = i;
    else if (marker === 0xd9 && start >= 0) {
      frames.push(stream.subarray(start, i + 2));
      start = -1;
      i++;
    }
  }
  return frames;
}
