import { parseToolArgs } from "../tools/args.js";
import { errorResult, type ToolResult } from "../tools/types.js";
import { NOTE_MAX_WORDS, NOTE_TOOL, noteArgs } from "./local-tools.js";
import type { ToolCallRecord } from "./ports.js";

/**
 * The rule of a turn: exactly two tool calls, one `note(summary ≤20 words)` and exactly one other known
 * tool. A turn that breaks it is rejected before any tool runs; every call still gets a `not run`
 * result (so the transcript stays legal) and the model is told, naming the offending tool, to re-issue
 * the same action in the right shape.
 */

export type TurnCheck =
  | { ok: true; note: ToolCallRecord; summary: string; action: ToolCallRecord; actionArgs: unknown }
  | { ok: false; reason: string; correction: string };

/** Parse tool-call arguments (JSON text); null when they do not parse. */
export function parseArguments(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

const RULE = `Every turn must call exactly two tools: note(summary, at most ${NOTE_MAX_WORDS} words: what and why) and exactly one other tool.`;

/** A rejected turn: `reason` names what was wrong, `retryHint` what to send instead. */
export function rejectTurn(reason: string, retryHint: string): TurnCheck {
  return { ok: false, reason, correction: `Turn rejected, nothing was run: ${reason}. ${RULE} ${retryHint}` };
}

export function checkTurn(calls: readonly ToolCallRecord[], knownTools: ReadonlySet<string>): TurnCheck {
  const reject = rejectTurn;
  const names = calls.map((c) => c.name);
  const others = calls.filter((c) => c.name !== NOTE_TOOL);
  const notes = calls.filter((c) => c.name === NOTE_TOOL);
  const unknown = others.filter((c) => !knownTools.has(c.name));
  const sameAction = (c: ToolCallRecord) => `Re-issue the same action: note + ${c.name}.`;

  if (calls.length === 0) {
    return reject("you called no tool", "Call note and the one tool for your next action.");
  }
  const first = unknown[0];
  if (first) {
    return reject(`\`${first.name}\` is not a tool`, "Use one of the listed tools, with note.");
  }
  if (others.length === 0) {
    return reject("you called only note", "Add the one tool your note describes.");
  }
  const action = others[0] as ToolCallRecord;
  if (others.length > 1) {
    const list = others.map((c) => `\`${c.name}\``).join(", ");
    return reject(
      `you called ${others.length} tools besides note (${list})`,
      `One action per turn: re-issue the first one, note + ${action.name}, and do the others in later turns.`,
    );
  }
  if (notes.length === 0) {
    return reject(`\`${action.name}\` was called without note`, sameAction(action));
  }
  if (notes.length > 1 || calls.length !== 2) {
    return reject(`you called note ${notes.length} times (${names.join(", ")})`, sameAction(action));
  }
  const note = notes[0] as ToolCallRecord;
  const noteParsed = parseArguments(note.arguments);
  const checked = noteParsed.ok ? parseToolArgs(noteArgs, noteParsed.value) : null;
  if (!checked?.ok) {
    const why = checked ? checked.problems.join("; ") : "its arguments are not JSON";
    return reject(`the note with \`${action.name}\` is invalid (${why})`, sameAction(action));
  }
  const actionParsed = parseArguments(action.arguments);
  if (!actionParsed.ok) {
    return reject(`the arguments of \`${action.name}\` are not valid JSON`, sameAction(action));
  }
  return { ok: true, note, summary: checked.value.summary, action, actionArgs: actionParsed.value };
}

/** The result every call of a rejected turn gets. */
export function notRunResult(reason: string): ToolResult {
  return errorResult(`not run: ${reason}.`);
}
