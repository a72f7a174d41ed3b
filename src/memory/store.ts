import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentMemory } from "../agent/ports.js";
import { isIsoDate, zoneTime } from "../shared/time-zone.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import type { Clock } from "../util/clock.js";
import { PiclawError } from "../util/errors.js";
import { lockedUpdate } from "../util/locked-update.js";
import { projectRoot } from "../util/paths.js";

/** Where the memory files live inside the state directory. */
export interface MemoryPaths {
  dir: string;
  memory: string;
  user: string;
  dailyDir: string;
}

export function memoryPaths(stateDir: string): MemoryPaths {
  const dir = join(stateDir, "memory");
  return { dir, memory: join(dir, "memory.md"), user: join(dir, "USER.md"), dailyDir: join(dir, "daily") };
}

export interface MemoryStoreOptions {
  stateDir: string;
  clock: Clock;
  /** memory.md size past which writes return a warning (bytes). */
  softCapBytes: number;
  /** memory.md size a write may not grow it past (bytes); default twice the soft cap. */
  hardCapBytes?: number;
  /** IANA zone naming the daily logs; undefined = this machine's zone. */
  timeZone?: string | undefined;
  /** Folder holding the `memory.md` / `USER.md` templates. Default: `memory/` in the project. */
  templatesDir?: string;
  /**
   * Scrubs secrets (the daemon passes its logger's `redact`) out of daily-log text before it is
   * written: the agent may copy a passcode or token it saw into a note (issue 19). Default: none.
   */
  redact?: (text: string) => string;
}

/** The longest single fact save_memory accepts: a fact, not a document. */
export const MAX_FACT_CHARS = 4000;

/**
 * The agent's memory as Markdown files in the state directory (see memoryPaths and memory/README.md).
 * A missing memory.md or USER.md is created from its template on first use. Every write replaces the
 * whole file atomically (temp file + rename) under `<file>.lock` (util/locked-update.ts), and writes
 * from this process are also queued, so concurrent saves all land, from other processes too; the
 * soft cap only produces a warning. Past the hard cap a write that would grow memory.md is refused
 * whole (PiclawError MEMORY_FULL, nothing written, never trimmed); one that shrinks it is always
 * allowed, so the agent can make room.
 */
export class MemoryStore implements AgentMemory {
  private readonly paths: MemoryPaths;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: MemoryStoreOptions) {
    this.paths = memoryPaths(options.stateDir);
  }

  get files(): MemoryPaths {
    return this.paths;
  }

  async readMemory(): Promise<string> {
    this.ensureTemplate("memory.md", this.paths.memory);
    return readOrEmpty(this.paths.memory);
  }

  async saveMemory(text: string): Promise<{ warning?: string }> {
    const fact = text.trim();
    if (!fact) throw new PiclawError("MEMORY_INVALID", "save_memory needs non-empty text", { field: "text" });
    if (fact.length > MAX_FACT_CHARS)
      throw new PiclawError(
        "MEMORY_INVALID",
        `a fact is at most ${MAX_FACT_CHARS} characters (got ${fact.length}): save the gist`,
        { field: "text", length: fact.length },
      );
    return this.lockedMemory((current) => {
      const base = current.replace(/\s*$/, "");
      const next = base ? `${base}\n\n${fact}\n` : `${fact}\n`;
      return this.writeMemory(next, current);
    });
  }

  async updateMemory(oldText: string, newText: string): Promise<{ warning?: string }> {
    if (!oldText)
      throw new PiclawError("MEMORY_INVALID", "update_memory needs the exact text to replace", {
        field: "oldText",
      });
    return this.lockedMemory((current) => {
      const at = current.indexOf(oldText);
      if (at < 0)
        throw new PiclawError(
          "MEMORY_NOT_FOUND",
          "that text is not in memory.md (it must match exactly, including spaces and line breaks): read_memory and copy it",
          { oldText: oldText.slice(0, 200) },
        );
      // Slicing, not String.replace: `$&` and friends in newText must stay literal.
      let next = current.slice(0, at) + newText + current.slice(at + oldText.length);
      if (!newText) next = next.replace(/\n{3,}/g, "\n\n");
      return this.writeMemory(next, current);
    });
  }

  async readUser(): Promise<string> {
    this.ensureTemplate("USER.md", this.paths.user);
    return readOrEmpty(this.paths.user);
  }

  async readDailyLog(date?: string): Promise<string> {
    const day = date ?? this.today().date;
    if (!isIsoDate(day))
      throw new PiclawError("MEMORY_INVALID", `date must be YYYY-MM-DD, got ${JSON.stringify(day)}`, {
        field: "date",
      });
    return readOrEmpty(this.dailyPath(day));
  }

  async appendDailyLog(text: string): Promise<void> {
    const redact = this.options.redact ?? ((t: string) => t);
    const line = redact(text.trim().replace(/\s*\n\s*/g, " "));
    if (!line) throw new PiclawError("MEMORY_INVALID", "a daily log entry needs text", { field: "text" });
    const { date, time } = this.today();
    const path = this.dailyPath(date);
    await this.serialised(() =>
      lockedUpdate(path, () => {
        const current = readOrEmptySync(path);
        const head = current ? current.replace(/\s*$/, "\n") : `# ${date}\n\n`;
        writeFileAtomic(path, `${head}- ${time} ${line}\n`);
      }),
    );
  }

  /** The daily log file of `date` (`YYYY-MM-DD`). */
  dailyPath(date: string): string {
    return join(this.paths.dailyDir, `${date}.md`);
  }

  /** Today's date and time in the configured zone. */
  today(): { date: string; time: string } {
    return zoneTime(this.options.clock.now(), this.options.timeZone);
  }

  private writeMemory(next: string, current: string): { warning?: string } {
    const bytes = Buffer.byteLength(next, "utf8");
    const hard = this.options.hardCapBytes ?? this.options.softCapBytes * 2;
    if (bytes > hard && bytes > Buffer.byteLength(current, "utf8")) {
      throw new PiclawError(
        "MEMORY_FULL",
        `memory.md would be ${bytes} bytes, over its hard cap of ${hard}: nothing was saved. Merge or remove outdated facts with update_memory (new_text may be empty), then save again.`,
        { bytes, hardCapBytes: hard },
      );
    }
    writeFileAtomic(this.paths.memory, next);
    const cap = this.options.softCapBytes;
    if (bytes <= cap) return {};
    return {
      warning: `memory.md is ${bytes} bytes, past its soft cap of ${cap}: everything was saved, but merge or remove outdated facts with update_memory to keep it short`,
    };
  }

  /** Copy the template when the file is missing (never overwrites; the state copy is the agent's). */
  private ensureTemplate(name: string, path: string): void {
    if (existsSync(path)) return;
    const template = join(this.options.templatesDir ?? join(projectRoot(), "memory"), name);
    const text = existsSync(template) ? readFileSync(template, "utf8") : "";
    writeFileAtomic(path, text);
  }

  /**
   * One read-modify-write of memory.md: after this store's earlier writes (queued, no polling),
   * under `memory.md.lock` so a writer in another process cannot lose this change or lose its own.
   */
  private lockedMemory<T>(change: (current: string) => T): Promise<T> {
    return this.serialised(() =>
      lockedUpdate(this.paths.memory, () => {
        this.ensureTemplate("memory.md", this.paths.memory);
        return change(readOrEmptySync(this.paths.memory));
      }),
    );
  }

  /** Run `fn` after every earlier write of this store finished (a failed one does not block the rest). */
  private serialised<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function readOrEmptySync(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}
