import type { ChatMessage } from "../../agent/messages.js";

/** One listing row as the model reads it: `7 [switch] "Wi-Fi" on [0.81,0.30,0.95,0.34] 0.93`. */
export interface Row {
  id: number;
  kind: string;
  label: string;
  /** `on`/`off` for rows that carry a state (switches), else null. */
  state: string | null;
  box: [number, number, number, number];
}

const ROW =
  /^(\d+) \[(\w+)\] "((?:[^"\\]|\\.)*)"(?: (on|off))?(?: disabled)? \[([\d.]+),([\d.]+),([\d.]+),([\d.]+)\]/;

/** The rows of a listing text; other lines are skipped. */
export function parseRows(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split("\n")) {
    const m = ROW.exec(line.trim());
    if (!m) continue;
    rows.push({
      id: Number(m[1]),
      kind: m[2] ?? "",
      label: (m[3] ?? "").replace(/\\(.)/g, "$1"),
      state: m[4] ?? null,
      box: [Number(m[5]), Number(m[6]), Number(m[7]), Number(m[8])],
    });
  }
  return rows;
}

function texts(message: ChatMessage): string[] {
  if (typeof message.content === "string") return [message.content];
  if (Array.isArray(message.content)) return message.content.map((p) => ("text" in p ? String(p.text) : ""));
  return [];
}

/** The rows of the newest listing the model was sent (tool results and user messages), or []. */
export function newestRows(messages: readonly ChatMessage[]): Row[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m || m.role === "assistant" || m.role === "system") continue;
    for (const t of texts(m).reverse()) {
      const rows = parseRows(t);
      if (rows.length > 0) return rows;
    }
  }
  return [];
}

/** The text of the newest tool result (what the last action answered), or "". */
export function lastToolResult(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "tool") return m.content;
  }
  return "";
}

/** The first row whose label equals `label` (case-insensitive), optionally of one kind. */
export function findRow(rows: readonly Row[], label: string | RegExp, kind?: string): Row | undefined {
  const hit = (r: Row) =>
    typeof label === "string" ? r.label.toLowerCase() === label.toLowerCase() : label.test(r.label);
  return rows.find((r) => hit(r) && (kind === undefined || r.kind === kind));
}
