import sharp from "sharp";

/**
 * Synthetic slider screens (SVG rendered by sharp, anti-aliased like UIKit's drawing), in points on a
 * 390 × 844 pt screen at 3×. Metrics from UIKit and ResearchKit:
 *
 * - `UISlider`: a 4 pt track (2 pt before iOS 13) with round ends, `minimumTrackTintColor` left of the
 *   thumb, grey right of it; a 28 pt white thumb with a soft shadow 3 pt down (drawn as rings of falling
 *   opacity, as `switch-synth.ts` does: an SVG blur filter costs seconds a screen). At value 0 or 1
 *   the thumb's centre sits 14 pt in from the track's end, hiding that end.
 * - ResearchKit's `ORKScaleSlider` (`drawRect:`): a 1 pt track, a 1 × 7 pt tick at each of the
 *   `numberOfSteps + 1` values from end to end, the UISlider thumb centred on the value's tick; the
 *   range labels (`1`, `7`) 17 pt left and right of the slider's bounds, which sit 2 pt outside the
 *   track (`ORKScaleSliderView`'s `H:|-17-[left]-17-[slider]-17-[right]-17-|`).
 */

/** Light: white cell on the grouped page; dark: #1C1C1E cell. */
export const MODES = {
  light: { cell: "#FFFFFF", grey: "#E5E5EA", tick: "#8E8E93", text: "#000000", sep: "#C6C6C8" },
  dark: { cell: "#1C1C1E", grey: "#39393D", tick: "#8E8E93", text: "#FFFFFF", sep: "#38383A" },
} as const;
export type Mode = keyof typeof MODES;

export type Part =
  /** UISlider: track from x0 to x1 at centre y, thumb at `value`. */
  | { kind: "uislider"; y: number; value: number; x0?: number; x1?: number; track?: number; tint?: string }
  /** ResearchKit's scale: `steps` steps (7 values: 6), thumb at `value` (0–1), range labels. */
  | { kind: "scale"; y: number; value: number; steps: number; colour?: string; labels?: [string, string] }
  /** A chart axis: a 1 pt line with ticks and a label under each (no thumb). */
  | { kind: "axis"; y: number; steps: number }
  /** A divider (hairline) across the cell. */
  | { kind: "divider"; y: number }
  /** UIProgressView: 4 pt, tinted part, no thumb. */
  | { kind: "progress"; y: number; value: number }
  /** UISegmentedControl: 32 pt tall, grey, a white selected segment with a shadow. */
  | { kind: "segmented"; y: number; segments: number; selected: number }
  /** A line of text. */
  | { kind: "text"; x: number; y: number; text: string; size?: number };

/** The UISlider thumb: shadow rings (3 pt down, ~6 pt blur), a hairline border, the white disc. */
function thumb(cx: number, cy: number): string {
  let s = "";
  for (let i = 6; i >= 1; i--)
    s += `<circle cx="${cx}" cy="${cy + 3}" r="${14 + i * 0.8}" fill="#000" fill-opacity="${(0.035 * (7 - i)) / 6}"/>`;
  s += `<circle cx="${cx}" cy="${cy}" r="14.25" fill="#000" fill-opacity="0.06"/>`;
  return `${s}<circle cx="${cx}" cy="${cy}" r="14" fill="#FFFFFF"/>`;
}

function part(p: Part, m: (typeof MODES)[Mode]): string {
  switch (p.kind) {
    case "uislider": {
      const [x0, x1, t] = [p.x0 ?? 16, p.x1 ?? 374, p.track ?? 4];
      const kx = x0 + 14 + p.value * (x1 - x0 - 28);
      const tint = p.tint ?? "#007AFF";
      return (
        `<rect x="${x0}" y="${p.y - t / 2}" width="${x1 - x0}" height="${t}" rx="${t / 2}" fill="${m.grey}"/>` +
        `<rect x="${x0}" y="${p.y - t / 2}" width="${kx - x0}" height="${t}" rx="${t / 2}" fill="${tint}"/>` +
        thumb(kx, p.y)
      );
    }
    case "scale": {
      // Range labels of one digit (~10 pt wide at 17 pt): slider bounds between them.
      const labelW = 10;
      const bx0 = 17 + labelW + 17;
      const bx1 = 390 - bx0;
      const [tx0, tx1] = [bx0 + 2, bx1 - 2];
      const c = p.colour ?? m.tick;
      let s = `<rect x="${tx0}" y="${p.y - 0.5}" width="${tx1 - tx0}" height="1" fill="${c}"/>`;
      for (let i = 0; i <= p.steps; i++) {
        const x = tx0 + ((tx1 - tx0 - 1) * i) / p.steps;
        s += `<rect x="${x}" y="${p.y - 3.5}" width="1" height="7" fill="${c}"/>`;
      }
      const [l, r] = p.labels ?? ["1", String(p.steps + 1)];
      s += `<text x="${17 + labelW / 2}" y="${p.y + 6}" text-anchor="middle" font-family="sans-serif" font-size="17" fill="${m.text}">${l}</text>`;
      s += `<text x="${390 - 17 - labelW / 2}" y="${p.y + 6}" text-anchor="middle" font-family="sans-serif" font-size="17" fill="${m.text}">${r}</text>`;
      return s + thumb(tx0 + p.value * (tx1 - tx0), p.y);
    }
    case "axis": {
      let s = `<rect x="40" y="${p.y - 0.5}" width="320" height="1" fill="${m.tick}"/>`;
      for (let i = 0; i <= p.steps; i++) {
        const x = 40 + (319 * i) / p.steps;
        s += `<rect x="${x}" y="${p.y - 3.5}" width="1" height="7" fill="${m.tick}"/>`;
        s += `<text x="${x + 0.5}" y="${p.y + 20}" text-anchor="middle" font-family="sans-serif" font-size="12" fill="${m.text}">${i * 10}</text>`;
      }
      return s;
    }
    case "divider":
      return `<rect x="16" y="${p.y}" width="358" height="0.33" fill="${m.sep}"/>`;
    case "progress":
      return (
        `<rect x="16" y="${p.y - 2}" width="358" height="4" rx="2" fill="${m.grey}"/>` +
        `<rect x="16" y="${p.y - 2}" width="${358 * p.value}" height="4" rx="2" fill="#007AFF"/>`
      );
    case "segmented": {
      const w = 358 / p.segments;
      let s = `<rect x="16" y="${p.y - 16}" width="358" height="32" rx="8" fill="${m.grey}"/>`;
      const sx = 16 + 2 + p.selected * w;
      s += `<rect x="${sx}" y="${p.y - 14 + 2}" width="${w - 4}" height="28" rx="7" fill="#000" fill-opacity="0.06"/>`;
      s += `<rect x="${sx}" y="${p.y - 14}" width="${w - 4}" height="28" rx="7" fill="#FFFFFF"/>`;
      for (let i = 0; i < p.segments; i++)
        s += `<text x="${16 + (i + 0.5) * w}" y="${p.y + 5}" text-anchor="middle" font-family="sans-serif" font-size="13" fill="#000">Item ${i + 1}</text>`;
      return s;
    }
    case "text":
      return `<text x="${p.x}" y="${p.y}" font-family="sans-serif" font-size="${p.size ?? 17}" fill="${m.text}">${p.text}</text>`;
  }
}

/** The parts on one cell-coloured 390 × 844 pt screen, as a 1170 × 2532 PNG. */
export async function sliderScreen(mode: Mode, parts: readonly Part[]): Promise<Buffer> {
  const m = MODES[mode];
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="2532" viewBox="0 0 390 844">`;
  svg += `<rect width="390" height="844" fill="${m.cell}"/>`;
  for (const p of parts) svg += part(p, m);
  return sharp(Buffer.from(`${svg}</svg>`))
    .png()
    .toBuffer();
}
