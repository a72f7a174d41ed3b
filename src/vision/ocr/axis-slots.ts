import type { RgbImage } from "../../shared/image.js";
import type { TextLine } from "../types.js";
import type { PixelBox } from "./detect.js";

/**
 * A chart's y-axis labels the text detector missed. Swift Charts (`AxisMarks`, trailing by default) and
 * DGCharts (`leftAxis`) print a value beside each horizontal grid line, the lines evenly spaced, the
 * labels one column aligned on the edge toward the plot (right-aligned on the leading side,
 * left-aligned on the trailing side), all one size (caption2 / 10 pt, a digit ~7 pt tall). A one-digit
 * label (`0`, `5`) covers ~3 × 4 pixels of the 320 px detection map and is often not found; the rest of
 * the column is.
 *
 * From ≥ 2 numeric lines in one such column, each with a grid line beside it, the slots are the missing
 * multiples of the column's pitch between them and past its ends, as long as a grid line runs beside
 * the slot too (the grid says where the axis goes on). When the found values step evenly (0, 5, 10 …),
 * each slot's value is predicted and a reading must equal it.
 */

/** A y-axis slot: where a label should be (pixels of `detail`) and, when the values step evenly, which. */
export interface AxisSlot {
  box: PixelBox;
  expect?: string;
  /** The nearest found label of the column (its line's box), read before the slot's glyph. */
  lead: PixelBox;
}

/** A numeric axis label: digits with thousands separators or a decimal part, maybe `%`. */
const NUMERIC = /^-?\d{1,3}(?:,\d{3})*(?:\.\d+)?%?$|^-?\d+(?:\.\d+)?%?$/u;
/** Slots tried past each end of the found column. */
const EXTEND = 4;
/** Without grid lines: found labels needed (their values stepping evenly), and slots tried past each end. */
const GRIDLESS_MIN = 3;
const GRIDLESS_EXTEND = 2;
/** A grid line must run at least this many label heights beside the label… */
const GRID_MIN_RUN = 6;
/** …starting within this many label heights of the label's plot-side edge. */
const GRID_REACH = 2.5;
/** A label's grid line lies within this many label heights of its centre (the label is centred on it). */
const GRID_BAND = 0.6;
/** Share of the run's pixels that must differ from the rows around it (a 2-2 dashed line draws half; bars drawn
 * over the grid, 60% of each step as Swift Charts' `BarMark` default, leave 40% of a solid line). */
const GRID_FILL = 0.3;
/** Levels a grid pixel differs from the background at least (systemGray4 on white is ~46). */
const GRID_CONTRAST = 12;

interface Label {
  value: number;
  text: string;
  x0: number;
  x1: number;
  cy: number;
  h: number;
}

const luma = (d: Uint8Array | Buffer, o: number): number =>
  0.299 * (d[o] ?? 0) + 0.587 * (d[o + 1] ?? 0) + 0.114 * (d[o + 2] ?? 0);

/**
 * The first row from `from` to `to` (either way) holding a horizontal line that runs from about `edge`
 * away from a label `h` tall (`dir` +1: rightwards, −1: leftwards) for ≥ `GRID_MIN_RUN` label heights:
 * its pixels differ from the rows 3 px above and below by ≥ `GRID_CONTRAST` on ≥ `GRID_FILL` of the
 * run, those two rows agreeing (a line, not an edge).
 */
export function gridRow(
  image: RgbImage,
  edge: number,
  from: number,
  to: number,
  h: number,
  dir: 1 | -1,
): number | undefined {
  const W = image.width;
  const run = Math.round(GRID_MIN_RUN * h);
  const start = Math.round(edge + dir * 0.2 * h);
  const d = image.data;
  const step = to >= from ? 1 : -1;
  for (let y = Math.round(from); step > 0 ? y <= to : y >= to; y += step) {
    if (y < 3 || y >= image.height - 3) continue;
    for (let s = 0; s <= Math.round(GRID_REACH * h); s += Math.max(1, Math.round(h / 2))) {
      let hits = 0;
      let n = 0;
      for (let i = 0; i < run; i++) {
        const x = start + dir * (s + i);
        if (x < 0 || x >= W) break;
        n++;
        const v = luma(d, (y * W + x) * 3);
        const up = luma(d, ((y - 3) * W + x) * 3);
        const dn = luma(d, ((y + 3) * W + x) * 3);
        if (Math.abs(up - dn) < GRID_CONTRAST / 2 && Math.abs(v - (up + dn) / 2) >= GRID_CONTRAST) hits++;
      }
      if (n === run && hits >= GRID_FILL * run) return y;
    }
  }
  return undefined;
}

/** Whether a grid line (`gridRow`) runs within `GRID_BAND` label heights of row `cy`. */
function gridBeside(image: RgbImage, edge: number, cy: number, h: number, dir: 1 | -1): boolean {
  return gridRow(image, edge, cy - GRID_BAND * h, cy + GRID_BAND * h, h, dir) !== undefined;
}

/**
 * The grid's pitch beside a lone found label: the next grid line below (else above) its own, 1.5–15
 * label heights away, confirmed by one more line a pitch further on either side.
 */
function lonePitch(image: RgbImage, l: Label, edge: number, dir: 1 | -1): number | undefined {
  const own = gridRow(image, edge, l.cy - GRID_BAND * l.h, l.cy + GRID_BAND * l.h, l.h, dir);
  if (own === undefined) return undefined;
  for (const way of [1, -1]) {
    const next = gridRow(image, edge, own + way * 1.5 * l.h, own + way * 15 * l.h, l.h, dir);
    if (next === undefined) continue;
    const p = Math.abs(next - own);
    const band = 0.1 * p;
    const again = [next + way * p, own - way * p].some(
      (y) => gridRow(image, edge, y - band, y + band, l.h, dir) !== undefined,
    );
    if (again) return p;
  }
  return undefined;
}

/** The label format of `value` as the column prints its values (thousands commas, decimals, `%`). */
function formatLike(value: number, column: readonly Label[]): string {
  const decimals = Math.max(0, ...column.map((l) => (/\.(\d+)/u.exec(l.text)?.[1] ?? "").length));
  const commas = column.some((l) => l.text.includes(","));
  const pct = column.every((l) => l.text.endsWith("%")) ? "%" : "";
  const s = value.toFixed(decimals);
  if (!commas) return s + pct;
  const [int = "", frac] = s.split(".");
  return int.replace(/\B(?=(\d{3})+(?!\d))/gu, ",") + (frac ? `.${frac}` : "") + pct;
}

/** The y-axis slots of `detail` predicted from the numeric lines of `lines` (boxes as fractions). */
export function axisSlots(lines: readonly TextLine[], detail: RgbImage): AxisSlot[] {
  const W = detail.width;
  const H = detail.height;
  const labels: Label[] = lines
    .filter((l) => NUMERIC.test(l.text))
    .map((l) => ({
      value: Number(l.text.replace(/[,%]/gu, "")),
      text: l.text,
      x0: l.box[0] * W,
      x1: l.box[2] * W,
      cy: ((l.box[1] + l.box[3]) / 2) * H,
      h: (l.box[3] - l.box[1]) * H,
    }));
  const out: AxisSlot[] = [];
  const used = new Set<Label>();
  for (const side of ["leading", "trailing"] as const) {
    for (const anchor of labels) {
      if (used.has(anchor)) continue;
      const edgeOf = (l: Label) => (side === "leading" ? l.x1 : l.x0);
      const dir = side === "leading" ? 1 : -1;
      const aligned = labels
        .filter(
          (l) =>
            !used.has(l) &&
            Math.abs(edgeOf(l) - edgeOf(anchor)) <= 0.5 * anchor.h &&
            Math.abs(l.h - anchor.h) <= 0.3 * anchor.h,
        )
        .sort((a, b) => a.cy - b.cy);
      const gridded = aligned.filter((l) => gridBeside(detail, edgeOf(l), l.cy, l.h, dir));
      // A chart drawn without grid lines (`AxisMarks { AxisValueLabel() }` alone): a longer column
      // whose values step evenly must stand for the grid.
      const gridless = gridded.length === 0;
      const column = gridless ? aligned : gridded;
      if (column.length === 0 || (gridless && column.length < GRIDLESS_MIN)) continue;
      const h = Math.max(...column.map((l) => l.h));
      const gaps = column.slice(1).map((l, i) => l.cy - (column[i] as Label).cy);
      // One label found: the grid lines beside it give the pitch.
      const pitch = column.length > 1 ? Math.min(...gaps) : lonePitch(detail, anchor, edgeOf(anchor), dir);
      if (pitch === undefined) continue;
      if (!(pitch >= 1.5 * h) || pitch > 15 * h) continue;
      if (gaps.some((g) => Math.abs(g / pitch - Math.round(g / pitch)) > 0.15)) continue;
      // Values step evenly per pitch (values fall as rows go down): each slot's value is predicted.
      const first = column[0] as Label;
      const last = column[column.length - 1] as Label;
      const stepsTo = (cy: number) => Math.round((cy - first.cy) / pitch);
      const perPitch = (last.value - first.value) / stepsTo(last.cy);
      const even =
        column.length > 1 &&
        perPitch !== 0 &&
        column.every(
          (l) => Math.abs(first.value + stepsTo(l.cy) * perPitch - l.value) <= 0.01 * Math.abs(perPitch),
        );
      if (gridless && !even) continue;
      for (const l of column) used.add(l);
      const edge = edgeOf(anchor);
      const width = 1.4 * Math.max(...column.map((l) => l.x1 - l.x0));
      const slotAt = (cy: number): AxisSlot => {
        const x0 = side === "leading" ? edge - width : edge - 0.15 * h;
        const x1 = side === "leading" ? edge + 0.15 * h : edge + width;
        const box = {
          x0: Math.max(0, x0),
          x1: Math.min(W, x1),
          y0: cy - 0.95 * h,
          y1: cy + 0.95 * h,
          score: 1,
        };
        const value = first.value + stepsTo(cy) * perPitch;
        const near = column.reduce((a, b) => (Math.abs(b.cy - cy) < Math.abs(a.cy - cy) ? b : a));
        const lead = {
          x0: near.x0,
          x1: near.x1,
          y0: near.cy - near.h / 2,
          y1: near.cy + near.h / 2,
          score: 1,
        };
        return even ? { box, lead, expect: formatLike(value, column) } : { box, lead };
      };
      const ys: number[] = [];
      column.forEach((l, i) => {
        const next = column[i + 1];
        if (!next) return;
        const n = Math.round((next.cy - l.cy) / pitch);
        for (let j = 1; j < n; j++) ys.push(l.cy + ((next.cy - l.cy) * j) / n);
      });
      for (const dirY of [-1, 1]) {
        const end = dirY < 0 ? first.cy : last.cy;
        for (let k = 1; k <= (gridless ? GRIDLESS_EXTEND : EXTEND); k++) {
          const cy = end + dirY * k * pitch;
          if (cy - h < 0 || cy + h > H || (!gridless && !gridBeside(detail, edge, cy, h, dir))) break;
          ys.push(cy);
        }
      }
      out.push(...ys.map(slotAt));
    }
  }
  return out;
}

/**
 * A y-axis slot's label from its reading: the predicted value when there is one (a reading of another
 * value is the recogniser's slip or not a label), else any numeric label.
 */
export function axisReading(text: string, expect?: string): string | undefined {
  const t = text.trim().replace(/\s+/gu, "");
  if (expect !== undefined) return t === expect ? t : undefined;
  return NUMERIC.test(t) ? t : undefined;
}
