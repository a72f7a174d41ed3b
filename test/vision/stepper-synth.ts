import type { RgbImage } from "../../src/shared/image.js";

/**
 * Synthetic UIStepper drawings from UIKit's metrics (`src/vision/steppers.ts`): 94 × 32 pt (iOS 13+,
 * `tertiarySystemFill` rounded rect, short grey divider, label-colour glyphs) or 94 × 29 pt (iOS 7–12,
 * 1 pt tint outline and full-height divider, tint glyphs); `−` and `+` 14 pt wide, 2 pt strokes, centred
 * in the 47 pt halves. A disabled half's glyph is drawn at 30% over the body.
 */
export type Rgb = readonly [number, number, number];

export interface Canvas extends RgbImage {
  /** Pixels per point. */
  scale: number;
}

export function canvas(wPt: number, hPt: number, scale: number, bg: Rgb): Canvas {
  const width = Math.round(wPt * scale);
  const height = Math.round(hPt * scale);
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(bg, i * 3);
  return { width, height, channels: 3, data, scale };
}

/** Fills the rectangle [x, y, x + w, y + h) given in points. */
export function rect(c: Canvas, x: number, y: number, w: number, h: number, colour: Rgb): void {
  const s = c.scale;
  for (let py = Math.round(y * s); py < Math.round((y + h) * s); py++)
    for (let px = Math.round(x * s); px < Math.round((x + w) * s); px++)
      if (px >= 0 && py >= 0 && px < c.width && py < c.height) c.data.set(colour, (py * c.width + px) * 3);
}

/** A rounded rectangle (corner radius `r` pt), filled. */
function roundRect(c: Canvas, x: number, y: number, w: number, h: number, r: number, colour: Rgb): void {
  const s = c.scale;
  for (let py = Math.round(y * s); py < Math.round((y + h) * s); py++)
    for (let px = Math.round(x * s); px < Math.round((x + w) * s); px++) {
      const X = (px + 0.5) / s;
      const Y = (py + 0.5) / s;
      const dx = Math.max(x + r - X, X - (x + w - r), 0);
      const dy = Math.max(y + r - Y, Y - (y + h - r), 0);
      if (dx * dx + dy * dy <= r * r) c.data.set(colour, (py * c.width + px) * 3);
    }
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  Math.round(a[0] * t + b[0] * (1 - t)),
  Math.round(a[1] * t + b[1] * (1 - t)),
  Math.round(a[2] * t + b[2] * (1 - t)),
];

export interface StepperStyle {
  /** iOS 13+ filled, or iOS 7–12 outlined. */
  filled: boolean;
  body: Rgb;
  glyph: Rgb;
  divider: Rgb;
  /** Which half is at its limit (drawn dimmed). */
  dim?: "minus" | "plus";
}

export const LIGHT_13: StepperStyle = {
  filled: true,
  body: [239, 239, 240],
  glyph: [0, 0, 0],
  divider: [209, 209, 214],
};
export const DARK_13: StepperStyle = {
  filled: true,
  body: [50, 50, 54],
  glyph: [255, 255, 255],
  divider: [84, 84, 88],
};
export const LIGHT_12: StepperStyle = {
  filled: false,
  body: [255, 255, 255],
  glyph: [0, 122, 255],
  divider: [0, 122, 255],
};

/** Draws a stepper with its top-left corner at (x, y) pt; returns its box in points. */
export function stepper(c: Canvas, x: number, y: number, st: StepperStyle): [number, number, number, number] {
  const h = st.filled ? 32 : 29;
  if (st.filled) roundRect(c, x, y, 94, h, 8, st.body);
  else {
    roundRect(c, x, y, 94, h, 4, st.glyph);
    roundRect(c, x + 1, y + 1, 92, h - 2, 3, st.body);
  }
  if (st.filled) rect(c, x + 46.5, y + 7, 1, h - 14, st.divider);
  else rect(c, x + 46.5, y, 1, h, st.divider);
  const ink = (half: "minus" | "plus"): Rgb => (st.dim === half ? mix(st.glyph, st.body, 0.3) : st.glyph);
  const cy = y + h / 2;
  rect(c, x + 23.5 - 7, cy - 1, 14, 2, ink("minus"));
  rect(c, x + 70.5 - 7, cy - 1, 14, 2, ink("plus"));
  rect(c, x + 70.5 - 1, cy - 7, 2, 14, ink("plus"));
  return [x, y, x + 94, y + h];
}

/** A separable box blur of `radius` px (a camera's lens and resample, roughly). */
export function blur(c: Canvas, radius: number): Canvas {
  const { width: w, height: h } = c;
  const pass = (src: Buffer, horizontal: boolean): Buffer => {
    const out = Buffer.alloc(src.length);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        for (let k = 0; k < 3; k++) {
          let sum = 0;
          let n = 0;
          for (let d = -radius; d <= radius; d++) {
            const X = horizontal ? x + d : x;
            const Y = horizontal ? y : y + d;
            if (X < 0 || Y < 0 || X >= w || Y >= h) continue;
            sum += src[(Y * w + X) * 3 + k] as number;
            n++;
          }
          out[(y * w + x) * 3 + k] = Math.round(sum / n);
        }
    return out;
  };
  return { ...c, data: pass(pass(c.data, true), false) };
}

/** A filled five-pointed star of outer radius `r` pt centred at (cx, cy) pt (inner radius 0.45 r). */
export function star(c: Canvas, cx: number, cy: number, r: number, colour: Rgb): void {
  const pts = Array.from({ length: 10 }, (_, k) => {
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    const rad = k % 2 === 0 ? r : 0.45 * r;
    return [cx + rad * Math.cos(a), cy + rad * Math.sin(a)] as const;
  });
  const s = c.scale;
  for (let py = Math.floor((cy - r) * s); py <= Math.ceil((cy + r) * s); py++)
    for (let px = Math.floor((cx - r) * s); px <= Math.ceil((cx + r) * s); px++) {
      const x = (px + 0.5) / s;
      const y = (py + 0.5) / s;
      let inside = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i] as readonly [number, number];
        const [xj, yj] = pts[j] as readonly [number, number];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      if (inside) c.data.set(colour, (py * c.width + px) * 3);
    }
}
