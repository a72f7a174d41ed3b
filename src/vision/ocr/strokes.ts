import type { RgbImage } from "../../shared/image.js";
import type { PixelBox } from "./detect.js";
import { greyCrop, type LabelledComponent, labelInk } from "./ink.js";

/**
 * The ink of one text line as components, and the measures `slashes.ts` reads slashes and brackets by:
 * the line's baseline and top, and a single stroke's lean and bow measured to a fraction of a pixel.
 *
 * Why sub-pixel: a camera frame rectified to the working width shows a phone at ~1.4 px per point, so a
 * 14 pt bracket is ~20 px tall and bows by 1–2 px, which the run of ink on a row (a whole pixel wide,
 * centres on half pixels) does not show; the ink's grey weighted along the row does. On a 3× screenshot
 * (~2 px per point and more) both agree.
 */

/** An ink component, crop pixels (`labelInk`). */
export type Component = LabelledComponent;

export interface Labelled {
  w: number;
  h: number;
  /** Component id + 1 per crop pixel (0: background). */
  label: Int32Array;
  comps: Component[];
  /** Crop origin in image pixels. */
  ox: number;
  oy: number;
  /** Luma per crop pixel and the background's. */
  grey: Float32Array;
  bg: number;
}

/**
 * 8-connected ink components of `box`: ink is what differs from the border's grey by more than half the
 * largest difference inside `inner` (the line itself), so a bright edge in the margin (the screen's
 * border, a card's) neither sets the threshold nor becomes a glyph (components as tall as the crop are
 * dropped).
 */
export function labelLine(image: RgbImage, box: PixelBox, inner: PixelBox): Labelled | undefined {
  const crop = greyCrop(image, box, 3, 6);
  if (!crop) return undefined;
  let maxDiff = 0;
  const ix0 = Math.max(0, Math.floor(inner.x0) - crop.x0);
  const ix1 = Math.min(crop.w, Math.ceil(inner.x1) - crop.x0);
  for (let y = 0; y < crop.h; y++)
    for (let x = ix0; x < ix1; x++)
      maxDiff = Math.max(maxDiff, Math.abs((crop.grey[y * crop.w + x] ?? 0) - crop.bg));
  if (maxDiff < 48) return undefined;
  const { label, comps } = labelInk(crop, maxDiff / 2);
  return {
    w: crop.w,
    h: crop.h,
    label,
    comps: comps.filter((c) => c.y1 - c.y0 + 1 < 0.95 * crop.h),
    ox: crop.x0,
    oy: crop.y0,
    grey: crop.grey,
    bg: crop.bg,
  };
}

/** Centres (crop x) of the runs of component `c` along row `y`. */
export function runs(l: Labelled, c: Component, y: number): number[] {
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

/** A line's baseline and top, crop rows. */
export interface LineMetrics {
  baseline: number;
  top: number;
}

/**
 * The line's baseline and top (crop rows) from its tall components: the highest top, and the commonest
 * bottom of the x-height letters when there are three (a, c, e, n, o, r, s, u… stand on the Latin
 * baseline in every Latin face: components 0.4–0.8 of the body tall whose top is well below the
 * line's), else of all tall components. Ideographs stand lower than the Latin
 * baseline (PingFang's ideographic box reaches ~0.12 em below it), so in a line of mostly Chinese the
 * commonest bottom of all is theirs, 1–3 px under the Latin letters on a camera frame, and a slash's
 * descent below the Latin baseline would be measured from theirs.
 */
export function lineMetrics(l: Labelled): LineMetrics | undefined {
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const c of l.comps) {
    y0 = Math.min(y0, c.y0);
    y1 = Math.max(y1, c.y1);
  }
  const tall = l.comps.filter((c) => c.y1 - c.y0 + 1 >= 0.4 * (y1 - y0 + 1));
  if (tall.length < 3) return undefined;
  const top = Math.min(...tall.map((c) => c.y0));
  const commonestBottom = (cs: readonly Component[]): number => {
    let baseline = 0;
    let best = -1;
    for (const c of cs) {
      const n = cs.filter((d) => Math.abs(d.y1 - c.y1) <= 1).length;
      if (n > best || (n === best && c.y1 < baseline)) {
        best = n;
        baseline = c.y1;
      }
    }
    return baseline;
  };
  const all = commonestBottom(tall);
  // x-height letters: tops well below the line's top (x-height ≈ 0.52 em against caps' 0.70 em and
  // ideographs' ~0.88 em), bottoms not above the ideographs' by more than a quarter of the body.
  const body = all - top;
  const xHeight = l.comps.filter(
    (c) =>
      c.y0 >= top + 0.22 * body &&
      c.y1 <= all &&
      c.y1 >= all - 0.25 * body &&
      c.y1 - c.y0 >= 0.4 * body &&
      c.y1 - c.y0 <= 0.8 * body,
  );
  const baseline = xHeight.length >= 3 ? commonestBottom(xHeight) : all;
  return baseline - top >= 6 ? { baseline, top } : undefined;
}

/** How far below the baseline (fraction of the baseline-to-top height, at least 2 px) a stroke descends. */
export const DESCENT_MIN = 0.12;

/** Whether `c` runs from near the line's top to clearly below its baseline, as slashes and brackets do. */
export function descendsFromTop(c: Component, m: LineMetrics): boolean {
  const body = m.baseline - m.top;
  return (
    c.y0 <= m.top + 0.25 * body &&
    c.y1 >= m.baseline + Math.max(2, DESCENT_MIN * body) &&
    c.y1 - c.y0 <= 1.6 * body
  );
}

/**
 * The centre line of one stroke, `x = a + lean·t + q·t²` fitted (least squares) to the grey-weighted
 * centre of its ink on each row where it is one run (`t`: rows from the component's middle), the top
 * and bottom 12% left out (the tips round off). `lean`: x per row (+ for `\`, − for `/`); `bow`: the
 * middle's offset from the ends' mean, as a fraction of the height (− for `(`, + for `)`).
 * Undefined when fewer than 5 rows, or fewer than 80% of them, are one run (not a single stroke).
 */
export function strokeShape(l: Labelled, c: Component): { lean: number; bow: number } | undefined {
  const h = c.y1 - c.y0 + 1;
  const mid = (c.y0 + c.y1) / 2;
  const ts: number[] = [];
  const xs: number[] = [];
  const cut = Math.round(0.12 * h);
  let rows = 0;
  for (let y = c.y0 + cut; y <= c.y1 - cut; y++) {
    rows++;
    const r = runs(l, c, y);
    if (r.length !== 1) continue;
    let sw = 0;
    let sx = 0;
    for (let x = Math.max(0, c.x0 - 1); x <= Math.min(l.w - 1, c.x1 + 1); x++) {
      const id = l.label[y * l.w + x] ?? 0;
      if (id !== 0 && id !== c.id + 1) continue;
      const wgt = Math.abs((l.grey[y * l.w + x] ?? l.bg) - l.bg);
      sw += wgt;
      sx += wgt * x;
    }
    if (sw <= 0) continue;
    ts.push(y - mid);
    xs.push(sx / sw);
  }
  // A stroke is one run on (nearly) every row; a check mark, a V or a letter is not.
  if (ts.length < 5 || ts.length < 0.8 * rows) return undefined;
  // Normal equations of the quadratic fit.
  const s = [0, 0, 0, 0, 0];
  const r = [0, 0, 0];
  ts.forEach((t, k) => {
    const x = xs[k] ?? 0;
    for (let p = 0; p < 5; p++) s[p] = (s[p] ?? 0) + t ** p;
    for (let p = 0; p < 3; p++) r[p] = (r[p] ?? 0) + x * t ** p;
  });
  const [s0, s1, s2, s3, s4] = s as [number, number, number, number, number];
  const [r0, r1, r2] = r as [number, number, number];
  const det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2);
  if (Math.abs(det) < 1e-9) return undefined;
  const lean = (s0 * (r1 * s4 - s3 * r2) - r0 * (s1 * s4 - s3 * s2) + s2 * (s1 * r2 - r1 * s2)) / det;
  const q = (s0 * (s2 * r2 - r1 * s3) - s1 * (s1 * r2 - r1 * s2) + r0 * (s1 * s3 - s2 * s2)) / det;
  return { lean, bow: (-q * (h / 2) ** 2) / h };
}
