import { readFileSync } from "node:fs";
import type { Logger } from "../log/logger.js";
import { zoneTime } from "../shared/time-zone.js";
import { writeJsonAtomic } from "../util/atomic-file.js";
import type { Clock } from "../util/clock.js";
import type { AgentConfig } from "./config.js";
import type { BudgetKind } from "./events.js";

/**
 * Budgets that stop sessions: per session (wall time, tokens, cost; turns are per attempt, see the
 * engine) and per calendar day in the configured zone (turns, tokens, cost). The day's usage lives in
 * `<stateDir>/agent/usage.json`, rewritten atomically after every model reply so a restart keeps it.
 */

export interface DayUsage {
  /** `YYYY-MM-DD` in the configured zone. */
  date: string;
  turns: number;
  promptTokens: number;
  completionTokens: number;
  /** Sum of priced turns only (0 when no prices are configured). */
  costUsd: number;
  sessions: number;
}

export interface UsageDelta {
  turns?: number;
  prompt?: number;
  completion?: number;
  costUsd?: number | null;
  sessions?: number;
}

/** `YYYY-MM-DD` of `ms` in `timeZone` (the machine's zone when undefined). */
export function dayKey(ms: number, timeZone: string | undefined): string {
  return zoneTime(ms, timeZone).date;
}

const empty = (date: string): DayUsage => ({
  date,
  turns: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  sessions: 0,
});

export class DayUsageStore {
  private usage: DayUsage | null = null;

  constructor(
    private readonly path: string,
    private readonly clock: Clock,
    private readonly timeZone: string | undefined,
    private readonly log: Logger,
  ) {}

  /** Today's usage (a new day starts from zero). */
  current(): DayUsage {
    const today = dayKey(this.clock.now(), this.timeZone);
    if (!this.usage) this.usage = this.load();
    if (this.usage.date !== today) this.usage = empty(today);
    return { ...this.usage };
  }

  add(delta: UsageDelta): DayUsage {
    const u = this.current();
    const next: DayUsage = {
      date: u.date,
      turns: u.turns + (delta.turns ?? 0),
      promptTokens: u.promptTokens + (delta.prompt ?? 0),
      completionTokens: u.completionTokens + (delta.completion ?? 0),
      costUsd: u.costUsd + (delta.costUsd ?? 0),
      sessions: u.sessions + (delta.sessions ?? 0),
    };
    this.usage = next;
    try {
      writeJsonAtomic(this.path, next);
    } catch (err) {
      // Losing the persisted count must not stop a session; the in-memory count still applies.
      this.log.warn("cannot persist the daily agent usage", { path: this.path, err });
    }
    return { ...next };
  }

  private load(): DayUsage {
    const today = dayKey(this.clock.now(), this.timeZone);
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return empty(today);
    }
    try {
      const raw = JSON.parse(text) as Partial<DayUsage>;
      const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
      if (typeof raw.date !== "string") return empty(today);
      return {
        date: raw.date,
        turns: num(raw.turns),
        promptTokens: num(raw.promptTokens),
        completionTokens: num(raw.completionTokens),
        costUsd: num(raw.costUsd),
        sessions: num(raw.sessions),
      };
    } catch (err) {
      this.log.warn("daily agent usage file is unreadable; starting from zero", { path: this.path, err });
      return empty(today);
    }
  }
}

export interface BudgetHit {
  budget: BudgetKind;
  scope: "session" | "day";
  used: number;
  limit: number;
}

export interface SessionUsage {
  elapsedMs: number;
  tokens: number;
  /** Null when no prices are configured. */
  costUsd: number | null;
}

/** The first exhausted budget, or null. Checked before every model request. */
export function exhaustedBudget(
  budgets: AgentConfig["budgets"],
  session: SessionUsage,
  day: DayUsage,
): BudgetHit | null {
  const s = budgets.session;
  const d = budgets.day;
  const checks: Array<[BudgetKind, "session" | "day", number | null, number | null]> = [
    ["wallTime", "session", session.elapsedMs / 1000, s.maxWallSeconds],
    ["tokens", "session", session.tokens, s.maxTokens],
    ["cost", "session", session.costUsd, s.maxCostUsd],
    ["turns", "day", day.turns, d.maxTurns],
    ["tokens", "day", day.promptTokens + day.completionTokens, d.maxTokens],
    ["cost", "day", session.costUsd === null ? null : day.costUsd, d.maxCostUsd],
  ];
  for (const [budget, scope, used, limit] of checks) {
    if (used !== null && limit !== null && used >= limit) return { budget, scope, used, limit };
  }
  return null;
}
