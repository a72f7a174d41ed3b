import type { BoxLike } from "../../shared/box.js";
import type { TextLine } from "../../vision/types.js";
import { matchTextLines, normalizeText, type TextMatch } from "../eval/text-match.js";
import type { RealScreen } from "./labels.js";

/**
 * Scores one listing against one hand-labelled real screen (`RealScreen`, `labels.ts`). The rules, also
 * in bench/README.md:
 *
 * - **Text.** A truth line is *found* when a row reads it: rows of any kind with a non-empty label are
 *   matched to truth lines by `matchTextLines` (`eval/text-match.ts`: a row belongs to the truth line it
 *   overlaps most, overlap of the smaller box ≥ 0.5; the rows on one line are joined in reading order).
 *   Rows are matched kind by kind, and when rows of several kinds fall on one line (a `text` row and an
 *   `app` row naming the same icon) the kind that reads it best counts, so a name listed twice is not
 *   read as the name doubled. A row's text is placed at its `labelBox` when it has one (a key's glyph, not
 *   its whole cap, so `3` and the `DEF` under it on one key are two lines). *Strict*: the joined text equals the truth after `normalizeText` (NFKC,
 *   no whitespace). *CER*: character edits / truth characters over found lines only. Per language: the
 *   screen's `lang` when it is `en` or `zh`; on `mixed`/`other` screens a line with a CJK character is
 *   `zh`, any other `en`.
 * - **Elements.** An element is *found* when some row's box centre lies inside the element's box: a tap
 *   at the row's centre lands on it. *Right*: for a `key`, found by a row of kind `key` whose label equals
 *   the key's `char` (letters case-insensitive; `" "` and `space` are the same); for a `switch`, found by a
 *   row of kind `switch` whose `state` equals the truth's; for every other kind right = found. *Own box*:
 *   found by a row that spans no second target (below). *Named*: found by a row whose label equals the
 *   element's label (normalised, case-insensitive). Groups: all elements, `iconOnly`, each kind.
 * - **Rows that span two targets.** A row spans targets when its box contains the centres of two or more
 *   elements, counting only the innermost of nested elements (a switch inside its table row is one target,
 *   the switch).
 * - **Spurious rows.** Rows whose centre lies in no element box, no truth text box and not in the status
 *   bar. Such a row inside an area the label marks `unlabelled` is counted apart (`unlabelledArea`).
 * - **Status bar.** Rows whose centre is in the status bar: of kind `status`, and of any other kind
 *   (glyphs listed as icons); neither is spurious.
 *
 * Row kinds are plain strings, so kinds the listing learns later are scored without a change here.
 */

/** A listing row as scored here (a `ListingEntry` fits). */
export interface ScoredRow {
  kind: string;
  label: string;
  box: BoxLike;
  /** `switch` rows: "on" / "off". */
  state?: string | undefined;
  /** Where the label was read when that is not `box` (a key's glyph on its cap, an app's name). */
  labelBox?: BoxLike | undefined;
}

export interface TextTally {
  truths: number;
  /** Lines with at least one row on them. */
  found: number;
  /** Lines read exactly (normalised). */
  exact: number;
  /** Edits and truth characters over found lines. */
  edits: number;
  chars: number;
}

export interface ElementTally {
  truths: number;
  found: number;
  right: number;
  own: number;
  named: number;
}

export interface RowTally {
  rows: number;
  spanning: number;
  spurious: number;
  statusRows: number;
  /** Rows of another kind whose centre is in the status bar. */
  statusOther: number;
  /** Rows on no labelled target inside an area the label leaves unlabelled (not spurious). */
  unlabelledArea: number;
}

export interface RealScreenScore {
  image: string;
  lang: string;
  screen: string;
  /** Keys: `all`, `en`, `zh`. */
  text: Record<string, TextTally>;
  /** Keys: `all`, `iconOnly`, `kind=<kind>`. */
  elements: Record<string, ElementTally>;
  rows: RowTally;
  /** Human-readable misses, for finding what to fix. */
  misses: string[];
}

type Box = BoxLike;
const centre = (b: Box): [number, number] => [
  ((b[0] ?? 0) + (b[2] ?? 0)) / 2,
  ((b[1] ?? 0) + (b[3] ?? 0)) / 2,
];
const inside = (p: [number, number], b: Box): boolean =>
  p[0] >= (b[0] ?? 0) && p[0] <= (b[2] ?? 0) && p[1] >= (b[1] ?? 0) && p[1] <= (b[3] ?? 0);
const contains = (outer: Box, inner: Box): boolean =>
  (outer[0] ?? 0) <= (inner[0] ?? 0) &&
  (outer[1] ?? 0) <= (inner[1] ?? 0) &&
  (outer[2] ?? 0) >= (inner[2] ?? 0) &&
  (outer[3] ?? 0) >= (inner[3] ?? 0);

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/** The language a truth line is counted under (see the module comment). */
export function lineLang(screenLang: string, text: string): "en" | "zh" {
  if (screenLang === "en" || screenLang === "zh") return screenLang;
  return CJK.test(text) ? "zh" : "en";
}

/** Compare names loosely: NFKC, no whitespace, lower case. */
const loose = (s: string): string => normalizeText(s).toLowerCase();

/** Does a key row's label type the truth key's `char`? */
export function keyMatches(char: string, label: string): boolean {
  const c = char === " " ? "space" : char;
  const l = label === " " ? "space" : label;
  return c === l || (c.trim() !== "" && loose(c) === loose(l));
}

const emptyText = (): TextTally => ({ truths: 0, found: 0, exact: 0, edits: 0, chars: 0 });
const emptyElements = (): ElementTally => ({ truths: 0, found: 0, right: 0, own: 0, named: 0 });

/** The tally under `key`, created empty on first use. */
function tally<T>(into: Record<string, T>, key: string, empty: () => T): T {
  const t = into[key] ?? empty();
  into[key] = t;
  return t;
}

type Truth = RealScreen["text"][number] & { label: string };

/** Per truth line, the best match over the row kinds (lowest CER among kinds that put a row on it). */
function bestTextMatches(lines: RealScreen["text"], rows: readonly ScoredRow[]): TextMatch<Truth>[] {
  const truths: Truth[] = lines.map((t) => ({ ...t, label: t.text }));
  const labelled = rows.filter((r) => r.label.trim() !== "");
  const kinds = [...new Set(labelled.map((r) => r.kind))];
  const perKind = kinds.map((k) =>
    matchTextLines(
      truths,
      labelled
        .filter((r) => r.kind === k)
        .map(
          (r): TextLine => ({ text: r.label, box: [...(r.labelBox ?? r.box)] as TextLine["box"], conf: 1 }),
        ),
    ),
  );
  return truths.map((truth, i) => {
    let best: TextMatch<Truth> | undefined;
    for (const result of perKind) {
      const m = result.matches[i];
      if (m && m.lines.length > 0 && (!best || m.cer < best.cer)) best = m;
    }
    return best ?? { truth, lines: [], text: "", cer: 1, iou: 0 };
  });
}

/** The elements a row's box holds the centres of, keeping only the innermost of nested ones. */
function targetsUnder(row: ScoredRow, elements: RealScreen["elements"]): number[] {
  const under = elements.flatMap((e, i) => (inside(centre(e.box), row.box) ? [i] : []));
  return under.filter((i) => {
    const outer = elements[i];
    return !under.some((j) => {
      const inner = elements[j];
      return j !== i && outer !== undefined && inner !== undefined && contains(outer.box, inner.box);
    });
  });
}

/** Score one screen's listing rows against its label. */
export function scoreRealScreen(label: RealScreen, rows: readonly ScoredRow[]): RealScreenScore {
  const misses: string[] = [];
  const text: Record<string, TextTally> = { all: emptyText(), en: emptyText(), zh: emptyText() };
  for (const m of bestTextMatches(label.text, rows)) {
    const n = Array.from(normalizeText(m.truth.text)).length;
    const found = m.lines.length > 0;
    const exact = found && m.cer === 0;
    for (const key of ["all", lineLang(label.lang, m.truth.text)]) {
      const t = tally(text, key, emptyText);
      t.truths++;
      if (found) {
        t.found++;
        t.edits += Math.round(m.cer * n);
        t.chars += n;
      }
      if (exact) t.exact++;
    }
    if (!found) misses.push(`text "${m.truth.text}": no row`);
    else if (!exact) misses.push(`text "${m.truth.text}": read "${m.text}"`);
  }

  const spans = rows.map((r) => targetsUnder(r, label.elements).length >= 2);
  const elements: Record<string, ElementTally> = { all: emptyElements(), iconOnly: emptyElements() };
  label.elements.forEach((e, i) => {
    const onIt = rows.flatMap((r, k) => (inside(centre(r.box), e.box) ? [{ r, k }] : []));
    const found = onIt.length > 0;
    let right = found;
    if (e.kind === "key")
      right = onIt.some(({ r }) => r.kind === "key" && e.char !== undefined && keyMatches(e.char, r.label));
    if (e.kind === "switch") right = onIt.some(({ r }) => r.kind === "switch" && r.state === e.state);
    const own = onIt.some(({ k }) => !spans[k]);
    const named = e.label.trim() !== "" && onIt.some(({ r }) => loose(r.label) === loose(e.label));
    const groups = ["all", `kind=${e.kind}`, ...(e.iconOnly ? ["iconOnly"] : [])];
    for (const key of groups) {
      const t = tally(elements, key, emptyElements);
      t.truths++;
      if (found) t.found++;
      if (right) t.right++;
      if (own) t.own++;
      if (named) t.named++;
    }
    const what = `${e.kind} #${i} "${e.label}"${e.char !== undefined ? ` char ${JSON.stringify(e.char)}` : ""}${e.state ? ` ${e.state}` : ""}`;
    if (!found) misses.push(`${what}: no row`);
    else if (!right)
      misses.push(
        `${what}: rows ${onIt.map(({ r }) => `[${r.kind}] "${r.label}"${r.state ? ` ${r.state}` : ""}`).join(", ")}`,
      );
  });

  const status = label.statusBar;
  const rowTally: RowTally = {
    rows: rows.length,
    spanning: 0,
    spurious: 0,
    statusRows: 0,
    statusOther: 0,
    unlabelledArea: 0,
  };
  rows.forEach((r, k) => {
    const c = centre(r.box);
    if (spans[k]) {
      rowTally.spanning++;
      misses.push(`row [${r.kind}] "${r.label}" spans ${targetsUnder(r, label.elements).length} targets`);
    }
    if (status && inside(c, status)) {
      if (r.kind === "status") rowTally.statusRows++;
      else rowTally.statusOther++;
      return;
    }
    if (!label.elements.some((e) => inside(c, e.box)) && !label.text.some((t) => inside(c, t.box))) {
      if (label.unlabelled.some((a) => inside(c, a.box))) {
        rowTally.unlabelledArea++;
        misses.push(`row [${r.kind}] "${r.label}" is in an unlabelled area`);
        return;
      }
      rowTally.spurious++;
      misses.push(`row [${r.kind}] "${r.label}" is spurious`);
    }
  });
  return {
    image: label.image,
    lang: label.lang,
    screen: label.screen,
    text,
    elements,
    rows: rowTally,
    misses,
  };
}
