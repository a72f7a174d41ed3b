import { z } from "zod";
import type { ChatMessage } from "./messages.js";
import type { ToolCallRecord, ToolOutcome } from "./ports.js";
import { clip, liveText, verdictOf } from "./result-text.js";

/**
 * Folding: the oldest turns of a long session leave the live transcript and become slots near the
 * top. What survives a fold: every note (its summary, turn number and the tools of its turn, as one
 * line of a running list), every tool call name (with its arguments, clipped), each verdict, each
 * user message (steer, correction) clipped, and memory/skill loads verbatim (the model acted on them
 * and may need them again). Screens, listings and long results go.
 */

export const foldPolicySchema = z
  .strictObject({
    firstAt: z
      .number()
      .int()
      .min(2)
      .default(30)
      .describe("Fold for the first time once the session has this many completed turns."),
    keep: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe("Newest turns that stay live (verbatim) after a fold; older ones fold into the summary."),
    every: z
      .number()
      .int()
      .min(1)
      .default(20)
      .describe("After the first fold, fold again every this many turns."),
  })
  .refine((p) => p.keep < p.firstAt, { message: "keep must be smaller than firstAt", path: ["keep"] })
  .describe(
    "Context folding: past `firstAt` turns, all but the `keep` newest turns fold into a running summary (every note and tool name stays), memory loads and skill loads (kept verbatim).",
  );

export type FoldPolicy = z.output<typeof foldPolicySchema>;

export const DEFAULT_FOLD_POLICY: FoldPolicy = foldPolicySchema.parse({});

/** Tools whose (successful) results are kept verbatim in the loads slot when their turn folds. */
export const MEMORY_LOAD_TOOLS: readonly string[] = ["read_memory"];
export const SKILL_LOAD_TOOLS: readonly string[] = ["load_skill"];

/** Arguments in a summary line are cut here: enough for a bbox or a short text, not for a novel. */
const ARGS_CLIP = 120;
const USER_CLIP = 300;
/**
 * Summary lines of the newest this-many folded turns keep their arguments; older ones are compacted
 * (note, tool names, outcomes), which roughly halves their size and keeps a 300-turn session bounded.
 */
const DETAILED_TURNS = 20;

/** A completed turn as the fold sees it. */
export interface FoldableTurn {
  number: number;
  calls: readonly ToolCallRecord[];
  outcomes: readonly ToolOutcome[];
  /** User messages that followed the turn (corrections, steer text, warnings). */
  after: readonly string[];
}

interface Load {
  kind: "memory" | "skill";
  turn: number;
  label: string;
  text: string;
}

function noteSummary(args: unknown): string | null {
  if (typeof args === "object" && args !== null && "summary" in args) {
    const { summary } = args as { summary: unknown };
    if (typeof summary === "string") return summary;
  }
  return null;
}

/**
 * One call as a summary fragment: `tap {"bbox":[…]} (screen: changed)`; `compact` (for old lines)
 * leaves out the arguments and shortens errors, keeping the name and the outcome.
 */
function describeCall(
  call: ToolCallRecord,
  outcome: ToolOutcome | undefined,
  loaded: boolean,
  compact: boolean,
): string {
  const args = call.arguments.trim();
  let text = compact || args === "" || args === "{}" ? call.name : `${call.name} ${clip(args, ARGS_CLIP)}`;
  if (outcome?.result.isError)
    text += ` (error: ${clip(liveText(outcome.result).replace(/^\[error\] /, ""), compact ? 40 : 80)})`;
  else if (loaded) text += " (kept verbatim above)";
  else {
    const verdict = outcome ? verdictOf(outcome.result) : null;
    if (verdict) text += ` (screen: ${verdict})`;
  }
  return text;
}

/** The folded part of a conversation: grows with each fold, rendered as up to two user messages. */
export class FoldedSlots {
  /** Per folded turn, its summary lines in full and compacted. */
  private readonly entries: Array<{ full: string[]; compact: string[] }> = [];
  /** Newest load per tool+arguments (a memory re-read replaces the older copy). */
  private readonly loads = new Map<string, Load>();
  private firstTurn: number | null = null;
  private lastTurn: number | null = null;

  get foldedTurns(): number {
    return this.firstTurn === null || this.lastTurn === null ? 0 : this.lastTurn - this.firstTurn + 1;
  }

  add(turn: FoldableTurn): void {
    this.firstTurn ??= turn.number;
    this.lastTurn = turn.number;
    const notes: string[] = [];
    const calls: Array<{ call: ToolCallRecord; outcome: ToolOutcome | undefined; loaded: boolean }> = [];
    for (const [i, call] of turn.calls.entries()) {
      const outcome = turn.outcomes.find((o) => o.callId === call.id) ?? turn.outcomes[i];
      const loaded = outcome ? this.keepLoad(turn.number, call, outcome) : false;
      const summary = call.name === "note" && outcome ? noteSummary(outcome.args) : null;
      if (summary !== null) notes.push(`"${clip(summary, ARGS_CLIP)}"`);
      else calls.push({ call, outcome, loaded });
    }
    const head = `${turn.number}. ${notes.length > 0 ? notes.join(" + ") : "(no note)"}`;
    const render = (compact: boolean): string[] => {
      const others = calls.map((c) => describeCall(c.call, c.outcome, c.loaded, compact));
      const tail = others.length > 0 ? ` → ${others.join(", ")}` : "";
      const users = turn.after.map((text) => `   user: ${clip(text, compact ? USER_CLIP / 2 : USER_CLIP)}`);
      return [`${head}${tail}`, ...users];
    };
    this.entries.push({ full: render(false), compact: render(true) });
  }

  private summaryLines(): string[] {
    const detailedFrom = this.entries.length - DETAILED_TURNS;
    return this.entries.flatMap((e, i) => (i < detailedFrom ? e.compact : e.full));
  }

  private keepLoad(turn: number, call: ToolCallRecord, outcome: ToolOutcome): boolean {
    const kind = MEMORY_LOAD_TOOLS.includes(call.name)
      ? "memory"
      : SKILL_LOAD_TOOLS.includes(call.name)
        ? "skill"
        : null;
    if (kind === null || outcome.result.isError) return false;
    const key = `${call.name} ${call.arguments.trim()}`;
    this.loads.delete(key); // re-insert so the map's order is the order of the newest loads
    this.loads.set(key, { kind, turn, label: key.trim(), text: liveText(outcome.result) });
    return true;
  }

  /** The slots as messages: loads first (they change least, which keeps the cached prefix longer), then the summary. */
  messages(): ChatMessage[] {
    if (this.firstTurn === null) return [];
    const out: ChatMessage[] = [];
    if (this.loads.size > 0) {
      const blocks = [...this.loads.values()].map(
        (l) => `## ${l.kind === "memory" ? "memory" : "skill"}: ${l.label} (turn ${l.turn})\n${l.text}`,
      );
      out.push({
        role: "user",
        content: `[Loaded earlier in this session and kept verbatim]\n\n${blocks.join("\n\n")}`,
      });
    }
    out.push({
      role: "user",
      content: `[Turns ${this.firstTurn}–${this.lastTurn} were folded to save space. One line per turn: its note, then the other tools it called and their outcome (arguments only on the newest lines).]\n${this.summaryLines().join("\n")}`,
    });
    return out;
  }
}
