import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { PiclawError } from "../util/errors.js";
import { type SessionSummary, sessionDir, sessionsDir } from "./traces.js";

/**
 * Reads the traces TraceWriter leaves under `<stateDir>/sessions/` (for `piclaw sessions`, the
 * dashboard). Tolerant of what a crash leaves behind: a folder without a readable summary is
 * skipped, a torn last line of events.jsonl is ignored.
 */

/** One line of events.jsonl: an AgentEvent as written (images as paths, secrets redacted). */
export interface TraceEvent {
  type: string;
  sessionId: string;
  at: number;
  [key: string]: unknown;
}

export interface SessionTrace {
  summary: SessionSummary;
  events: TraceEvent[];
  /** Absolute folder of the session (image paths in events are relative to it). */
  dir: string;
}

const IMAGE_NAME = /^[A-Za-z0-9_-]+\.jpg$/;

function isSummary(value: unknown): value is SessionSummary {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.sessionId === "string" && typeof v.status === "string" && typeof v.startedAt === "string";
}

export class SessionStore {
  constructor(private readonly stateDir: string) {}

  /** Summaries, newest start first, at most `limit`. */
  async list(limit = 20): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = await readdir(sessionsDir(this.stateDir));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const summaries: SessionSummary[] = [];
    for (const name of names) {
      const summary = await this.summary(name).catch(() => null);
      if (summary) summaries.push(summary);
    }
    summaries.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
    return summaries.slice(0, Math.max(0, limit));
  }

  /** One session's summary, or null when there is none (unknown id, or not written yet). */
  async summary(sessionId: string): Promise<SessionSummary | null> {
    const dir = sessionDir(this.stateDir, sessionId);
    let text: string;
    try {
      text = await readFile(join(dir, "summary.json"), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    const parsed: unknown = JSON.parse(text);
    return isSummary(parsed) ? parsed : null;
  }

  /** Summary and every event of one session; null for an unknown id. PiclawError SESSION_ID_INVALID for a bad id. */
  async show(sessionId: string): Promise<SessionTrace | null> {
    const summary = await this.summary(sessionId);
    if (!summary) return null;
    const dir = sessionDir(this.stateDir, sessionId);
    const text = await readFile(join(dir, "events.jsonl"), "utf8").catch(() => "");
    const events: TraceEvent[] = [];
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        events.push(JSON.parse(line) as TraceEvent);
      } catch {
        // a line cut short by a crash or power loss: everything before it is still good
      }
    }
    return { summary, events, dir };
  }

  /** The bytes of one image of a session (a name from `summary.images`), or null. */
  async image(sessionId: string, name: string): Promise<Buffer | null> {
    if (!IMAGE_NAME.test(name))
      throw new PiclawError("SESSION_IMAGE_INVALID", `not an image name: ${name}`, { name });
    return readFile(join(sessionDir(this.stateDir, sessionId), "images", name)).catch(() => null);
  }

  /** Delete all but the `keep` newest finished sessions (running ones stay). Returns the ids removed. */
  async prune(keep: number): Promise<string[]> {
    const all = await this.list(Number.MAX_SAFE_INTEGER);
    const finished = all.filter((s) => s.status !== "running");
    const doomed = finished.slice(Math.max(0, keep));
    for (const s of doomed)
      await rm(sessionDir(this.stateDir, s.sessionId), { recursive: true, force: true });
    return doomed.map((s) => s.sessionId);
  }
}
