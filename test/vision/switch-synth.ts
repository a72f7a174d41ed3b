import sharp from "sharp";

/** A synthetic switch's truth: state and box (fractions of the screen), the box cut at the screen's edge. */
export interface SwitchTruth {
  on: boolean;
  box: [number, number, number, number];
}

/**
 * UISwitch's metrics (UIKit intrinsic size, HIG "Toggles"): iOS 7–18 a 51×31 pt capsule with a 27 pt
 * round knob inset 2 pt; iOS 26 64×28 pt with a 38×24 pt pill knob. The knob's shadow is offset 3 pt
 * down with a few points' blur (drawn as rings of falling opacity: an SVG filter costs seconds a screen).
 */
const SHAPES = {
  classic: { w: 51, h: 31, kw: 27, kh: 27 },
  glass: { w: 64, h: 28, kw: 38, kh: 24 },
} as const;

/** Light: #F2F2F7 page, white cells, off track `secondarySystemFill` over white (#E9E9EA). Dark: black page, #1C1C1E cells, #39393D. */
const MODES = {
  light: { page: "#F2F2F7", cell: "#FFFFFF", off: "#E9E9EA", text: "#000000", sep: "#C6C6C8" },
  dark: { page: "#000000", cell: "#1C1C1E", off: "#39393D", text: "#FFFFFF", sep: "#38383A" },
} as const;

export interface SwitchScreen {
  mode: keyof typeof MODES;
  shape: keyof typeof SHAPES;
  tint: string;
  /** States of the whole switches, one 44 pt row each from y = 120 pt. */
  rows: readonly boolean[];
  /** A last switch cut by the bottom edge: its state and the share of its height that shows. */
  cut?: { on: boolean; shown: number };
  /** Points across (a 390 × 844 pt screen by default), rendered at `scale` pixels a point. */
  width?: number;
  scale?: number;
  /** The knob's colour (white by default; a dark-mode documentation screenshot's dimmed levels, or `thumbTintColor`). */
  knob?: string;
}

const LABELS = ["Wi-Fi", "Bluetooth", "Airplane Mode", "Personal Hotspot", "Do Not Disturb"];

/** An inset grouped list of switches (UITableView at iOS 13+ metrics) as a PNG, with the truths. */
export async function switchScreen(s: SwitchScreen): Promise<{ png: Buffer; truths: SwitchTruth[] }> {
  const W = s.width ?? 390;
  const H = Math.round((W * 844) / 390);
  const scale = s.scale ?? 3;
  const m = MODES[s.mode];
  const k = SHAPES[s.shape];
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * scale}" height="${H * scale}" viewBox="0 0 ${W} ${H}">`;
  svg += `<rect width="${W}" height="${H}" fill="${m.page}"/><rect x="16" y="113.5" width="${W - 32}" height="${H}" rx="10" fill="${m.cell}"/>`;
  const truths: SwitchTruth[] = [];
  const place: { y: number; on: boolean }[] = s.rows.map((on, i) => ({ y: 120 + i * 44, on }));
  if (s.cut) place.push({ y: H - s.cut.shown * k.h, on: s.cut.on });
  place.forEach(({ y, on }, i) => {
    const x = W - 32 - k.w;
    if (i > 0) svg += `<rect x="32" y="${y - 6.83}" width="${W - 48}" height="0.33" fill="${m.sep}"/>`;
    svg += `<text x="32" y="${y + k.h / 2 + 6}" font-family="sans-serif" font-size="17" fill="${m.text}">${LABELS[i % LABELS.length]}</text>`;
    svg += `<rect x="${x}" y="${y}" width="${k.w}" height="${k.h}" rx="${k.h / 2}" fill="${on ? s.tint : m.off}"/>`;
    const kx = on ? x + k.w - 2 - k.kw : x + 2;
    const ky = y + (k.h - k.kh) / 2;
    svg += knobShadow(kx, ky + 3, k.kw, k.kh);
    svg += `<rect x="${kx}" y="${ky}" width="${k.kw}" height="${k.kh}" rx="${k.kh / 2}" fill="${s.knob ?? "#FFFFFF"}"/>`;
    truths.push({ on, box: [x / W, y / H, (x + k.w) / W, Math.min(H, y + k.h) / H] });
  });
  const png = await sharp(Buffer.from(`${svg}</svg>`))
    .png()
    .toBuffer();
  return { png, truths };
}

/** The found switch whose centre lies in `box` (a little slack up and down for a cut one). */
export function switchAt<T extends { box: readonly number[] }>(
  found: readonly T[],
  box: readonly number[],
): T | undefined {
  return found.find((f) => {
    const cx = ((f.box[0] ?? 0) + (f.box[2] ?? 0)) / 2;
    const cy = ((f.box[1] ?? 0) + (f.box[3] ?? 0)) / 2;
    return cx > (box[0] ?? 0) && cx < (box[2] ?? 0) && cy > (box[1] ?? 0) - 0.01 && cy < (box[3] ?? 0) + 0.01;
  });
}

/**
 * SVG of a switch knob's soft shadow: four rounded rectangles of rising opacity, each 1 px tighter, under a
 * knob `w`×`h` at (`x`, `y`) (its own box moved down by the shadow's offset).
 */
export function knobShadow(x: number, y: number, w: number, h: number): string {
  let svg = "";
  for (const [e, a] of [
    [3, 0.03],
    [2, 0.04],
    [1, 0.05],
    [0, 0.06],
  ] as const)
    svg += `<rect x="${x - e}" y="${y - e}" width="${w + 2 * e}" height="${h + 2 * e}" rx="${h / 2 + e}" fill-opacity="${a}"/>`;
  return svg;
}
