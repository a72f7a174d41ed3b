import { iou } from "../../shared/box.js";
import type { ScreenElement } from "../../sim/types.js";
import type { ListingEntry } from "../../vision/listing.js";
import type { ScreenView } from "../../vision/pipeline.js";
import type { TextLine } from "../../vision/types.js";
import { readableTexts } from "./ocr-screens.js";
import type { EvalCapture } from "./scenarios.js";
import { matchTextLines, normalizeText } from "./text-match.js";

/**
 * Scores a listing against the simulated phone's ground truth. An element counts as found when the
 * listing has an entry of its kind whose box overlaps the truth box with IoU ≥ 0.5 — for text, the union
 * of the text entries that fell on it (OCR may split a label into words). Text accuracy is the character
 * error rate over all truth text (whitespace-insensitive, NFKC), a missed label costing all its
 * characters. Controls (rows, toggles, tabs) are not listing kinds: their text and icons are scored.
 * Rows of the other kinds count by what they stand for: an `app`/`button` row as an icon, its label (and
 * a key's or the status row's) as text read at its `labelBox`; a status-bar glyph as found when a
 * `[status]` row covers it.
 * Text cut by its scroll viewport to a sliver is not expected to be read (a person could not read it
 * either) and is left out of the score (`readableTexts`).
 */
export interface ScreenScore {
  name: string;
  locale: string;
  variant: string;
  textTruths: number;
  textFound: number;
  iconTruths: number;
  iconFound: number;
  /** Character edits and truth characters (for the pooled CER). */
  edits: number;
  chars: number;
  /** Entries that match no truth element (false positives), by kind. */
  extraText: number;
  extraIcons: number;
  ms: number;
  missed: string[];
  /** Multi-word labels read with every character right, and how many of them had the spaces right too. */
  multiWord: number;
  spacedRight: number;
}

export const MIN_IOU = 0.5;

export function scoreScreen(
  capture: EvalCapture,
  view: Pick<ScreenView, "entries" | "timings">,
): ScreenScore {
  const { scenario, elements } = capture;
  const textTruths = readableTexts(elements);
  const iconTruths = elements.filter((e) => e.kind === "icon");
  // Every row that reads text counts for text, boxed where its label was read (an app's name under its
  // icon, a key's glyph, the status bar's time); inferred keys carry no `labelBox` and read nothing. A
  // switch's label is its row's title, which keeps a text row of its own: not counted twice.
  const lines: TextLine[] = view.entries
    .filter((e) => e.kind === "text" || (e.kind !== "switch" && e.label !== "" && e.labelBox))
    .map((e) => ({ text: e.label, box: e.kind === "text" ? e.box : (e.labelBox ?? e.box), conf: e.conf }));
  const text = matchTextLines(textTruths, lines);
  const missed: string[] = [];
  let textFound = 0;
  let edits = 0;
  let chars = 0;
  let multiWord = 0;
  let spacedRight = 0;
  for (const m of text.matches) {
    const n = Array.from(m.truth.label.normalize("NFKC").replace(/\s+/g, "")).length;
    chars += n;
    edits += Math.round(m.cer * n);
    const spaced = normalizeText(m.truth.label, { keepSpaces: true });
    if (m.cer === 0 && m.lines.length === 1 && spaced.includes(" ")) {
      multiWord++;
      if (normalizeText(m.text, { keepSpaces: true }) === spaced) spacedRight++;
    }
    if (m.iou >= MIN_IOU) textFound++;
    else missed.push(`text ${m.truth.id} "${m.truth.label}" (got "${m.text}", IoU ${m.iou.toFixed(2)})`);
  }
  const icons = view.entries.filter((e) => e.kind === "icon" || e.kind === "app" || e.kind === "button");
  const usedIcons = new Set<ListingEntry>();
  let iconFound = 0;
  // Status-bar glyphs are one `[status]` row by design: a glyph under it is found.
  const statusRows = view.entries.filter((e) => e.kind === "status");
  const underStatus = (t: ScreenElement): boolean =>
    statusRows.some((s) => {
      const x = (t.box[0] + t.box[2]) / 2;
      const y = (t.box[1] + t.box[3]) / 2;
      return x >= s.box[0] && x <= s.box[2] && y >= s.box[1] && y <= s.box[3];
    });
  for (const t of iconTruths) {
    if (underStatus(t)) {
      iconFound++;
      continue;
    }
    const best = bestMatch(t, icons);
    if (best && best.iou >= MIN_IOU) {
      iconFound++;
      usedIcons.add(best.entry);
    } else missed.push(`icon ${t.id} (best IoU ${(best?.iou ?? 0).toFixed(2)})`);
  }
  // An icon entry on a control or a label the truth lists under another kind is not an error.
  const anyTruth = (e: ListingEntry): boolean => elements.some((t) => iou(t.box, e.box) >= 0.3);
  return {
    name: scenario.name,
    locale: scenario.locale,
    variant: scenario.variant,
    textTruths: textTruths.length,
    textFound,
    iconTruths: iconTruths.length,
    iconFound,
    edits,
    chars,
    extraText: text.unmatched.length,
    extraIcons: icons.filter((e) => !usedIcons.has(e) && !anyTruth(e)).length,
    ms: view.timings.total,
    missed,
    multiWord,
    spacedRight,
  };
}

function bestMatch(
  t: ScreenElement,
  entries: readonly ListingEntry[],
): { entry: ListingEntry; iou: number } | null {
  let best: { entry: ListingEntry; iou: number } | null = null;
  for (const entry of entries) {
    const v = iou(t.box, entry.box);
    if (!best || v > best.iou) best = { entry, iou: v };
  }
  return best;
}

export interface ScoreTotals {
  screens: number;
  truths: number;
  found: number;
  recall: number;
  textRecall: number;
  iconRecall: number;
  cer: number;
  /** Share of correctly read multi-word labels whose word spaces are right too (1 when there are none). */
  spacing: number;
  medianMs: number;
}

export function totals(scores: readonly ScreenScore[]): ScoreTotals {
  const sum = (f: (s: ScreenScore) => number): number => scores.reduce((a, s) => a + f(s), 0);
  const textT = sum((s) => s.textTruths);
  const iconT = sum((s) => s.iconTruths);
  const textF = sum((s) => s.textFound);
  const iconF = sum((s) => s.iconFound);
  const ms = scores.map((s) => s.ms).sort((a, b) => a - b);
  return {
    screens: scores.length,
    truths: textT + iconT,
    found: textF + iconF,
    recall: textT + iconT ? (textF + iconF) / (textT + iconT) : 1,
    textRecall: textT ? textF / textT : 1,
    iconRecall: iconT ? iconF / iconT : 1,
    cer: sum((s) => s.chars) ? sum((s) => s.edits) / sum((s) => s.chars) : 0,
    spacing: sum((s) => s.multiWord) ? sum((s) => s.spacedRight) / sum((s) => s.multiWord) : 1,
    medianMs: ms[Math.floor(ms.length / 2)] ?? 0,
  };
}

/** A Markdown table: one row per group (all, each locale, each camera variant). */
export function scoreTable(scores: readonly ScreenScore[]): string {
  const groups: [string, ScreenScore[]][] = [["all", [...scores]]];
  for (const key of ["locale", "variant", "name"] as const) {
    const values = [...new Set(scores.map((s) => s[key]))];
    for (const v of values) groups.push([`${key}=${v}`, scores.filter((s) => s[key] === v)]);
  }
  const rows = groups.map(([label, group]) => {
    const t = totals(group);
    const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
    return `| ${label} | ${t.screens} | ${t.found}/${t.truths} | ${pct(t.recall)} | ${pct(t.textRecall)} | ${pct(t.iconRecall)} | ${pct(t.cer)} | ${pct(t.spacing)} | ${t.medianMs.toFixed(0)} |`;
  });
  return [
    "| group | screens | found | recall | text recall | icon recall | CER | spacing | median ms |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
