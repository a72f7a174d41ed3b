import type { ToolResult } from "../tools/types.js";
import type { FoldReport, SessionOutcome, SessionStatus, ToolCallRecord, WakeContext } from "./ports.js";

/**
 * The typed events of the agent loop. Traces (events.jsonl), the CLI (`piclaw run` streams notes) and
 * the dashboard subscribe to them. Contract: this union only grows (new members, new optional fields);
 * existing fields keep their names and meaning. Every event carries the session id and the injected
 * clock's time (`at`, ms since epoch). Events never contain the API key; tool results are the ones the
 * model sees (phone tools scrub the passcode before this point).
 */

interface Base {
  sessionId: string;
  /** Injected clock, ms since epoch. */
  at: number;
}

/** Events inside one attempt also name it (1-based). */
interface InAttempt extends Base {
  attempt: number;
}

/** Events inside one turn also name it (1-based within the attempt, counting bad turns too). */
interface InTurn extends InAttempt {
  turn: number;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
}

export type BudgetKind = "turns" | "wallTime" | "tokens" | "cost";
export type GuardKind = "no-change" | "repeated-failure";

export type AgentEvent =
  | (Base & { type: "session_start"; wake: WakeContext; provider: string; model: string })
  | (InAttempt & { type: "attempt_start" })
  | (InTurn & { type: "turn_start" })
  | (InTurn & {
      type: "model_request";
      /** Estimated prompt tokens of the messages sent (the window's estimate). */
      estimatedPromptTokens: number;
      messageCount: number;
    })
  | (InTurn & {
      type: "model_response";
      /** Usage as the provider reported it (zeros when it reported none). */
      usage: TokenUsage;
      durationMs: number;
      /** Assistant text, if any (models may think aloud beside the tool calls). */
      content: string | null;
      toolCalls: ToolCallRecord[];
      finishReason: string | null;
    })
  /** The model's `note` summary of a valid turn (what and why), for streaming to people. */
  | (InTurn & { type: "note"; summary: string })
  | (InTurn & { type: "tool_start"; callId: string; name: string; args: unknown })
  | (InTurn & {
      type: "tool_end";
      callId: string;
      name: string;
      args: unknown;
      isError: boolean;
      /** The verdict of a gesture result (`changed`, `no visible change`, `unknown (…)`), null when none. */
      verdict: string | null;
      durationMs: number;
      /** The result as handed to the window (images included, base64 JPEG). */
      result: ToolResult;
    })
  /** A turn rejected before any tool ran; `consecutive` counts bad turns in a row. */
  | (InTurn & { type: "bad_turn"; reason: string; consecutive: number })
  | (InTurn & { type: "fold"; report: FoldReport })
  /** A provider request is retried after `delayMs` (`retry` = 1 for the first retry). */
  | (InTurn & { type: "retry"; retry: number; delayMs: number; reason: string })
  | (InAttempt & {
      type: "budget_stop";
      budget: BudgetKind;
      scope: "session" | "day";
      used: number;
      limit: number;
    })
  | (InTurn & {
      type: "guard";
      action: "warn" | "block";
      kind: GuardKind;
      tool: string;
      /** How many times this call/target has been seen in a row (including this one). */
      count: number;
      message: string;
    })
  | (InAttempt & { type: "steer"; text: string })
  | (InAttempt & { type: "abort"; reason: string })
  | (InAttempt & { type: "attempt_end"; status: SessionStatus; recap: string; turns: number })
  | (Base & { type: "session_end"; outcome: SessionOutcome; durationMs: number });

export type AgentEventType = AgentEvent["type"];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
export type AgentListener = (event: AgentEvent) => void;

/**
 * A tiny synchronous emitter. A listener that throws is isolated (reported to `onListenerError`, the
 * loop goes on): observers must never break a session.
 */
export class AgentEvents {
  private readonly listeners = new Set<AgentListener>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  /** Subscribe; returns the unsubscribe function. */
  on(listener: AgentListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Subscribe to one event type only. */
  onType<T extends AgentEventType>(type: T, listener: (event: AgentEventOf<T>) => void): () => void {
    return this.on((event) => {
      if (event.type === type) listener(event as AgentEventOf<T>);
    });
  }

  emit(event: AgentEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
