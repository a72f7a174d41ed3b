import { PiclawError } from "../util/errors.js";

/**
 * The camera calibration target the phone shows: a grid of white dots on black. Dots survive blur,
 * JPEG, noise, glare and vignetting (their centroids stay put under symmetric blur, and a local
 * threshold follows slow brightness changes). Three corner dots are larger — top-left, top-right and
 * bottom-left, an "L" whose legs have different lengths — so the detector knows which dot is which at any
 * rotation and even in a mirrored view.
 */
export interface PatternDot {
  col: number;
  row: number;
  /** Centre, 0–1 fractions of the screen (x right, y down). */
  x: number;
  y: number;
  /** Radius as a fraction of the screen width (dots are round on the glass). */
  r: number;
  /** One of the three orientation dots. */
  big: boolean;
}

export interface CalibrationPattern {
  cols: number;
  rows: number;
  dots: PatternDot[];
  background: string;
  foreground: string;
}

export interface DotGridOptions {
  cols: number;
  rows: number;
  /** Left and right margin of the outer dot centres (fraction of the width). */
  marginX: number;
  /** Top and bottom margins of the outer dot centres (fraction of the height). */
  marginTop: number;
  marginBottom: number;
  /** Dot radius, fraction of the screen width. */
  radius: number;
  /** Radius factor of the three orientation dots. */
  bigScale: number;
}

export const DEFAULT_DOT_GRID: DotGridOptions = {
  cols: 5,
  rows: 9,
  marginX: 0.12,
  marginTop: 0.08,
  marginBottom: 0.08,
  radius: 0.045,
  bigScale: 1.5,
};

/** Build the dot grid. Throws CALIBRATION_PATTERN_INVALID for grids too small to orient. */
export function dotGridPattern(options: Partial<DotGridOptions> = {}): CalibrationPattern {
  const o = { ...DEFAULT_DOT_GRID, ...options };
  if (!(Number.isInteger(o.cols) && Number.isInteger(o.rows) && o.cols >= 3 && o.rows >= 3))
    throw new PiclawError("CALIBRATION_PATTERN_INVALID", "the dot grid needs at least 3×3 integer dots", {
      cols: o.cols,
      rows: o.rows,
    });
  const dots: PatternDot[] = [];
  const stepX = (1 - 2 * o.marginX) / (o.cols - 1);
  const stepY = (1 - o.marginTop - o.marginBottom) / (o.rows - 1);
  for (let row = 0; row < o.rows; row++)
    for (let col = 0; col < o.cols; col++) {
      const big =
        (row === 0 && col === 0) || (row === 0 && col === o.cols - 1) || (row === o.rows - 1 && col === 0);
      dots.push({
        col,
        row,
        x: o.marginX + col * stepX,
        y: o.marginTop + row * stepY,
        r: big ? o.radius * o.bigScale : o.radius,
        big,
      });
    }
  return { cols: o.cols, rows: o.rows, dots, background: "#000000", foreground: "#ffffff" };
}

/** The pattern as an SVG body in screen points (a `screenPt`-sized viewBox), full-screen background first. */
export function patternSvg(pattern: CalibrationPattern, screenPt: { width: number; height: number }): string {
  const { width: w, height: h } = screenPt;
  const num = (v: number): string => (Math.round(v * 1000) / 1000).toString();
  const dots = pattern.dots
    .map((d) => `<circle cx="${num(d.x * w)}" cy="${num(d.y * h)}" r="${num(d.r * w)}"/>`)
    .join("");
  return (
    `<rect x="0" y="0" width="${num(w)}" height="${num(h)}" fill="${pattern.background}"/>` +
    `<g fill="${pattern.foreground}">${dots}</g>`
  );
}
