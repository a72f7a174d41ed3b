import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop, type LabelledComponent, labelInk } from "./ink.js";

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
 */

/** Where a character was read: its index in the line's text and its x centre in image pixels. */
export interface ReadGlyph {
  index: number;
  x: number;
}

/** Characters a run of slant strokes is read as (`\/` as V, `\/\/` as W or VV). */
const V_LIKE = /^[VWvw]$/u;
/**
 * Characters a lone backslash is read as: bars and brackets (not `i`, `1` or `!`, whose dot or flag the
 * recogniser sees, nor a slash read as one, which sits beside letters it could be mistaken for).
 */
const BAR_LIKE = /^[Il|()[\]]$/u;
/** How far below the baseline (fraction of the baseline-to-top height, at least 2 px) a stroke descends. */
export const DESCENT_MIN = 0.12;
/** Horizontal travel per row of a leaning stroke's centre, from which it is a slash or backslash. */
export const LEAN_MIN = 0.12;

/** Characters whose position `slashesFromInk` needs: the V-like and bar-like ones. */
export function slashCandidate(c: string): boolean {
  return V_LIKE.test(c) || BAR_LIKE.test(c);
}

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;

/**
 * Whether the character at `i` is worth measuring (each measure labels the line's ink): a V or W not
 * starting a word (`Widget`, `WPS`, `Wi-Fi` do; `https:VV`, `comVzky`, `W 队名` are suspects) or
 * after an upper-case letter; a bracket or bar anywhere; an `I` or `l` starting a word before one of
 * an escape's letters or a quote (`\n` read `In`, `\"` read `l"`).
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
      b - a > 1 || (before !== "" && before !== " " && !UPPER.test(before)) || !LETTER.test(text[b] ?? "")
    );
  }
  if (c === "I" || c === "l") return !LETTER.test(prev) && /^[ntru"'\\/]$/u.test(next);
  return BAR_LIKE.test(c);
}

/** An ink component, crop pixels (`labelInk`). */
type Component = LabelledComponent;

interface Labelled {
  w: number;
  h: number;
  /** Component id + 1 per crop pixel (0: background). */
  label: Int32Array;
  comps: Component[];
  /** Crop origin in image pixels. */
  ox: number;
  oy: number;
}

/** 8-connected ink components of `box` (ink: more than half the largest contrast off the border's grey). */
function label(image: RgbImage, box: PixelBox): Labelled | undefined {
  const crop = greyCrop(image, box, 3, 6);
  if (!crop || crop.maxDiff < 48) return undefined;
  const { label: lab, comps } = labelInk(crop, crop.maxDiff / 2);
  return { w: crop.w, h: crop.h, label: lab, comps, ox: crop.x0, oy: crop.y0 };
}

/** Centres (crop x) of the runs of component `c` along row `y`. */
function runs(l: Labelled, c: Component, y: number): number[] {
  const out: number[] = [];
  let start = -1;
  for (let x = c.x0; x <= c.x1 + 1; x++) {
    const on = x <= c.x1 && l.label[y * l.w + x] === c.id + 1;
    if (on && start < 0) start = x;
    if (!on && start >= 0) {
      out.push((start + x - 1) / 2);
      start = -1;
    }
  }
  return out;
}

/** The line's baseline and top (crop rows) from its tall components: the commonest bottom, the highest top. */
function lineMetrics(l: Labelled): { baseline: number; top: number } | undefined {
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const c of l.comps) {
    y0 = Math.min(y0, c.y0);
    y1 = Math.max(y1, c.y1);
  }
  const tall = l.comps.filter((c) => c.y1 - c.y0 + 1 >= 0.4 * (y1 - y0 + 1));
  if (tall.length < 3) return undefined;
  let baseline = 0;
  let best = -1;
  for (const c of tall) {
    const n = tall.filter((d) => Math.abs(d.y1 - c.y1) <= 1).length;
    if (n > best || (n === best && c.y1 < baseline)) {
      best = n;
      baseline = c.y1;
    }
  }
  const top = Math.min(...tall.map((c) => c.y0));
  return baseline - top >= 6 ? { baseline, top } : undefined;
}

/** Whether `c` runs from near the line's top to clearly below its baseline, as slashes and brackets do. */
function descendsFromTop(c: Component, m: { baseline: number; top: number }): boolean {
  const body = m.baseline - m.top;
  return (
    c.y0 <= m.top + 0.25 * body &&
    c.y1 >= m.baseline + Math.max(2, DESCENT_MIN * body) &&
    c.y1 - c.y0 <= 1.6 * body
  );
}

/**
 * Widest a component of `n` slant strokes may be, as a fraction of the line's body (baseline to top)
 * per stroke: a slash's advance is ≈ 0.28–0.33 em in SF Pro, 0.6 em in a monospaced face, the body
 * 0.74 em; wider ink is glyphs run together (an underline joining a link's letters).
 */
const STROKE_WIDTH_MAX = 0.5;

/**
 * `\\` or `/` when component `c` is one straight leaning stroke: one run on the rows 20%, 50% and 80%
 * down, its centre moving the same way by at least `LEAN_MIN` per row over both halves (a bracket's
 * curve turns back, an upright bar does not move).
 */
function lean(l: Labelled, c: Component): string | undefined {
  const h = c.y1 - c.y0 + 1;
  const centre = (f: number) => runs(l, c, Math.round(c.y0 + f * (h - 1)));
  const [a, b, d] = [centre(0.2), centre(0.5), centre(0.8)];
  if (a.length !== 1 || b.length !== 1 || d.length !== 1) return undefined;
  const dy = 0.3 * (h - 1);
  const l1 = ((b[0] ?? 0) - (a[0] ?? 0)) / dy;
  const l2 = ((d[0] ?? 0) - (b[0] ?? 0)) / dy;
  if (Math.sign(l1) !== Math.sign(l2) || Math.min(Math.abs(l1), Math.abs(l2)) < LEAN_MIN) return undefined;
  return l1 > 0 ? "\\" : "/";
}

/**
 * `(` or `)` when component `c` is one stroke bowed like a bracket: one run on the rows 20%, 50% and
 * 80% down, its middle at least `LEAN_MIN` of the height left (`(`) or right (`)`) of its ends' mean.
 */
function bow(l: Labelled, c: Component): string | undefined {
  const h = c.y1 - c.y0 + 1;
  const centre = (f: number) => runs(l, c, Math.round(c.y0 + f * (h - 1)));
  const [a, b, d] = [centre(0.2), centre(0.5), centre(0.8)];
  if (a.length !== 1 || b.length !== 1 || d.length !== 1) return undefined;
  const off = ((b[0] ?? 0) - ((a[0] ?? 0) + (d[0] ?? 0)) / 2) / (0.3 * (h - 1));
  return off <= -LEAN_MIN ? "(" : off >= LEAN_MIN ? ")" : undefined;
}

/** Result of `slashesFromInk`: the new text and where each old index went. */
export interface SlashFix {
  text: string;
  /** The index in `text` of the character at `i` of the input (and of the end for `i` = its length). */
  moved: (i: number) => number;
}

/**
 * `text` with the slashes and backslashes its ink shows that the recogniser read as letters: a run of
 * characters read V or W (`glyphs` says where each was read) whose ink descends below the baseline
 * becomes the strokes the ink holds (`\/`, `\/\/`), and a character read as a bar or bracket whose ink
 * is one leaning, descending stroke becomes `\` or `/`. `line` is the line's ink box in `image`.
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
  const pad = 0.2 * (line.y1 - line.y0);
  const l = label(image, {
    ...line,
    x0: line.x0 - pad,
    y0: line.y0 - pad,
    x1: line.x1 + pad,
    y1: line.y1 + pad,
  });
  if (!l) return same;
  const m = lineMetrics(l);
  if (!m) return same;
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
  // Replacements: [start, end) of the input → new characters.
  const edits: { start: number; end: number; to: string }[] = [];
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
      const n = group.reduce((k, x) => k + (/[Vv]/u.test(text[x.index] ?? "") ? 2 : 4), 0);
      const width = comps.reduce((k, x) => k + (x ? x.x1 - x.x0 + 1 : 0), 0);
      if (comps.some((x) => !x || !descendsFromTop(x, m)) || width > n * STROKE_WIDTH_MAX * body) continue;
      // Below the baseline only the V's vertices show, one per `\/` (two strokes where they have not
      // met yet); a descender joined to the letters by an underline shows one tail.
      const vertices = comps.reduce(
        (k, x) => k + (x ? runs(l, x, Math.round((m.baseline + 1 + x.y1) / 2)).length : 0),
        0,
      );
      if (vertices < n / 2 || vertices > n) continue;
      // A V's strokes are `\/` in that order whatever stands there; the reading counts them (two per
      // V, four per W) more surely than the ink, whose strokes touch at their ends.
      const drawn = group.map((x) => (/[Vv]/u.test(text[x.index] ?? "") ? "\\/" : "\\/\\/"));
      edits.push({ start: g.index, end: g.index + group.length, to: drawn.join("") });
      continue;
    }
    const comp = at(g.x);
    if (!comp || !descendsFromTop(comp, m) || comp.x1 - comp.x0 + 1 > 1.2 * STROKE_WIDTH_MAX * body) continue;
    if (c === "(" && text[g.index + 1] !== ")") {
      // `()` read `(`: the ink shows both brackets side by side, the second one not read.
      const shape = bow(l, comp);
      const byX = [...l.comps].sort((p, q) => p.x0 - q.x0);
      const before = byX.filter((x) => x.x1 < comp.x0).pop();
      const after = byX.find((x) => x.x0 > comp.x1);
      const pair =
        shape === "("
          ? after && descendsFromTop(after, m) && bow(l, after) === ")"
          : shape === ")" && before && descendsFromTop(before, m) && bow(l, before) === "(";
      if (pair) {
        edits.push({ start: g.index + 1, end: g.index + 1, to: ")" });
        continue;
      }
    }
    const s = lean(l, comp);
    if (s && s !== c) edits.push({ start: g.index, end: g.index + 1, to: s });
  }
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
