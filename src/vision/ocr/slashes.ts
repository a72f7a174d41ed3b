import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import {
  type Component,
  descendsFromTop,
  type Labelled,
  type LineMetrics,
  labelLine,
  lineMetrics,
  runs,
  strokeShape,
} from "./strokes.js";

/**
 * Slashes and backslashes in code from their ink. Code shown on a phone (a script editor such as
 * Scriptable, a JSON file previewed in a share sheet) is full of `\n`, `\"` and JSON's escaped slash
 * `\/`, which the recogniser, trained on prose, reads as letters: `\/` is drawn as a V and read `V`,
 * `\/\/` read `W` or `VV`, a backslash read `I`, `l` or `(` (`\nlet` → `Inlet`).
 *
 * The ink tells them apart. In SF Pro, SF Mono and Menlo (Menlo is derived from Bitstream Vera Sans
 * Mono / DejaVu Sans Mono) the slash, the backslash and the brackets run from the ascender down
 * *below the baseline*, while V, W, I and l stand on it; and the backslash is the one single-stroke
 * glyph whose top lies left of its bottom. So a glyph read as V or W whose ink descends below the
 * baseline is a run of slant strokes, each written `\` or `/` by the way it leans, and a glyph read as
 * a bar or a bracket whose ink is one stroke, descending, leaning top-left to bottom-right, is `\`.
 * Measured on the real dev set's share-sheet JSON (SF Pro, 3× at 838 px wide): letters end within a
 * pixel of the baseline, slashes 5 px (~0.23 of the baseline-to-top height) below it, ideographs 2–3 px.
 *
 * On a camera frame (~1.4 px per point, lens blur) the same rules hold when measured in the glyphs' own
 * terms (`strokes.ts`): the descent from the Latin baseline (x-height letters), not the ideographs'; a
 * slash's lean (≈ 0.23 px per row) and a bracket's bow (≈ 0.12 of its height, 1–2 px there) from the
 * grey-weighted centre line; the number of strokes from the ink, since blur joins `\/\/` into one
 * shape the recogniser reads `W`, `VW` or `WV`. Blur also loses glyphs outright: a backslash before
 * `n` read as nothing or as `i`, `()` read as `0`.
 */

/** Where a character was read: its index in the line's text and its x centre in image pixels. */
export interface ReadGlyph {
  index: number;
  x: number;
}

/** Characters a run of slant strokes is read as (`\/` as V, `\/\/` as W or VV). */
const V_LIKE = /^[VWvw]$/u;
/**
 * Characters a lone backslash is read as: bars, brackets and, on blurred camera ink, an `i` (not `1` or
 * `!`, nor a slash read as one, which sits beside letters it could be mistaken for).
 */
const BAR_LIKE = /^[Iil|()[\]]$/u;
/**
 * The letter after an escape's backslash that the recogniser reads with the backslash left out
 * (`\n\/\/` read `n\/\/`), and the characters a backslash is read as or may itself be: before
 * them nothing is put back.
 */
const ESCAPED = "n";
const STROKE_LIKE = /^[\\/|Iil1!tfj()[\]{}VvWw]$/u;
/** `()` read as one round glyph after a call's name (`layoutVertically0`). */
const ROUND = "0";

/** Characters whose position `slashesFromInk` needs: the V-like, bar-like, round ones and `n`. */
export function slashCandidate(c: string): boolean {
  return V_LIKE.test(c) || BAR_LIKE.test(c) || c === ESCAPED || c === ROUND;
}

const LATIN = /^[A-Za-z]$/u;
const UPPER = /\p{Lu}/u;

/**
 * Whether the character at `i` is worth measuring (each measure labels the line's ink): a V or W not
 * starting a word (`Widget`, `WPS`, `Wi-Fi` do; `https:VV`, `comVzky`, `W 队名`, `W队名` are suspects) or
 * after an upper-case letter; a bracket or bar anywhere; an `I`, `i` or `l` before one of an escape's
 * letters (not after a letter: `\n` read `In`, `in`) or before a quote (`\"` read `l"`, `l "`); an
 * `n` in a line that holds a slash or backslash (code); a `0` after a Latin letter (`name()` read `name0`).
 */
function suspect(text: string, i: number): boolean {
  const c = text[i] ?? "";
  const prev = text[i - 1] ?? "";
  const next = text[i + 1] ?? "";
  if (V_LIKE.test(c)) {
    // The whole run of V-like characters (`VV`) is judged by what stands around it.
    let a = i;
    let b = i + 1;
    while (V_LIKE.test(text[a - 1] ?? "")) a--;
    while (V_LIKE.test(text[b] ?? "")) b++;
    const before = text[a - 1] ?? "";
    return (
      b - a > 1 || (before !== "" && before !== " " && !UPPER.test(before)) || !LATIN.test(text[b] ?? "")
    );
  }
  if (c === "I" || c === "l" || c === "i") {
    // An `i` is prose's commonest word start (`in`, `it`): measured only in a line of code.
    if (c === "i" && !codeLike(text)) return false;
    const quoted = next === '"' || (next === " " && text[i + 2] === '"');
    return quoted || (!/\p{L}/u.test(prev) && /^[ntru"'\\/]$/u.test(next));
  }
  if (c === ESCAPED) return prev !== "\\" && codeLike(text);
  if (c === ROUND) return LATIN.test(prev);
  return BAR_LIKE.test(c);
}

/** Whether `text` holds a slash, a backslash or a run of V-like characters that may be slashes (code). */
function codeLike(text: string): boolean {
  if (/[\\/]/u.test(text)) return true;
  for (let i = 0; i < text.length; i++) if (V_LIKE.test(text[i] ?? "") && suspect(text, i)) return true;
  return false;
}

/** A leaning stroke's least travel per row (SF Pro's slash: ≈ 0.23; an upright bar or bracket: < 0.04). */
export const LEAN_MIN = 0.12;
/** A bracket's least bow, fraction of its height (SF Pro's parentheses: ≈ 0.11–0.13; a slash: < 0.03). */
export const BOW_MIN = 0.06;

/** `\\` or `/` when `c` is one straight leaning stroke, measured to a fraction of a pixel (`strokes.ts`). */
function lean(l: Labelled, c: Component): string | undefined {
  const s = strokeShape(l, c);
  if (!s || Math.abs(s.bow) >= BOW_MIN || Math.abs(s.lean) < LEAN_MIN) return undefined;
  return s.lean > 0 ? "\\" : "/";
}

/** `(` or `)` when `c` is one upright stroke bowed like a bracket: its middle left or right of its ends. */
function bow(l: Labelled, c: Component): string | undefined {
  const s = strokeShape(l, c);
  if (!s || Math.abs(s.lean) >= LEAN_MIN || Math.abs(s.bow) < BOW_MIN) return undefined;
  return s.bow < 0 ? "(" : ")";
}

/**
 * Slant strokes in the components `comps` (a run read V or W): the most runs of ink on the rows 35–65%
 * down each, where a `\\/` pair's strokes stand apart (below they meet at the vertex, above the next
 * pair's), seen on two rows at least; undefined when the total is odd.
 */
function strokeCount(l: Labelled, comps: readonly Component[]): number | undefined {
  let n = 0;
  for (const c of comps) {
    const h = c.y1 - c.y0 + 1;
    const counts = [0.35, 0.41, 0.47, 0.53, 0.59, 0.65].map(
      (f) => runs(l, c, Math.round(c.y0 + f * (h - 1))).length,
    );
    const most = Math.max(...counts);
    if (counts.filter((k) => k === most).length < 2) return undefined;
    n += most;
  }
  return n > 0 && n % 2 === 0 ? n : undefined;
}

/**
 * Widest a component of `n` slant strokes may be, as a fraction of its height per stroke: a slash's ink
 * is ≈ 0.31–0.33 of its height wide in SF Pro (measured on 3× screenshots and camera frames alike);
 * wider ink is glyphs run together (an underline joining a link's letters).
 */
const STROKE_WIDTH_MAX = 0.5;

/** Widest blank between the brackets of `()`, as a fraction of the line's body (baseline to top). */
const PAIR_GAP_MAX = 0.6;

/** Result of `slashesFromInk`: the new text and where each old index went. */
export interface SlashFix {
  text: string;
  /** The index in `text` of the character at `i` of the input (and of the end for `i` = its length). */
  moved: (i: number) => number;
}

/**
 * `text` with the slashes, backslashes and brackets its ink shows that the recogniser read as letters
 * or left out (`glyphs` says where each candidate character was read, `slashCandidate`; `line` is the
 * line's ink box in `image`):
 * - a run read V or W whose ink descends below the baseline becomes the strokes the ink holds (`\/`
 *   per pair: `https:WV` over `\/\/` is `https:\/\/`);
 * - a character read as a bar or bracket whose ink is one leaning, descending stroke becomes `\` or `/`;
 * - `(` with the ink of `()` gets its `)`, and a `0` over the ink of `()` becomes `()`;
 * - an `n` whose ink has a backslash just before it that no character was read for gets it back.
 * Unchanged where the ink is unclear.
 */
export function slashesFromInk(
  text: string,
  glyphs: readonly ReadGlyph[],
  image: RgbImage,
  line: PixelBox,
): SlashFix {
  const same: SlashFix = { text, moved: (i) => i };
  const wanted = glyphs.filter((g) => slashCandidate(text[g.index] ?? "") && suspect(text, g.index));
  if (wanted.length === 0) return same;
  // A backslash's top and a slash's foot lean out of the ink box the line was cut to: pad sideways too.
  const pad = 0.2 * (line.y1 - line.y0);
  const inner = { ...line, x0: line.x0 - pad, y0: line.y0 - pad, x1: line.x1 + pad, y1: line.y1 + pad };
  const l = labelLine(image, { ...inner, x0: line.x0 - 2 * pad, x1: line.x1 + 2 * pad }, inner);
  if (!l) return same;
  const m = lineMetrics(l);
  if (!m) return same;
  const edits = findEdits(text, wanted, l, m);
  if (edits.length === 0) return same;
  let out = "";
  let from = 0;
  for (const e of edits) {
    out += text.slice(from, e.start) + e.to;
    from = e.end;
  }
  out += text.slice(from);
  return {
    text: out,
    moved: (i) => {
      let shift = 0;
      for (const e of edits) if (e.end <= i) shift += e.to.length - (e.end - e.start);
      return i + shift;
    },
  };
}

interface Edit {
  /** [start, end) of the input replaced by `to`. */
  start: number;
  end: number;
  to: string;
}

function findEdits(text: string, wanted: readonly ReadGlyph[], l: Labelled, m: LineMetrics): Edit[] {
  const body = m.baseline - m.top;
  const at = (x: number): Component | undefined => {
    const cx = x - l.ox;
    let best: Component | undefined;
    let dist = 0.4 * body;
    for (const c of l.comps) {
      const d = cx < c.x0 ? c.x0 - cx : cx > c.x1 ? cx - c.x1 : 0;
      if (d < dist || (d === 0 && best && c.y1 - c.y0 > best.y1 - best.y0)) {
        dist = d;
        best = c;
      }
    }
    return best;
  };
  // Glyph-sized components left to right (dots, commas and the next line's ascenders left out).
  const byX = l.comps.filter((c) => c.y1 - c.y0 >= 0.5 * body).sort((p, q) => p.x0 - q.x0);
  const bracket = (c: Component | undefined) => (c && descendsFromTop(c, m) ? bow(l, c) : undefined);
  /**
   * Whether `c` and the glyph beside it are `(` and `)` with nothing between: an empty pair's brackets
   * stand ~0.15 em apart in SF Pro (0.2–0.35 of the body on screenshots and camera frames), `(✓)`'s or
   * `(61%)`'s a glyph or more.
   */
  const pairOf = (c: Component): boolean => {
    const shape = bracket(c);
    const other =
      shape === "("
        ? byX.find((x) => x.x0 > c.x1)
        : shape === ")"
          ? byX.filter((x) => x.x1 < c.x0).pop()
          : undefined;
    if (!other || Math.max(other.x0 - c.x1, c.x0 - other.x1) > PAIR_GAP_MAX * body) return false;
    return bracket(other) === (shape === "(" ? ")" : "(");
  };
  const edits: Edit[] = [];
  const sorted = [...wanted].sort((a, b) => a.index - b.index);
  for (let k = 0; k < sorted.length; k++) {
    const g = sorted[k];
    if (!g) continue;
    const c = text[g.index] ?? "";
    if (V_LIKE.test(c)) {
      // The run of V-like characters read together, over their components.
      const group = [g];
      while (
        sorted[k + 1]?.index === (group[group.length - 1]?.index ?? 0) + 1 &&
        V_LIKE.test(text[sorted[k + 1]?.index ?? -1] ?? "")
      ) {
        const next = sorted[++k];
        if (next) group.push(next);
      }
      const comps = [...new Set(group.map((x) => at(x.x)))];
      if (comps.some((x) => !x || !descendsFromTop(x, m))) continue;
      const found = comps.filter((x): x is Component => x !== undefined);
      // Below the baseline only each `\\/`'s vertex shows: its fewest runs on the rows there.
      const vertices = found.reduce((k, x) => {
        let least = Number.POSITIVE_INFINITY;
        for (let y = m.baseline + 1; y <= x.y1; y++) {
          const r = runs(l, x, y).length;
          if (r > 0) least = Math.min(least, r);
        }
        return k + (Number.isFinite(least) ? least : 0);
      }, 0);
      const strokes = strokeCount(l, found);
      const n = strokes === undefined || strokes === 2 * vertices ? 2 * vertices : undefined;
      const width = found.reduce((s, x) => s + x.x1 - x.x0 + 1, 0);
      const height = Math.max(...found.map((x) => x.y1 - x.y0 + 1));
      if (n === undefined || width > n * STROKE_WIDTH_MAX * height) continue;
      // The ink counts the strokes (`WV` over `\/\/` is four, not six): two per vertex, and as many as
      // stand apart halfway up where they all do; they pair as `\/`, the V's shape.
      edits.push({ start: g.index, end: g.index + group.length, to: "\\/".repeat(n / 2) });
      continue;
    }
    if (c === ESCAPED) {
      const prev = text[g.index - 1] ?? "";
      const own = at(g.x);
      const before = own && byX.filter((x) => x.x1 < own.x0).pop();
      if (
        own &&
        before &&
        !STROKE_LIKE.test(prev) &&
        !descendsFromTop(own, m) &&
        descendsFromTop(before, m) &&
        before.x1 - before.x0 + 1 <= STROKE_WIDTH_MAX * (before.y1 - before.y0 + 1) &&
        lean(l, before) === "\\"
      )
        edits.push({ start: g.index, end: g.index, to: "\\" });
      continue;
    }
    const comp = at(g.x);
    if (!comp || !descendsFromTop(comp, m)) continue;
    if (c === ROUND) {
      if (pairOf(comp)) edits.push({ start: g.index, end: g.index + 1, to: "()" });
      continue;
    }
    if (comp.x1 - comp.x0 + 1 > STROKE_WIDTH_MAX * (comp.y1 - comp.y0 + 1)) continue;
    if (c === "(" && text[g.index + 1] !== ")" && pairOf(comp)) {
      // `()` read `(`: the ink shows both brackets side by side, the second one not read.
      edits.push({ start: g.index + 1, end: g.index + 1, to: ")" });
      continue;
    }
    const s = lean(l, comp);
    if (s && s !== c) edits.push({ start: g.index, end: g.index + 1, to: s });
  }
  return edits;
}
