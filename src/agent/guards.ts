import type { ToolResult } from "../tools/types.js";
import type { GuardKind } from "./events.js";

/**
 * Loop guards: the same target pressed with no visible change, or the same call failing, again and
 * again. At `warnAt` repetitions in a row the result carries a warning; from `blockAt` on the call is
 * not run. A different action (or a success / a visible change) ends the streak; read-only calls
 * (`neutral`: peek, screenshot, wait…) that succeed do not, so "tap, peek, tap, peek" still counts.
 */

export interface GuardOptions {
  warnAt: number;
  blockAt: number;
}

export interface GuardHit {
  kind: GuardKind;
  count: number;
  message: string;
}

interface Streak {
  key: string;
  tool: string;
  count: number;
}

const NO_CHANGE = /^screen: no visible change/m;

/** A stable key of a call: the tool and its arguments with object keys sorted. */
export function callKey(tool: string, args: unknown): string {
  return `${tool} ${stableJson(args)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function showsNoChange(result: ToolResult): boolean {
  return result.content.some((part) => part.type === "text" && NO_CHANGE.test(part.text));
}

export class LoopGuards {
  private noChange: Streak | null = null;
  private failing: Streak | null = null;

  constructor(private readonly options: GuardOptions) {}

  /** Before running a call: a hit means do not run it (the result should say `message`). */
  before(tool: string, args: unknown): GuardHit | null {
    const key = callKey(tool, args);
    const limit = this.options.blockAt - 1;
    for (const [kind, streak] of [
      ["no-change", this.noChange],
      ["repeated-failure", this.failing],
    ] as const) {
      if (streak?.key === key && streak.count >= limit) {
        streak.count += 1;
        return { kind, count: streak.count, message: blockMessage(kind, tool, streak.count) };
      }
    }
    return null;
  }

  /** After a call ran: updates the streaks; a hit is a warning to append to the result. */
  after(tool: string, args: unknown, result: ToolResult, neutral: boolean): GuardHit | null {
    const key = callKey(tool, args);
    this.failing = advance(this.failing, key, tool, result.isError, neutral);
    this.noChange = advance(this.noChange, key, tool, !result.isError && showsNoChange(result), neutral);
    const { warnAt } = this.options;
    if (this.failing?.key === key && this.failing.count >= warnAt) {
      return {
        kind: "repeated-failure",
        count: this.failing.count,
        message: warnMessage("repeated-failure", tool, this.failing.count, this.options),
      };
    }
    if (this.noChange?.key === key && this.noChange.count >= warnAt) {
      return {
        kind: "no-change",
        count: this.noChange.count,
        message: warnMessage("no-change", tool, this.noChange.count, this.options),
      };
    }
    return null;
  }
}

function advance(
  streak: Streak | null,
  key: string,
  tool: string,
  hit: boolean,
  neutral: boolean,
): Streak | null {
  if (hit) return streak?.key === key ? { ...streak, count: streak.count + 1 } : { key, tool, count: 1 };
  if (!neutral || streak?.key === key) return null;
  return streak;
}

function warnMessage(kind: GuardKind, tool: string, count: number, options: GuardOptions): string {
  const what =
    kind === "no-change"
      ? `\`${tool}\` on this same target showed no visible change ${count} times in a row`
      : `this same \`${tool}\` call failed ${count} times in a row`;
  return `loop guard: ${what}. Try something different (another element, another tool, peek, or go back); the same call will be blocked after ${options.blockAt - 1} repetitions.`;
}

function blockMessage(kind: GuardKind, tool: string, count: number): string {
  const what =
    kind === "no-change"
      ? "kept showing no visible change on this target"
      : "kept failing with these arguments";
  return `blocked by the loop guard, not run: \`${tool}\` ${what} (repetition ${count}). Choose a different action.`;
}
