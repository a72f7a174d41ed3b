import type { Logger } from "../log/logger.js";
import type { PhoneOwner } from "../rig/owner.js";
import type { ToolResult } from "../tools/types.js";
import type { Clock } from "../util/clock.js";
import { errorMessage, PiclawError } from "../util/errors.js";
import type { BudgetHit } from "./budget.js";
import { boundReply } from "./clip.js";
import type { AgentConfig } from "./config.js";
import type { AgentEvent, TokenUsage } from "./events.js";
import { LoopGuards } from "./guards.js";
import { END_SESSION_TOOL, endSessionArgs, type LocalToolContext, NOTE_TOOL } from "./local-tools.js";
import type { ConversationWindow, SessionStatus, ToolCallRecord, ToolOutcome } from "./ports.js";
import type { ChatProvider, ChatReply } from "./provider.js";
import { verdictOf } from "./result-text.js";
import type { ToolCatalog } from "./tool-catalog.js";
import { checkTurn, notRunResult, rejectTurn } from "./turn-rules.js";

/**
 * One attempt of a session: ask the model, check the turn's shape, run the action, feed the results
 * back, until `end_session`, a stop (budget, abort) or STUCK (bad turns, out of turns, provider down).
 * Invariant: after every step the window's transcript is legal (every call answered, in order).
 */

export interface AttemptEnd {
  status: SessionStatus;
  recap: string;
  /** True when no further attempt may follow (a closing status, a budget stop, an abort). */
  final: boolean;
  /** Model requests made in this attempt (bad turns included). */
  turns: number;
  /** When the provider asked for a longer wait than we allow: the instant it allows requests again. */
  retryAt?: number;
}

/** What lives across the attempts of one session. */
export interface AttemptHost {
  readonly sessionId: string;
  readonly config: AgentConfig;
  readonly provider: ChatProvider;
  readonly catalog: ToolCatalog;
  readonly owner: PhoneOwner;
  readonly clock: Clock;
  readonly log: Logger;
  readonly signal: AbortSignal;
  readonly local: LocalToolContext;
  emit(event: DistributiveOmit<AgentEvent, "sessionId" | "at">): void;
  /** The first exhausted budget (session or day), or null. */
  exhaustedBudget(): BudgetHit | null;
  /** Count one model reply's usage (session totals, the day file). */
  account(usage: TokenUsage): void;
  /** Steer messages queued since the last request (drained). */
  takeSteers(): string[];
  abortReason(): string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Turns left in an attempt when the model is told to wrap up. */
const WRAP_UP_TURNS = 10;

export async function runAttempt(
  host: AttemptHost,
  window: ConversationWindow,
  attempt: number,
): Promise<AttemptEnd> {
  const { config } = host;
  const guards = new LoopGuards(config.guard);
  let badInARow = 0;
  let turn = 0;
  /** Tool-call ids in this attempt's transcript (one window per attempt). */
  const callIds = new Set<string>();
  const end = (status: SessionStatus, recap: string, final: boolean): AttemptEnd => ({
    status,
    recap,
    final,
    turns: turn,
  });
  const aborted = () => end("ABORTED", `aborted: ${host.abortReason()}`, true);

  while (turn < config.maxTurnsPerAttempt) {
    if (host.signal.aborted) return aborted();
    const hit = host.exhaustedBudget();
    if (hit) {
      host.emit({ type: "budget_stop", attempt, ...hit });
      return end("STUCK", `budget stop: ${describeBudget(hit)}`, true);
    }
    turn += 1;
    for (const text of host.takeSteers()) {
      window.addUser(`Message from the user (it takes priority over your plan): ${text}`);
      host.emit({ type: "steer", attempt, text });
    }
    if (config.maxTurnsPerAttempt - turn + 1 === WRAP_UP_TURNS) {
      window.addUser(
        `${WRAP_UP_TURNS} turns left in this session: finish the current step and close with end_session (WAIT or STUCK if the task is not done).`,
      );
    }
    const fold = window.maybeFold();
    if (fold) host.emit({ type: "fold", attempt, turn, report: fold });
    host.emit({ type: "turn_start", attempt, turn });

    const messages = window.messages();
    host.emit({
      type: "model_request",
      attempt,
      turn,
      estimatedPromptTokens: window.estimateTokens(),
      messageCount: messages.length,
    });
    const started = host.clock.now();
    let reply: ChatReply;
    try {
      reply = await host.provider.complete({
        messages,
        tools: host.catalog.schemas(),
        signal: host.signal,
        onRetry: (info) => host.emit({ type: "retry", attempt, turn, ...info }),
      });
    } catch (err) {
      if (host.signal.aborted || (err instanceof PiclawError && err.code === "ABORTED")) return aborted();
      host.log.warn("model request failed; the session is stuck on the provider", { attempt, err });
      // Final: the provider already retried this turn as often as allowed (or was told to wait
      // longer than we will); restarting the session from the wake message would only re-send.
      const retryAt = err instanceof PiclawError ? err.details.retryAt : undefined;
      return {
        ...end("STUCK", `provider failed: ${errorMessage(err)}`, true),
        ...(typeof retryAt === "number" ? { retryAt } : {}),
      };
    }
    const bounded = boundReply({ ...reply, toolCalls: uniqueCallIds(reply.toolCalls, callIds) });
    reply = bounded.reply;
    host.account(reply.usage);
    host.emit({
      type: "model_response",
      attempt,
      turn,
      usage: reply.usage,
      durationMs: host.clock.now() - started,
      content: reply.content,
      toolCalls: reply.toolCalls,
      finishReason: reply.finishReason,
    });

    const check = bounded.rejection
      ? rejectTurn(bounded.rejection, "Re-issue the action with short arguments, with note.")
      : checkTurn(reply.toolCalls, host.catalog.names);
    if (!check.ok) {
      badInARow += 1;
      window.addAssistant(reply.content, reply.toolCalls);
      if (reply.toolCalls.length > 0) {
        window.addToolResults(
          reply.toolCalls.map((call) => ({
            callId: call.id,
            name: call.name,
            args: null,
            result: notRunResult(check.reason),
          })),
        );
      }
      window.addUser(check.correction);
      host.emit({ type: "bad_turn", attempt, turn, reason: check.reason, consecutive: badInARow });
      if (badInARow >= config.badTurnLimit) {
        return end("STUCK", `${badInARow} bad turns in a row (last: ${check.reason})`, false);
      }
      continue;
    }
    badInARow = 0;
    host.emit({ type: "note", attempt, turn, summary: check.summary });
    window.addAssistant(reply.content, reply.toolCalls);

    const outcomes: ToolOutcome[] = [];
    for (const call of reply.toolCalls) {
      if (call === check.note) {
        outcomes.push({
          callId: call.id,
          name: NOTE_TOOL,
          args: { summary: check.summary },
          result: noted(),
        });
        continue;
      }
      const result = await runAction(host, guards, attempt, turn, call, check.actionArgs);
      outcomes.push({ callId: call.id, name: call.name, args: check.actionArgs, result });
    }
    window.addToolResults(outcomes);
    if (host.signal.aborted) return aborted();

    if (check.action.name === END_SESSION_TOOL) {
      const closing = endSessionArgs.safeParse(check.actionArgs);
      // An invalid end_session got an error result above; the model reads it and tries again.
      if (closing.success) {
        const { status, recap } = closing.data;
        return end(status, recap, status !== "STUCK");
      }
    }
  }
  return end("STUCK", `ran out of turns (${config.maxTurnsPerAttempt}) without closing the session`, false);
}

async function runAction(
  host: AttemptHost,
  guards: LoopGuards,
  attempt: number,
  turn: number,
  call: ToolCallRecord,
  args: unknown,
): Promise<ToolResult> {
  const base = { attempt, turn, callId: call.id, name: call.name, args };
  host.emit({ type: "tool_start", ...base });
  const started = host.clock.now();
  let result: ToolResult;
  const block = guards.before(call.name, args);
  if (block) {
    host.emit({
      type: "guard",
      attempt,
      turn,
      action: "block",
      kind: block.kind,
      tool: call.name,
      count: block.count,
      message: block.message,
    });
    result = { content: [{ type: "text", text: block.message }], isError: true };
  } else {
    result = await host.catalog.run(call.name, args, {
      owner: host.owner,
      label: host.sessionId,
      signal: host.signal,
      log: host.log,
      local: host.local,
    });
    const warn = guards.after(call.name, args, result, host.catalog.isNeutral(call.name));
    if (warn) {
      host.emit({
        type: "guard",
        attempt,
        turn,
        action: "warn",
        kind: warn.kind,
        tool: call.name,
        count: warn.count,
        message: warn.message,
      });
      result = appendText(result, warn.message);
    }
  }
  host.emit({
    type: "tool_end",
    ...base,
    isError: result.isError,
    verdict: verdictOf(result),
    durationMs: host.clock.now() - started,
    result,
  });
  return result;
}

/**
 * A provider that reuses a tool-call id (within a reply or across turns) would get a transcript
 * it cannot pair results with, and some reject it outright: a reused id gets a `_2`, `_3`… suffix.
 */
export function uniqueCallIds(calls: ToolCallRecord[], seen: Set<string>): ToolCallRecord[] {
  return calls.map((call) => {
    let id = call.id;
    for (let n = 2; seen.has(id); n++) id = `${call.id}_${n}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

function noted(): ToolResult {
  return { content: [{ type: "text", text: "noted" }], isError: false };
}

/** Add a line to the first text part (or a new text part) of a result. */
function appendText(result: ToolResult, line: string): ToolResult {
  const index = result.content.findIndex((p) => p.type === "text");
  if (index < 0) return { ...result, content: [{ type: "text", text: line }, ...result.content] };
  const content = result.content.map((part, i) =>
    i === index && part.type === "text" ? { type: "text" as const, text: `${part.text}\n${line}` } : part,
  );
  return { ...result, content };
}

export function describeBudget(hit: BudgetHit): string {
  const fmt = (v: number) => (hit.budget === "cost" ? `$${v.toFixed(2)}` : String(Math.round(v)));
  const what = { turns: "turns", wallTime: "wall time (s)", tokens: "tokens", cost: "cost" }[hit.budget];
  return `${hit.scope} ${what} ${fmt(hit.used)} reached the limit ${fmt(hit.limit)}`;
}
