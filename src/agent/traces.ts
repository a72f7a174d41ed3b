import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../log/logger.js";
import type { ToolResult } from "../tools/types.js";
import { writeJsonAtomic } from "../util/atomic-file.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { AgentEvent, AgentEvents } from "./events.js";
import type { SessionStatus, Trigger } from "./ports.js";

/**
 * Session traces on disk, one folder per session under `<stateDir>/sessions/<sessionId>/`:
 * - `events.jsonl`: every AgentEvent, one JSON object per line, in order; tool results keep their text
 *   and carry `{type:"image", path}` instead of base64 (the JPEG is in `images/`);
 * - `images/a<attempt>-t<turn>-<tool>-<n>.jpg`: every image a tool returned;
 * - `summary.json`: status, recap, attempts, turns, tokens, cost, start/end and the notes; rewritten
 *   atomically as the session goes (`running` until it ends), so a reader never sees half a file.
 * Every string is passed through `redact` before it reaches disk. Writing never throws into the loop:
 * a failing write is logged and the session goes on.
 * Size caps (a hostile model once made a 15.7 MB events.jsonl in 4 turns): a string in an event is
 * cut at TRACE_STRING_MAX characters; past `maxEventsBytes` only `session_end` is still written,
 * after one `trace_truncated` line.
 */

/** Longest string kept in a traced event; the rest is replaced by a marker with the original length. */
export const TRACE_STRING_MAX = 16_384;
/** Default cap of one session's events.jsonl. */
export const TRACE_EVENTS_MAX_BYTES = 20 * 1024 * 1024;

export type TraceStatus = SessionStatus | "running";

export interface TraceNote {
  attempt: number;
  turn: number;
  /** ISO 8601 */
  at: string;
  summary: string;
}

export interface SessionSummary {
  sessionId: string;
  status: TraceStatus;
  recap: string;
  attempts: number;
  /** Turns over all attempts (bad turns included). */
  turns: number;
  toolCalls: number;
  tokens: { prompt: number; completion: number };
  costUsd: number | null;
  provider: string | null;
  model: string | null;
  /** One line per trigger that woke the session. */
  triggers: string[];
  /** ISO 8601 */
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  notes: TraceNote[];
  /** Image file names under `images/`, oldest first. */
  images: string[];
}

/** A traced tool result: text parts as the model saw them, image parts replaced by their file. */
export type TracedContent = { type: "text"; text: string } | { type: "image"; path: string; bytes: number };

export interface TraceWriterOptions {
  stateDir: string;
  /** Scrubs secrets out of a string (the daemon passes its logger's `redact`); applied to every string written. */
  redact: (text: string) => string;
  log: Logger;
  /** Cap of one session's events.jsonl (default TRACE_EVENTS_MAX_BYTES). */
  maxEventsBytes?: number;
}

export function sessionsDir(stateDir: string): string {
  return join(stateDir, "sessions");
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The folder of a session; PiclawError SESSION_ID_INVALID for ids that could escape `sessions/`. */
export function sessionDir(stateDir: string, sessionId: string): string {
  if (!SAFE_ID.test(sessionId) || sessionId.includes(".."))
    throw new PiclawError("SESSION_ID_INVALID", `not a session id: ${JSON.stringify(sessionId)}`, {
      sessionId,
    });
  return join(sessionsDir(stateDir), sessionId);
}

export function describeTrigger(t: Trigger): string {
  switch (t.kind) {
    case "cron":
      return `job ${t.jobId}: ${t.description}`;
    case "poll":
      return `screen change: ${t.reason}`;
    case "manual":
      return `${t.from}: ${t.text}`;
  }
}

function clipString(text: string): string {
  if (text.length <= TRACE_STRING_MAX) return text;
  return `${text.slice(0, TRACE_STRING_MAX)}…[trace: clipped, ${text.length} characters]`;
}

function redactDeep(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  // Redact before clipping: a cut must never leave half a secret behind.
  if (typeof value === "string") return clipString(redact(value));
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redact, depth + 1);
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();
const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);

interface LiveSession {
  dir: string;
  summary: SessionSummary;
  /** Turns of the attempts that ended. */
  turnsBefore: number;
  currentTurn: number;
  /** Bytes written to events.jsonl, and whether the cap was reached. */
  eventsBytes: number;
  truncated: boolean;
}

export class TraceWriter {
  private readonly sessions = new Map<string, LiveSession>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: TraceWriterOptions) {}

  /** Subscribe to the engine's events (idempotent). */
  start(events: AgentEvents): void {
    if (this.unsubscribe) return;
    this.unsubscribe = events.on((event) => this.handle(event));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Record one event. Never throws: a failed write is logged and dropped. */
  handle(event: AgentEvent): void {
    try {
      this.record(event);
    } catch (err) {
      this.options.log.warn("trace write failed", {
        sessionId: event.sessionId,
        type: event.type,
        error: errorMessage(err),
      });
    }
  }

  private record(event: AgentEvent): void {
    const live = this.session(event);
    const s = live.summary;
    let line: Record<string, unknown> = { ...event };
    let summaryChanged = false;
    switch (event.type) {
      case "session_start":
        s.provider = event.provider;
        s.model = event.model;
        s.triggers = event.wake.triggers.map(describeTrigger);
        s.startedAt = iso(event.at);
        summaryChanged = true;
        break;
      case "attempt_start":
        s.attempts = Math.max(s.attempts, event.attempt);
        live.currentTurn = 0;
        summaryChanged = true;
        break;
      case "turn_start":
        live.currentTurn = Math.max(live.currentTurn, event.turn);
        s.turns = live.turnsBefore + live.currentTurn;
        summaryChanged = true; // a running session's progress shows in `sessions list`
        break;
      case "model_response":
        s.tokens = {
          prompt: s.tokens.prompt + event.usage.prompt,
          completion: s.tokens.completion + event.usage.completion,
        };
        break;
      case "note":
        s.notes.push({ attempt: event.attempt, turn: event.turn, at: iso(event.at), summary: event.summary });
        summaryChanged = true;
        break;
      case "tool_end":
        s.toolCalls += 1;
        line = {
          ...event,
          result: this.saveImages(live, event.attempt, event.turn, event.name, event.result),
        };
        break;
      case "attempt_end":
        live.turnsBefore += event.turns;
        live.currentTurn = 0;
        s.turns = live.turnsBefore;
        s.recap = event.recap;
        summaryChanged = true;
        break;
      case "session_end":
        s.status = event.outcome.status;
        s.recap = event.outcome.recap;
        s.attempts = event.outcome.attempts;
        s.tokens = { ...event.outcome.tokens };
        s.costUsd = event.outcome.costUsd;
        s.endedAt = iso(event.at);
        s.durationMs = event.durationMs;
        summaryChanged = true;
        break;
      default:
        break;
    }
    this.append(live, event, `${JSON.stringify(redactDeep(line, this.options.redact))}\n`);
    if (summaryChanged) this.writeSummary(live);
    if (event.type === "session_end") this.sessions.delete(event.sessionId);
  }

  private append(live: LiveSession, event: AgentEvent, text: string): void {
    const cap = this.options.maxEventsBytes ?? TRACE_EVENTS_MAX_BYTES;
    const bytes = Buffer.byteLength(text);
    let out = text;
    if (event.type !== "session_end" && live.eventsBytes + bytes > cap) {
      if (live.truncated) return;
      live.truncated = true;
      const marker = { type: "trace_truncated", sessionId: event.sessionId, at: event.at, maxBytes: cap };
      out = `${JSON.stringify(marker)}\n`;
    }
    appendFileSync(join(live.dir, "events.jsonl"), out, { mode: 0o600 });
    live.eventsBytes += Buffer.byteLength(out);
  }

  private session(event: AgentEvent): LiveSession {
    const existing = this.sessions.get(event.sessionId);
    if (existing) return existing;
    const dir = sessionDir(this.options.stateDir, event.sessionId);
    mkdirSync(join(dir, "images"), { recursive: true, mode: 0o700 });
    const live: LiveSession = {
      dir,
      turnsBefore: 0,
      currentTurn: 0,
      eventsBytes: 0,
      truncated: false,
      summary: {
        sessionId: event.sessionId,
        status: "running",
        recap: "",
        attempts: 0,
        turns: 0,
        toolCalls: 0,
        tokens: { prompt: 0, completion: 0 },
        costUsd: null,
        provider: null,
        model: null,
        triggers: [],
        startedAt: iso(event.at),
        endedAt: null,
        durationMs: null,
        notes: [],
        images: [],
      },
    };
    this.sessions.set(event.sessionId, live);
    return live;
  }

  /** Write each image part to `images/` and return the content with paths instead of base64. */
  private saveImages(live: LiveSession, attempt: number, turn: number, tool: string, result: ToolResult) {
    const content: TracedContent[] = result.content.map((part) => {
      if (part.type === "text") return part;
      const jpeg = Buffer.from(part.data, "base64");
      const base = `a${attempt}-t${String(turn).padStart(3, "0")}-${fileSafe(tool)}`;
      let name = `${base}-1.jpg`;
      for (let n = 2; live.summary.images.includes(name); n++) name = `${base}-${n}.jpg`;
      writeFileSync(join(live.dir, "images", name), jpeg, { mode: 0o600 });
      live.summary.images.push(name);
      return { type: "image", path: `images/${name}`, bytes: jpeg.length };
    });
    return { isError: result.isError, content };
  }

  private writeSummary(live: LiveSession): void {
    writeJsonAtomic(join(live.dir, "summary.json"), redactDeep(live.summary, this.options.redact));
  }
}
