import type { ToolResult } from "../tools/types.js";
import type { ChatMessage } from "./messages.js";

/**
 * The seams between the agent loop and the parts built beside it (memory, skills, jobs, the
 * conversation window, the runtime). Each port is the narrow view the agent needs; the real stores
 * (src/memory, src/jobs) implement them directly and the tests use in-memory fakes.
 */

// ---------------------------------------------------------------- memory and skills

/** The agent's persistent memory in the state directory. All methods may throw PiclawError. */
export interface AgentMemory {
  /** memory.md as it is (empty string when missing). */
  readMemory(): Promise<string>;
  /** Append one durable fact/paragraph to memory.md. Returns a warning when past the soft size cap. */
  saveMemory(text: string): Promise<{ warning?: string }>;
  /** Replace the first exact occurrence of `oldText` in memory.md (PiclawError MEMORY_NOT_FOUND if absent). */
  updateMemory(oldText: string, newText: string): Promise<{ warning?: string }>;
  /** USER.md (who the user is), empty string when missing. */
  readUser(): Promise<string>;
  /** The daily log of `date` (`YYYY-MM-DD`, default today in the configured zone), empty when missing. */
  readDailyLog(date?: string): Promise<string>;
  /** Append a timestamped line to today's daily log. */
  appendDailyLog(text: string): Promise<void>;
}

export interface SkillInfo {
  name: string;
  description: string;
  /** `bundled` (skills/ in the app) or `user` (the state directory); a user skill shadows a bundled one. */
  source: "bundled" | "user";
}

/** SKILL.md workflows: the index goes into the system prompt, `load` returns the body verbatim. */
export interface AgentSkills {
  index(): Promise<SkillInfo[]>;
  /** The SKILL.md body (without front matter). PiclawError SKILL_NOT_FOUND when unknown. */
  load(name: string): Promise<string>;
}

// ---------------------------------------------------------------- jobs

export type JobType = "periodic" | "one-time";

/** A job as the agent sees it (one `## id` section of jobs.md). Times are ISO 8601 strings or null. */
export interface JobView {
  id: string;
  description: string;
  type: JobType;
  /** 5-field cron. */
  schedule: string;
  status: string;
  context: string;
  createTime: string | null;
  nextFireTime: string | null;
  lastFireTime: string | null;
  executionTime: string | null;
  executionResult: string | null;
}

export interface NewJob {
  id: string;
  description: string;
  type: JobType;
  schedule: string;
  context: string;
}

/** The jobs.md store. Writes are atomic and never lose a concurrent update. */
export interface AgentJobs {
  /** PiclawError JOB_EXISTS / JOB_INVALID (message names the field) when it cannot be created. */
  create(job: NewJob): Promise<JobView>;
  /** Create or replace the job with this id (used for the canonical WAIT follow-up). */
  upsert(job: NewJob): Promise<JobView>;
  get(id: string): Promise<JobView | null>;
  list(): Promise<JobView[]>;
  /** Record an execution result; a one-time job closes, a periodic one stays pending. */
  finish(id: string, result: string): Promise<JobView>;
}

// ---------------------------------------------------------------- the conversation window

/** One tool call as the model sent it (arguments are the raw JSON text). */
export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

/** One tool call's result, handed to the window in the order of the calls. */
export interface ToolOutcome {
  callId: string;
  name: string;
  /** Parsed arguments when they parsed (the `note` summary lives here), else null. */
  args: unknown;
  result: ToolResult;
}

export interface FoldReport {
  /** Turns folded away by this fold. */
  foldedTurns: number;
  /** Estimated prompt tokens before and after. */
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * The conversation the engine sends to the provider. Contract: `messages()` is always legal for an
 * OpenAI-compatible provider (every assistant tool call is answered by exactly one tool message, in
 * the very next messages; images travel in a user message after the tool messages); only the newest
 * screen image is live (older ones are `(superseded …)` text stubs keeping text rows); folding keeps
 * every note and every tool name visible in some form.
 */
export interface ConversationWindow {
  /** System part + folded slots + live turns, ready for `chat.completions.create`. */
  messages(): ChatMessage[];
  /** The assistant message of a turn, exactly as the model sent it. */
  addAssistant(content: string | null, toolCalls: ToolCallRecord[]): void;
  /** Results for the previous assistant message's tool calls: one per call, same order. */
  addToolResults(outcomes: ToolOutcome[]): void;
  /** A user message (correction after a bad turn, steer text, a loop-guard or budget warning). */
  addUser(text: string): void;
  /** Completed turns (assistant messages whose tool calls have results). */
  readonly turns: number;
  /** Estimated prompt tokens of `messages()` (chars/4 for text, a fixed cost per image). */
  estimateTokens(): number;
  /** Fold old turns into the top slots when the policy says so; null when nothing was folded. */
  maybeFold(): FoldReport | null;
}

// ---------------------------------------------------------------- waking and outcomes

/** Why a session woke. */
export type Trigger =
  | { kind: "cron"; jobId: string; description: string; context: string; scheduledFor: string }
  | { kind: "poll"; reason: string }
  | { kind: "manual"; text: string; from: string };

export interface WakeContext {
  /** When the session was woken (ms since epoch, from the injected clock). */
  at: number;
  triggers: Trigger[];
}

export type SessionStatus = "DONE" | "FAIL" | "WAIT" | "IDLE" | "STUCK" | "ABORTED";

export interface SessionOutcome {
  sessionId: string;
  status: SessionStatus;
  recap: string;
  attempts: number;
  tokens: { prompt: number; completion: number };
  /** Null when no prices are configured. */
  costUsd: number | null;
}

/** Runs one woken session to its end (all STUCK retries included). Never throws for session failures. */
export interface SessionRunner {
  run(wake: WakeContext, signal: AbortSignal): Promise<SessionOutcome>;
}
