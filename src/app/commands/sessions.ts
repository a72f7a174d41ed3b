import { join } from "node:path";
import { SessionStore, type SessionTrace, type TraceEvent } from "../../agent/session-store.js";
import { PiclawError } from "../../util/errors.js";

export interface SessionsCommandDeps {
  stateDir: string;
  write: (text: string) => void;
}

const DEFAULT_LIST = 20;

/** `2026-11-23 18:00` (UTC; the ISO form stays in summary.json). */
const shortTime = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "-");
const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/**
 * `piclaw sessions list [N]` (newest first: id, start, status, turns, recap) and
 * `piclaw sessions show ID` (the summary, then each attempt's notes and tool calls in order, with the
 * image files). Reads the traces under `<stateDir>/sessions/`.
 */
export async function sessionsCommand(
  sub: string | undefined,
  arg: string | undefined,
  deps: SessionsCommandDeps,
): Promise<number> {
  const store = new SessionStore(deps.stateDir);
  switch (sub) {
    case "list": {
      const limit = arg === undefined ? DEFAULT_LIST : Number(arg);
      if (!Number.isInteger(limit) || limit < 1)
        throw new PiclawError("USAGE", "usage: piclaw sessions list [N] (N a positive integer)");
      const sessions = await store.list(limit);
      if (sessions.length === 0) {
        deps.write("no sessions yet\n");
        return 0;
      }
      const idWidth = Math.max(2, ...sessions.map((s) => s.sessionId.length));
      deps.write(
        `${"ID".padEnd(idWidth)}  ${"START (UTC)".padEnd(16)}  ${"STATUS".padEnd(7)}  TURNS  RECAP\n`,
      );
      for (const s of sessions) {
        deps.write(
          `${s.sessionId.padEnd(idWidth)}  ${shortTime(s.startedAt).padEnd(16)}  ${s.status.padEnd(7)}  ${String(s.turns).padStart(5)}  ${oneLine(s.recap, 80)}\n`,
        );
      }
      return 0;
    }
    case "show": {
      if (!arg) throw new PiclawError("USAGE", "usage: piclaw sessions show ID");
      const trace = await store.show(arg);
      if (!trace) throw new PiclawError("SESSION_NOT_FOUND", `no session ${arg} (see: piclaw sessions list)`);
      deps.write(formatTrace(trace));
      return 0;
    }
    default:
      throw new PiclawError("USAGE", `unknown sessions command: ${sub ?? "(none)"} (list, show ID)`);
  }
}

function formatArgs(args: unknown): string {
  if (args === undefined || args === null) return "";
  const text = JSON.stringify(args);
  return text === "{}" ? "" : ` ${oneLine(text, 100)}`;
}

function imagePaths(event: TraceEvent, dir: string): string[] {
  const result = event.result as { content?: Array<{ type: string; path?: string }> } | undefined;
  return (result?.content ?? []).flatMap((p) => (p.type === "image" && p.path ? [join(dir, p.path)] : []));
}

/** One line per event worth reading, in order; image files at the end of their tool's line. */
function eventLine(e: TraceEvent, dir: string): string | null {
  const turn = typeof e.turn === "number" ? `t${e.turn}`.padEnd(5) : "";
  switch (e.type) {
    case "attempt_start":
      return `attempt ${e.attempt}`;
    case "note":
      return `  ${turn}note: ${String(e.summary)}`;
    case "tool_end": {
      if (e.name === "note") return null; // the note event already says it
      const outcome = e.isError ? "error" : typeof e.verdict === "string" ? `screen: ${e.verdict}` : "ok";
      const ms = typeof e.durationMs === "number" ? ` ${(e.durationMs / 1000).toFixed(1)} s` : "";
      const images = imagePaths(e, dir);
      return `  ${turn}${String(e.name)}${formatArgs(e.args)} → ${outcome}${ms}${images.length ? `  ${images.join(" ")}` : ""}`;
    }
    case "bad_turn":
      return `  ${turn}rejected: ${String(e.reason)}`;
    case "guard":
      return `  ${turn}loop guard ${String(e.action)}: ${String(e.message)}`;
    case "fold":
      return `  ${turn}context folded`;
    case "steer":
      return `  steer: ${String(e.text)}`;
    case "budget_stop":
      return `  budget stop: ${String(e.budget)} (${String(e.scope)}) ${String(e.used)}/${String(e.limit)}`;
    case "abort":
      return `  aborted: ${String(e.reason)}`;
    case "attempt_end":
      return `  attempt ${e.attempt} ended ${String(e.status)} after ${String(e.turns)} turns: ${String(e.recap)}`;
    default:
      return null;
  }
}

export function formatTrace(trace: SessionTrace): string {
  const s = trace.summary;
  const cost = s.costUsd === null ? "" : `, $${s.costUsd.toFixed(4)}`;
  const head = [
    `session ${s.sessionId}: ${s.status}`,
    `recap:    ${s.recap || "-"}`,
    `woken by: ${s.triggers.length ? s.triggers.join("; ") : "-"}`,
    `model:    ${s.provider ?? "-"} / ${s.model ?? "-"}`,
    `time:     ${s.startedAt} → ${s.endedAt ?? "(running)"}${s.durationMs === null ? "" : ` (${(s.durationMs / 1000).toFixed(1)} s)`}`,
    `attempts: ${s.attempts}, turns: ${s.turns}, tool calls: ${s.toolCalls}`,
    `tokens:   ${s.tokens.prompt} prompt + ${s.tokens.completion} completion${cost}`,
    `folder:   ${trace.dir}`,
    "",
  ];
  const body = trace.events.flatMap((e) => {
    const line = eventLine(e, trace.dir);
    return line === null ? [] : [line];
  });
  return `${[...head, ...body].join("\n")}\n`;
}
