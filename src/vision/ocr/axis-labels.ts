import type { RgbImage } from "../../shared/image.js";
import type { TextLine } from "../types.js";
import { greyCrop } from "./ink.js";

/**
 * A chart's x-axis labels read as one line. Swift Charts (`AxisMarks` on the x axis) and DGCharts
 * (`xAxis`, granularity 1) draw one value label centred under each tick, every tick the same distance
 * apart, all in one format (`Nov 3`, `11/3`, `3日`, `6 AM`). On a phone-wide chart 7–12 such labels at
 * caption2/10 pt stand a word space apart or touch, and the detector boxes the row as one region: the
 * recogniser reads `11/3 11/4 … 11/1011/1111/12`, one run-on line on no label's box.
 *
 * A line whose whole text parses as ≥ `MIN_LABELS` tokens of one axis-label format is cut into those
 * tokens, at the ink columns between them: the cut between labels k and k+1 is looked for around the
 * place equal shares of the line's ink width put it (labels of one format differ in width by a glyph
 * at most), at the column of least ink within `CUT_REACH` of a share. The cut is kept only when the
 * pieces' ink centres stand evenly spaced (every step within `EVEN_TOLERANCE` of their mean): the
 * ticks' spacing is what makes a run of labels an axis, not a sentence of dates.
 */

/** Fewest labels in a run-on axis line (a week's chart has 7, a month's 5–12 shown). */
const MIN_LABELS = 4;
/** A cut is looked for within this share of one label's slot of the equal-share position. */
const CUT_REACH = 0.3;
/** Pieces' centre steps may differ from their mean by this share of it (ticks are evenly spaced). */
const EVEN_TOLERANCE = 0.15;

const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)";
const WEEKDAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
/**
 * Axis-label formats as Foundation's date and number styles print them on chart axes (`.dateTime.month()
 * .day()` → `Nov 3`, numeric `11/3`, zh `3日` / `11月3日` / `周一`, hours `6 AM` / `18:00`), each a whole
 * token. A plain number is a label only between spaces (touching digits cannot be cut by format).
 */
const FORMATS: readonly RegExp[] = [
  /^\d{1,2}\/\d{1,2}$/u,
  new RegExp(`^${MONTH} ?\\d{1,2}$`, "u"),
  new RegExp(`^\\d{1,2} ?${MONTH}$`, "u"),
  new RegExp(`^${WEEKDAY}$`, "u"),
  /^\d{1,2}(?:月\d{1,2})?日$/u,
  /^\d{1,2}月$/u,
  /^周[一二三四五六日]$/u,
  /^\d{1,2}(?::\d{2})? ?(?:AM|PM|am|pm)$/u,
  /^\d{1,2}:\d{2}$/u,
];

/** The tokens `text` is, all of one format, tokens maybe glued (no space) or spaced; else undefined. */
export function axisTokens(text: string): string[] | undefined {
  const t = text.trim();
  for (const format of FORMATS) {
    const memo = new Map<number, string[] | null>();
    const from = (p: number): string[] | null => {
      if (p >= t.length) return [];
      const seen = memo.get(p);
      if (seen !== undefined) return seen;
      let best: string[] | null = null;
      // Longest token first: `11/1011/11` is `11/10` `11/11`, not `11/1` `011/…`.
      for (let e = Math.min(t.length, p + 9); e > p && !best; e--) {
        const token = t.slice(p, e);
        if (token !== token.trim() || !format.test(token)) continue;
        let q = e;
        while (t[q] === " ") q++;
        const rest = from(q);
        if (rest) best = [token, ...rest];
      }
      memo.set(p, best);
      return best;
    };
    const tokens = from(0);
    if (tokens && tokens.length >= MIN_LABELS) return tokens;
  }
  // Plain numbers (an x axis of values, `0 10 20 30`) only when each stands between spaces.
  const spaced = t.split(/ +/u);
  if (spaced.length >= MIN_LABELS && spaced.every((s) => /^-?\d+(?:[.,]\d+)?%?$/u.test(s))) return spaced;
  return undefined;
}

/**
 * `line` cut into its axis labels (`axisTokens`), each piece boxed to its ink in `image`, or undefined
 * when it is no such line or the ink does not show evenly spaced labels.
 */
export function splitAxisRun(line: TextLine, image: RgbImage): TextLine[] | undefined {
  const tokens = axisTokens(line.text);
  if (!tokens) return undefined;
  const W = image.width;
  const H = image.height;
  const crop = greyCrop(
    image,
    { x0: line.box[0] * W, y0: line.box[1] * H, x1: line.box[2] * W, y1: line.box[3] * H, score: 1 },
    8,
    4,
  );
  if (!crop || crop.maxDiff < 40) return undefined;
  const { w, h, grey, bg } = crop;
  const t = crop.maxDiff / 3;
  const cols = new Float64Array(w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (Math.abs((grey[y * w + x] as number) - bg) > t) cols[x] = (cols[x] ?? 0) + 1;
  let a = 0;
  let b = w - 1;
  while (a < w && cols[a] === 0) a++;
  while (b > a && cols[b] === 0) b--;
  const n = tokens.length;
  const slot = (b - a + 1) / n;
  if (slot < 2) return undefined;
  // Cuts at the least ink near each equal share (the middle of a blank run when there is one).
  const cuts: number[] = [a];
  for (let k = 1; k < n; k++) {
    const at = a + k * slot;
    let best = Math.round(at);
    let least = Number.POSITIVE_INFINITY;
    for (let x = Math.round(at - CUT_REACH * slot); x <= Math.round(at + CUT_REACH * slot); x++) {
      const v = (cols[x] ?? Number.POSITIVE_INFINITY) + Math.abs(x - at) / slot;
      if (v < least) {
        least = v;
        best = x;
      }
    }
    cuts.push(best);
  }
  cuts.push(b + 1);
  // Each piece's ink span and centre.
  const pieces: { x0: number; x1: number }[] = [];
  for (let k = 0; k < n; k++) {
    let p = cuts[k] as number;
    let q = (cuts[k + 1] as number) - 1;
    while (p < q && cols[p] === 0) p++;
    while (q > p && cols[q] === 0) q--;
    if (cols[p] === 0) return undefined;
    pieces.push({ x0: p, x1: q + 1 });
  }
  const centres = pieces.map((p) => (p.x0 + p.x1) / 2);
  const steps = centres.slice(1).map((c, i) => c - (centres[i] as number));
  const mean = steps.reduce((s, v) => s + v, 0) / steps.length;
  if (!(mean > 0) || steps.some((s) => Math.abs(s - mean) > EVEN_TOLERANCE * mean)) return undefined;
  return pieces.map((p, k) => ({
    text: tokens[k] as string,
    conf: line.conf,
    box: [(crop.x0 + p.x0) / W, line.box[1], (crop.x0 + p.x1) / W, line.box[3]],
  }));
}

/** `lines` with each run-on axis line replaced by its labels (`splitAxisRun`). */
export function axisLabelRuns(lines: readonly TextLine[], image: RgbImage): TextLine[] {
  return lines.flatMap((l) => splitAxisRun(l, image) ?? [l]);
}
