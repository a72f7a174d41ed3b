import type { ElementTally, RealScreenScore, RowTally, TextTally } from "./evaluate.js";

/**
 * Sums `scoreRealScreen` results over a set of screens and prints them: a JSON summary (for tools and
 * for comparing runs) and Markdown tables (for bench/README.md), with the goals beside them.
 */

export interface RealSummary {
  screens: number;
  text: Record<string, TextTally & { recall: number; strict: number; cer: number }>;
  elements: Record<string, ElementTally & { recall: number; rightRate: number }>;
  rows: RowTally & { spanningRate: number; spuriousRate: number };
}

const rate = (a: number, b: number): number => (b > 0 ? a / b : Number.NaN);

function add<T extends object>(into: Record<string, T>, from: Record<string, T>, empty: () => T): void {
  for (const [key, tally] of Object.entries(from)) {
    const t = into[key] ?? empty();
    into[key] = t;
    const sum = t as Record<string, number>;
    for (const [field, v] of Object.entries(tally as Record<string, number>))
      sum[field] = (sum[field] ?? 0) + v;
  }
}

export function summariseReal(scores: readonly RealScreenScore[]): RealSummary {
  const text: Record<string, TextTally> = {};
  const elements: Record<string, ElementTally> = {};
  const rows: RowTally = {
    rows: 0,
    spanning: 0,
    spurious: 0,
    statusRows: 0,
    statusOther: 0,
    unlabelledArea: 0,
  };
  for (const s of scores) {
    add(text, s.text, () => ({ truths: 0, found: 0, exact: 0, edits: 0, chars: 0 }));
    add(elements, s.elements, () => ({ truths: 0, found: 0, right: 0, own: 0, named: 0 }));
    for (const k of Object.keys(rows) as (keyof RowTally)[]) rows[k] += s.rows[k];
  }
  return {
    screens: scores.length,
    text: Object.fromEntries(
      Object.entries(text).map(([k, t]) => [
        k,
        {
          ...t,
          recall: rate(t.found, t.truths),
          strict: rate(t.exact, t.truths),
          cer: rate(t.edits, t.chars),
        },
      ]),
    ),
    elements: Object.fromEntries(
      Object.entries(elements).map(([k, t]) => [
        k,
        { ...t, recall: rate(t.found, t.truths), rightRate: rate(t.right, t.truths) },
      ]),
    ),
    rows: {
      ...rows,
      spanningRate: rate(rows.spanning, rows.rows),
      spuriousRate: rate(rows.spurious, rows.rows),
    },
  };
}

const pct = (x: number): string => (Number.isNaN(x) ? "—" : `${(x * 100).toFixed(1)}%`);
const frac = (a: number, b: number): string => `${a}/${b} (${pct(rate(a, b))})`;

/** Goals of issue 15, shown beside the measured numbers. */
const ELEMENT_GOALS: Record<string, string> = {
  all: "found ≥ 97%",
  iconOnly: "found ≥ 90%",
  "kind=key": "right char ≥ 95%",
  "kind=switch": "right state 100%",
};

/** The per-kind Markdown tables: text by language, elements by group, then the row checks. */
export function realTables(s: RealSummary): string {
  const textRows = ["all", "en", "zh"]
    .filter((k) => s.text[k] !== undefined)
    .map((k) => {
      const t = s.text[k];
      if (!t) return "";
      const goal = k === "all" ? "strict ≥ 97%, CER ≤ 2%" : "strict ≥ 95%";
      return `| ${k} | ${t.truths} | ${pct(t.recall)} | **${pct(t.strict)}** | ${pct(t.cer)} | ${goal} |`;
    });
  const order = (k: string): string => (k === "all" ? "0" : k === "iconOnly" ? "1" : `2${k}`);
  const elementRows = Object.keys(s.elements)
    .sort((a, b) => order(a).localeCompare(order(b)))
    .map((k) => {
      const e = s.elements[k];
      if (!e) return "";
      const right = k === "kind=key" || k === "kind=switch" ? `**${frac(e.right, e.truths)}**` : "—";
      return `| ${k} | ${e.truths} | ${frac(e.found, e.truths)} | ${right} | ${frac(e.own, e.truths)} | ${frac(e.named, e.truths)} | ${ELEMENT_GOALS[k] ?? ""} |`;
    });
  const r = s.rows;
  return [
    `${s.screens} screens.`,
    "",
    "| text | lines | found | strict | CER (found lines) | goal |",
    "|---|---|---|---|---|---|",
    ...textRows,
    "",
    "| elements | n | found (row centre on it) | right (key char / switch state) | own box | named | goal |",
    "|---|---|---|---|---|---|---|",
    ...elementRows,
    "",
    "| rows | n | spanning ≥ 2 targets | spurious | `status` rows | other rows in the status bar | in unlabelled areas (not scored) |",
    "|---|---|---|---|---|---|---|",
    `| all | ${r.rows} | ${frac(r.spanning, r.rows)} | ${frac(r.spurious, r.rows)} (goal ≤ 1%) | ${r.statusRows} | ${r.statusOther} | ${r.unlabelledArea} |`,
  ].join("\n");
}
