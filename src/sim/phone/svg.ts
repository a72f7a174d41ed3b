/**
 * Tiny SVG string builders. The phone draws in points (a 390×844 viewBox on the 6.1" model); sharp
 * rasterizes the whole document at the panel's pixel size. No `<text>`: text comes from FontBook.
 */

/** A rectangle in points, top-left origin. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const n = (v: number): string => (Math.round(v * 100) / 100).toString();

export function rect(r: Rect, fill: string, rx = 0, extra = ""): string {
  const round = rx > 0 ? ` rx="${n(rx)}"` : "";
  return `<rect x="${n(r.x)}" y="${n(r.y)}" width="${n(r.w)}" height="${n(r.h)}"${round} fill="${fill}"${extra ? ` ${extra}` : ""}/>`;
}

export function circle(cx: number, cy: number, r: number, fill: string, extra = ""): string {
  return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${fill}"${extra ? ` ${extra}` : ""}/>`;
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1): string {
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}" stroke-width="${n(width)}" stroke-linecap="round"/>`;
}

export function path(d: string, fill: string, extra = ""): string {
  return `<path d="${d}" fill="${fill}"${extra ? ` ${extra}` : ""}/>`;
}

/** A "‹" chevron as a stroked polyline; `dir` is where it points. */
export function chevron(x: number, y: number, size: number, color: string, dir: "left" | "right"): string {
  const s = dir === "left" ? -1 : 1;
  const d = `M${n(x - (s * size) / 2)} ${n(y - size)} L${n(x + (s * size) / 2)} ${n(y)} L${n(x - (s * size) / 2)} ${n(y + size)}`;
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${n(size / 3)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** iOS switch (51×31 pt) with its left edge at x and vertical centre cy. */
export function toggleSwitch(x: number, cy: number, on: boolean, offColor: string): string {
  const track = rect({ x, y: cy - 15.5, w: 51, h: 31 }, on ? "#34c759" : offColor, 15.5);
  const knob = circle(on ? x + 35.5 : x + 15.5, cy, 13.5, "#ffffff", 'stroke="#00000014" stroke-width="0.5"');
  return track + knob;
}

/** Rectangle intersection, or null when they do not overlap. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.w, b.x + b.w);
  const bt = Math.min(a.y + a.h, b.y + b.h);
  return r > x && bt > y ? { x, y, w: r - x, h: bt - y } : null;
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}
