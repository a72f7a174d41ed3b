import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";
import { bestTemplate, inkMask } from "./icon-shapes.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";
import { draw, line, type Mask, type Plot, polygon, thicken } from "./shape-templates.js";

/**
 * Control Center's 1×1 toggle modules (Orientation Lock, Silent Mode, Flashlight): a round (iOS 18) or
 * rounded-square (iOS 11–17) plate holding one symbol and no caption. Apple's Human Interface
 * Guidelines ("Controls": a control toggle "switches between two states, such as on and off", shown
 * by its symbol and its appearance) and Apple Support ("Use and customize Control Center on iPhone")
 * describe them; iOS draws an off toggle as a dark translucent plate under a white symbol and an on
 * toggle as a filled white (or tinted) plate under a dark or tinted symbol. So the state is the
 * plate's polarity against its symbol — the plate brighter than the symbol is on — which holds on any
 * wallpaper and survives a camera's blur and contrast loss (both shift plate and symbol together).
 *
 * Only looked for once the connectivity module has been found (`switches-control-center.ts`): that is
 * what makes a screen Control Center. A candidate is a near-square icon row of a module's size (0.8–1.6
 * of the module's big disc) outside the connectivity module, named by its symbol when the symbol's ink
 * matches one of the shapes below (drawn here from lines and polygons like `shape-templates.ts`, after
 * SF Symbols' `lock.rotation`, `bell.fill` / `bell.slash.fill` and `flashlight.off.fill`; no Apple
 * artwork is used). Other modules (camera, alarm, timer, remote…) are buttons and stay as they are.
 */

export interface CcModuleToggle {
  box: FracBox;
  on: boolean;
  label: string;
  /** The icon row the toggle replaces. */
  row: Candidate;
}

/** A template must overlap the symbol's ink this well (Dice, both thickened) … */
const MIN_SCORE = 0.85;
/** … and beat every other name by this much. */
const MIN_MARGIN = 0.1;
/** A module's size relative to the connectivity module's big discs (iOS 18: 64 pt vs 55 pt). */
const SIZE = { min: 0.8, max: 1.6 };
/** The symbol's crop: this fraction of the plate's diameter either side of its centre (inside a circle). */
const CROP = 0.34;

function arc(p: Plot, cx: number, cy: number, r: number, from: number, to: number): void {
  for (let a = from; a <= to; a += 3)
    p(cx + r * Math.cos((a * Math.PI) / 180), cy + r * Math.sin((a * Math.PI) / 180));
}

/** `bell.fill`: a dome widening to a flared rim, the clapper below it. */
const bell = (): Mask => {
  const m = polygon([
    [10, 0.5],
    [14, 0.5],
    [17.5, 4],
    [18.5, 13],
    [23, 17],
    [23, 19.5],
    [1, 19.5],
    [1, 17],
    [5.5, 13],
    [6.5, 4],
  ]);
  return polygon(
    [
      [9, 21],
      [15, 21],
      [13.5, 23.5],
      [10.5, 23.5],
    ],
    m,
  );
};

/**
 * Structure a symbol must have (`icon-shapes.ts`' scale-invariant gate): the rotation arrow encloses
 * the padlock (two parts, or a hole when they touch); a filled bell hangs its clapper apart (two or
 * more parts) and has no hole (a padlock's shackle makes one); a torch is tall, with at most its switch cut out (a remote has several buttons).
 */
const GATES: Record<string, (s: { parts: number; holes: number; aspect: number }) => boolean> = {
  "Orientation Lock": (s) => (s.parts >= 2 || s.holes >= 1) && s.aspect >= 0.8 && s.aspect <= 1.25,
  "Silent Mode": (s) => s.parts >= 2 && s.holes === 0 && s.aspect >= 0.8 && s.aspect <= 1.3,
  Flashlight: (s) => s.parts === 1 && s.holes <= 1 && s.aspect <= 0.65,
};

const TEMPLATES: { name: string; mask: Mask }[] = [
  {
    // `lock.rotation`: a circular arrow round a padlock (its body below the middle, shackle above).
    name: "Orientation Lock",
    mask: (() => {
      const m = draw((p) => {
        arc(p, 11.5, 12, 10.2, -20, 320);
        line(p, 21.5, 10.5, 23, 6.5);
        line(p, 21.5, 10.5, 18, 8.5);
        arc(p, 11, 10, 2.4, 180, 360);
        line(p, 8.6, 10, 8.6, 12);
        line(p, 13.4, 10, 13.4, 12);
      }, 2);
      return polygon(
        [
          [6.5, 12],
          [15.5, 12],
          [15.5, 17],
          [6.5, 17],
        ],
        m,
      );
    })(),
  },
  { name: "Silent Mode", mask: bell() },
  {
    // `bell.slash.fill`: the bell crossed by a bar from top left to bottom right.
    name: "Silent Mode",
    mask: draw((p) => line(p, 2, 1.5, 22, 22.5), 2.5, bell()),
  },
  {
    // `flashlight.off.fill`: a tall torch — a wide head tapering into a narrow barrel.
    name: "Flashlight",
    mask: polygon([
      [6, 0.5],
      [18, 0.5],
      [18, 5],
      [15, 9],
      [15, 23.5],
      [9, 23.5],
      [9, 9],
      [6, 5],
    ]),
  },
].map((t) => ({ ...t, mask: thicken(t.mask) }));

/** The toggle module's name for a symbol's ink mask, or null when no shape is a clear match. */
export function classifyCcSymbol(mask: Mask): string | null {
  return bestTemplate(mask, TEMPLATES, (t, shape) => GATES[t.name]?.(shape) ?? false, MIN_SCORE, MIN_MARGIN);
}

/**
 * The plate's polarity: true (on) when the plate is brighter than the symbol's ink. The plate is the
 * median luma on a ring at 0.42 of the diameter (outside the symbol, inside the plate); the ink is the
 * mean luma of the crop's pixels farthest from it (its top decile of difference).
 */
function plateIsOn(screen: RgbImage, cx: number, cy: number, d: number): boolean {
  const { width: W, height: H, data } = screen;
  const at = (x: number, y: number): number =>
    luma(
      data,
      (Math.min(H - 1, Math.max(0, Math.round(y))) * W + Math.min(W - 1, Math.max(0, Math.round(x)))) * 3,
    );
  const ring: number[] = [];
  for (let i = 0; i < 16; i++) {
    const a = (i / 16) * 2 * Math.PI;
    ring.push(at(cx + 0.42 * d * Math.cos(a), cy + 0.42 * d * Math.sin(a)));
  }
  ring.sort((a, b) => a - b);
  const plate = ring[ring.length >> 1] ?? 0;
  const ink: number[] = [];
  const h = CROP * d;
  for (let y = cy - h; y < cy + h; y += 1) for (let x = cx - h; x < cx + h; x += 1) ink.push(at(x, y));
  ink.sort((a, b) => Math.abs(b - plate) - Math.abs(a - plate));
  const top = ink.slice(0, Math.max(1, Math.floor(ink.length / 10)));
  const mean = top.reduce((s, v) => s + v, 0) / top.length;
  return plate > mean;
}

/**
 * Control Center's 1×1 toggles among `rows`, given the connectivity module's toggles (`module`, boxes
 * as fractions): empty when there is no module.
 */
export function findCcModuleToggles(
  screen: RgbImage,
  rows: readonly Candidate[],
  module: readonly { box: FracBox }[],
): CcModuleToggle[] {
  if (module.length < 3) return [];
  const W = screen.width;
  const H = screen.height;
  // The big discs' diameter, px: the largest of the module's toggles (the quarter's small ones are less).
  const disc = Math.max(...module.map((t) => (boxWidth(t.box) * W + boxHeight(t.box) * H) / 2));
  const hull: FracBox = [
    Math.min(...module.map((t) => t.box[0])),
    Math.min(...module.map((t) => t.box[1])),
    Math.max(...module.map((t) => t.box[2])),
    Math.max(...module.map((t) => t.box[3])),
  ];
  const out: CcModuleToggle[] = [];
  for (const r of rows) {
    if (r.kind !== "icon" || contains(hull, centreX(r.box), centreY(r.box))) continue;
    const w = boxWidth(r.box) * W;
    const h = boxHeight(r.box) * H;
    if (Math.abs(w - h) > 0.2 * Math.max(w, h)) continue;
    const d = (w + h) / 2;
    if (d < SIZE.min * disc || d > SIZE.max * disc) continue;
    const cx = centreX(r.box) * W;
    const cy = centreY(r.box) * H;
    const c = CROP * d;
    const mask = inkMask(
      screen,
      Math.max(0, Math.round(cx - c)),
      Math.max(0, Math.round(cy - c)),
      Math.min(W, Math.round(cx + c)),
      Math.min(H, Math.round(cy + c)),
    );
    const label = mask && classifyCcSymbol(mask);
    if (!label) continue;
    out.push({ box: r.box, on: plateIsOn(screen, cx, cy, d), label, row: r });
  }
  return out;
}
