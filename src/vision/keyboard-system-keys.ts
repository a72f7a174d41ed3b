import type { FracBox } from "../shared/box.js";
import { luma, type RgbImage } from "../shared/image.js";
import type { Candidate } from "./row.js";
import { centreX, centreY } from "./row.js";

/**
 * The keyboard's system keys outside its letter grid, from the detector's icon rows. On Face ID iPhones
 * (iOS 11+) the keyboard keeps a strip under its bottom row with the keyboard-switch key at the left —
 * the emoji face, or the globe when more than one keyboard is installed — and the dictation microphone
 * at the right (Apple, "Use the onscreen keyboard on iPhone", support.apple.com/guide/iphone/iph3c50f96e).
 * With the globe down there, the emoji key moves into the bottom row between `123` and the space bar.
 */

/** The Face ID strip under the keys: centres this many row pitches below the bottom row's. */
const STRIP_BELOW = { min: 0.6, max: 2 };

/** The fitted keyboard as this module needs it (see `KeyboardFit` in keyboard.ts). */
export interface KeyGrid {
  left: number;
  pitch: number;
  /** First letter row's centre and the row pitch (fractions of the screen height). */
  top: number;
  rowPitch: number;
}

/**
 * Globe or emoji face, told apart by the symbol's middle lines: the globe (SF Symbol `globe`) draws its
 * equator straight across the disc and a meridian straight down it, the smiling face (`face.smiling`)
 * leaves the middle empty between its eyes and mouth. Ink is what differs from the box's border by more than 40 luma levels.
 */
export function globeOrEmoji(screen: RgbImage, box: FracBox): "globe" | "emoji" {
  const { width: W, height: H, data } = screen;
  const x0 = Math.max(0, Math.round(box[0] * W));
  const x1 = Math.min(W - 1, Math.round(box[2] * W));
  const y0 = Math.max(0, Math.round(box[1] * H));
  const y1 = Math.min(H - 1, Math.round(box[3] * H));
  if (x1 - x0 < 6 || y1 - y0 < 6) return "emoji";
  const at = (x: number, y: number): number => luma(data, (y * W + x) * 3);
  const border: number[] = [];
  for (let x = x0; x <= x1; x++) border.push(at(x, y0), at(x, y1));
  for (let y = y0; y <= y1; y++) border.push(at(x0, y), at(x1, y));
  border.sort((a, b) => a - b);
  const bg = border[Math.floor(border.length / 2)] ?? 0;
  const ink = (x: number, y: number): boolean => Math.abs(at(x, y) - bg) > 40;
  // The symbol's own extent (the detector's box is looser).
  let ix0 = x1;
  let ix1 = x0;
  let iy0 = y1;
  let iy1 = y0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++)
      if (ink(x, y)) {
        ix0 = Math.min(ix0, x);
        ix1 = Math.max(ix1, x);
        iy0 = Math.min(iy0, y);
        iy1 = Math.max(iy1, y);
      }
  if (ix1 - ix0 < 6 || iy1 - iy0 < 6) return "emoji";
  // The inner 60% of the middle rows (±4% of the height): an equator inks nearly all of it.
  const cy = Math.round((iy0 + iy1) / 2);
  const dy = Math.max(1, Math.round(0.04 * (iy1 - iy0)));
  const from = Math.round(ix0 + 0.2 * (ix1 - ix0));
  const to = Math.round(ix1 - 0.2 * (ix1 - ix0));
  let best = 0;
  for (let y = cy - dy; y <= cy + dy; y++) {
    let n = 0;
    for (let x = from; x <= to; x++) if (ink(x, y)) n++;
    best = Math.max(best, n / Math.max(1, to - from + 1));
  }
  // And its central meridian straight down the disc (the keyboard's globe since iOS 7 and SF Symbols'
  // `globe` draw one): iOS 7–8's open-mouthed emoji face has its mouth's top edge across the middle,
  // but down its middle only the mouth.
  const cx = Math.round((ix0 + ix1) / 2);
  const dx = Math.max(1, Math.round(0.04 * (ix1 - ix0)));
  const top = Math.round(iy0 + 0.2 * (iy1 - iy0));
  const bottom = Math.round(iy1 - 0.2 * (iy1 - iy0));
  let down = 0;
  for (let x = cx - dx; x <= cx + dx; x++) {
    let n = 0;
    for (let y = top; y <= bottom; y++) if (ink(x, y)) n++;
    down = Math.max(down, n / Math.max(1, bottom - top + 1));
  }
  return best > 0.7 && down > 0.7 ? "globe" : "emoji";
}

/**
 * Key rows for the system keys found among `rows` (the detector's `icon` rows): under the bottom row,
 * the left one (globe or emoji) and the right one (`mic`); in the bottom row between `123` and the
 * space bar, an emoji or globe key. Returns the keys and the rows they replace.
 */
export function systemKeys(
  screen: RgbImage | undefined,
  rows: readonly Candidate[],
  grid: KeyGrid,
): { keys: Candidate[]; used: Set<Candidate> } {
  const { left, pitch, top, rowPitch } = grid;
  const bottom = top + 3 * rowPitch;
  const keys: Candidate[] = [];
  const used = new Set<Candidate>();
  const name = (box: FracBox): string => (screen ? globeOrEmoji(screen, box) : "emoji");
  // One key per slot: a second icon row in a slot is the detector seeing the key twice. (Not one key per
  // name: a third-party keyboard's bottom-row switch key reads as a globe too, beside the strip's globe.)
  const taken = new Set<string>();
  for (const r of rows) {
    if (r.kind !== "icon") continue;
    const u = (centreX(r.box) - left) / pitch;
    const v = (centreY(r.box) - bottom) / rowPitch;
    let slot: "strip-left" | "strip-right" | "bottom" | null = null;
    if (v > STRIP_BELOW.min && v < STRIP_BELOW.max)
      slot = u < 2 ? "strip-left" : u > 8 ? "strip-right" : null;
    else if (Math.abs(v) < 0.4 && u > 1.25 && u < 2.45) slot = "bottom";
    if (slot === null || taken.has(slot)) continue;
    taken.add(slot);
    const label = slot === "strip-right" ? "mic" : name(r.box);
    keys.push({ kind: "key", label, box: r.box, conf: Math.min(0.9, r.conf + 0.2) });
    used.add(r);
  }
  return { keys, used };
}

/**
 * The keyboard-switch key of the Face ID strip when only the glyph proposer found it (after the
 * keyboard was laid out): an unnamed icon row in the strip (`STRIP_BELOW` row pitches below
 * the space bar's) and left of the space bar is that key, named by its symbol (globe or emoji face).
 * The row pitch is the space cap's height over 0.78 (caps are ≈ 0.78 of the row pitch; keyboard.ts).
 * Rows are unchanged without a space key.
 */
export function nameStripKey(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const space = rows.find((r) => r.kind === "key" && r.label === "space");
  if (!space) return [...rows];
  if (
    rows.some(
      (r) =>
        r.kind === "key" && (r.label === "globe" || r.label === "emoji") && centreY(r.box) > space.box[3],
    )
  )
    return [...rows];
  const rowPitch = (space.box[3] - space.box[1]) / 0.78;
  let done = false;
  return rows.map((r) => {
    if (done || r.kind !== "icon" || r.label !== "") return r;
    const v = (centreY(r.box) - centreY(space.box)) / rowPitch;
    if (v <= STRIP_BELOW.min || v >= STRIP_BELOW.max || centreX(r.box) >= space.box[0]) return r;
    done = true;
    return { ...r, kind: "key", label: globeOrEmoji(screen, r.box) };
  });
}
