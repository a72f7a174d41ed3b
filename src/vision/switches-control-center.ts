import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { centreX, centreY } from "./row.js";

/**
 * The toggles of Control Center's connectivity module (iOS 11–18), which hold an on/off state like a
 * switch but are drawn as round buttons: a rounded platter holding a 2×2 grid of discs, each with a
 * white glyph and no caption. Apple's layout of that module is fixed (Apple Support, "Use and customize
 * Control Center on iPhone"): iOS 11–17 Airplane Mode, Cellular Data / Wi-Fi, Bluetooth; iOS 18
 * Airplane Mode, AirDrop / Wi-Fi and a quarter of four small discs (Cellular Data, Bluetooth /
 * Personal Hotspot, VPN). On, a disc is filled with its tint (orange, green, blue: saturated); off, it
 * is a translucent grey over the blurred wallpaper (no more than faintly tinted by it) — so the state
 * is the fill's saturation (measured on the dev set: off ≤ 55, on ≥ 150 of 255).
 *
 * Found from the detector's icon rows: three or four near-square icons of one size (a disc 11–20% of
 * the screen's width) at the top left (the module's top in the screen's top quarter), on a 2×2 grid
 * whose pitch is 1.2–1.48 discs, with no caption right under a disc (an in-call screen's round
 * buttons have captions). A missing fourth cell is the iOS 18 quarter of small discs, each checked to
 * differ from the platter between them.
 */

export interface ControlCenterToggle {
  box: FracBox;
  on: boolean;
  label: string;
}

/** A disc's width as a fraction of the screen's width (iOS 18: 55 pt of 393; iOS 11–17 ≈ 60 pt of 375). */
const DISC = { min: 0.11, max: 0.2 };
/**
 * Grid pitch in disc diameters: 1.36 measured in iOS 18's module; the 1×1 modules below it are round
 * too but pitched wider (1.55), and they are not toggles as a rule (camera, timer, calculator).
 */
const PITCH = { min: 1.2, max: 1.48 };
/** A fill this saturated (max − min channel) is a tint: on. */
const TINT = 100;
/** A small disc's fill differs from the platter between the discs by at least this (largest channel). */
const FROM_PLATTER = 20;

type Px = [number, number, number];

function pixel(img: RgbImage, x: number, y: number): Px {
  const px = Math.min(img.width - 1, Math.max(0, Math.round(x)));
  const py = Math.min(img.height - 1, Math.max(0, Math.round(y)));
  const o = (py * img.width + px) * img.channels;
  return [img.data[o] ?? 0, img.data[o + 1] ?? 0, img.data[o + 2] ?? 0];
}

/** The median colour on a ring of radius `r` px around (cx, cy) px — the fill outside the glyph. */
function ringColour(img: RgbImage, cx: number, cy: number, r: number): Px {
  const ps: Px[] = [];
  for (let i = 0; i < 12; i++) {
    const a = (i / 12) * 2 * Math.PI;
    ps.push(pixel(img, cx + r * Math.cos(a), cy + r * Math.sin(a)));
  }
  const med = (c: number): number => {
    const v = ps.map((p) => p[c] ?? 0).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)] ?? 0;
  };
  return [med(0), med(1), med(2)];
}

const saturation = (c: Px): number => Math.max(...c) - Math.min(...c);
const diff = (a: Px, b: Px): number => Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? 0))));

interface Disc {
  cx: number;
  cy: number;
  /** Diameter, px. */
  d: number;
}

/** The connectivity module's toggles on `screen`, given the listing's rows; empty when there is none. */
export function findControlCenterToggles(
  screen: RgbImage,
  rows: readonly Candidate[],
): ControlCenterToggle[] {
  const W = screen.width;
  const H = screen.height;
  const discs: Disc[] = [];
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const w = (r.box[2] - r.box[0]) * W;
    const h = (r.box[3] - r.box[1]) * H;
    if (Math.abs(w - h) > 0.2 * Math.max(w, h)) continue;
    const d = (w + h) / 2;
    if (d < DISC.min * W || d > DISC.max * W) continue;
    discs.push({ cx: centreX(r.box) * W, cy: centreY(r.box) * H, d });
  }
  const near = (a: number, b: number, tol: number): boolean => Math.abs(a - b) <= tol;
  discs.sort((a, b) => a.cy - b.cy || a.cx - b.cx);
  for (const o of discs) {
    // The module is Control Center's first, at the top left: its top within the screen's top quarter
    // (the 1×1 modules further down form grids of round buttons too).
    if (o.cx > 0.5 * W || o.cy - o.d / 2 > 0.25 * H) continue;
    // `o` as the top-left cell: a partner to its right and one below, of its size, at the grid's pitch.
    const same = discs.filter((q) => q !== o && near(q.d, o.d, 0.15 * o.d));
    const right = same.find(
      (q) => near(q.cy, o.cy, 0.1 * o.d) && q.cx - o.cx >= PITCH.min * o.d && q.cx - o.cx <= PITCH.max * o.d,
    );
    const below = same.find(
      (q) => near(q.cx, o.cx, 0.1 * o.d) && q.cy - o.cy >= PITCH.min * o.d && q.cy - o.cy <= PITCH.max * o.d,
    );
    if (!right || !below) continue;
    const sx = right.cx - o.cx;
    const sy = below.cy - o.cy;
    if (!near(sx, sy, 0.1 * sx)) continue;
    const last = same.find((q) => near(q.cx, right.cx, 0.1 * o.d) && near(q.cy, below.cy, 0.1 * o.d));
    // Captions: no text row right under a disc (an in-call screen's buttons: the caption's centre
    // within 0.3 of a disc under it). Text elsewhere on the grid is a glyph misread (AirDrop's rings,
    // the quarter's small discs as "三").
    const captioned = rows.some((r) => {
      if (r.kind !== "text") return false;
      const x = centreX(r.box) * W;
      const y = centreY(r.box) * H;
      return [o, right, below, last].some(
        (q) => q !== undefined && Math.abs(x - q.cx) < q.d / 2 && y > q.cy + q.d / 2 && y <= q.cy + 0.8 * q.d,
      );
    });
    if (captioned) continue;
    const big = (q: Disc, label: string): ControlCenterToggle => toggle(screen, q, label);
    if (last) {
      return [
        big(o, "Airplane Mode"),
        big(right, "Cellular Data"),
        big(below, "Wi-Fi"),
        big(last, "Bluetooth"),
      ];
    }
    const out = [big(o, "Airplane Mode"), big(right, "AirDrop"), big(below, "Wi-Fi")];
    // The iOS 18 quarter: four discs 0.44 of a big one, centred 0.22 of the pitch from the cell's centre.
    const qx = right.cx;
    const qy = below.cy;
    const platter = pixel(screen, qx, qy);
    const names = ["Cellular Data", "Bluetooth", "Personal Hotspot", "VPN"];
    const offsets: [number, number][] = [
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ];
    for (const [i, [dx, dy]] of offsets.entries()) {
      const small: Disc = { cx: qx + dx * 0.22 * sx, cy: qy + dy * 0.22 * sx, d: 0.44 * o.d };
      const fill = ringColour(screen, small.cx, small.cy, 0.35 * small.d);
      if (diff(fill, platter) < FROM_PLATTER) continue;
      out.push(toggle(screen, small, names[i] ?? ""));
    }
    return out;
  }
  return [];
}

function toggle(screen: RgbImage, q: Disc, label: string): ControlCenterToggle {
  const fill = ringColour(screen, q.cx, q.cy, 0.38 * q.d);
  const W = screen.width;
  const H = screen.height;
  return {
    box: [(q.cx - q.d / 2) / W, (q.cy - q.d / 2) / H, (q.cx + q.d / 2) / W, (q.cy + q.d / 2) / H],
    on: saturation(fill) >= TINT,
    label,
  };
}
