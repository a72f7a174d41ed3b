import { luma, type RgbImage } from "../shared/image.js";
import type { ListingEntry } from "../vision/listing.js";
import type { ScreenPoint } from "./screen-geometry.js";

/**
 * Finding the passcode keypad in a listing: the ten digits read by OCR, in a phone keypad's 3×4 layout
 * (1 2 3 / 4 5 6 / 7 8 9 / _ 0 _). Stray digits elsewhere (a badge, a clock) are ruled out by the
 * layout, and a digit OCR missed is placed from the grid of the others.
 */

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] as const;
type Digit = (typeof DIGITS)[number];

/** Column and row of each key. */
function cell(d: Digit): { col: number; row: number } {
  if (d === "0") return { col: 1, row: 3 };
  const i = Number(d) - 1;
  return { col: i % 3, row: Math.floor(i / 3) };
}

/** Characters OCR reads for a lone digit in a thin font. */
const LOOKALIKES: Record<string, Digit> = { O: "0", o: "0", D: "0", l: "1", I: "1", "|": "1", i: "1" };

function asDigit(label: string): Digit | null {
  const t = label.trim();
  if (t.length !== 1) return null;
  if ((DIGITS as readonly string[]).includes(t)) return t as Digit;
  return LOOKALIKES[t] ?? null;
}

export interface KeypadKey {
  at: ScreenPoint;
  /** True when OCR did not read this key and its place comes from the grid. */
  inferred: boolean;
}

export type Keypad = Record<Digit, KeypadKey>;

/** Fewest digits OCR must read before the rest may be placed from the grid. */
const MIN_READ = 7;

const median = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** The keypad in `entries`, or null when there is none (too few digits, or not in a keypad layout). */
export function findKeypad(entries: readonly ListingEntry[]): Keypad | null {
  const candidates = new Map<Digit, ScreenPoint[]>();
  for (const e of entries) {
    if (e.kind !== "text") continue;
    const d = asDigit(e.label);
    if (!d) continue;
    const at = { x: (e.box[0] + e.box[2]) / 2, y: (e.box[1] + e.box[3]) / 2 };
    candidates.set(d, [...(candidates.get(d) ?? []), at]);
  }
  // The grid from digits read exactly once, then each digit's candidate nearest its grid cell.
  const grid = fitGrid(
    [...candidates].flatMap(([d, pts]) => (pts.length === 1 && pts[0] ? [{ d, at: pts[0] }] : [])),
  );
  if (!grid) return null;
  const found = new Map<Digit, ScreenPoint>();
  for (const [d, pts] of candidates) {
    const { col, row } = cell(d);
    const want = { x: grid.cols[col] ?? 0, y: grid.rows[row] ?? 0 };
    const best = [...pts].sort(
      (a, b) => Math.hypot(a.x - want.x, a.y - want.y) - Math.hypot(b.x - want.x, b.y - want.y),
    )[0];
    // A candidate more than a third of a key pitch away from its cell is not that key.
    if (best && Math.abs(best.x - want.x) < grid.pitchX / 3 && Math.abs(best.y - want.y) < grid.pitchY / 3)
      found.set(d, best);
  }
  if (found.size < MIN_READ) return null;
  const keypad = {} as Keypad;
  for (const d of DIGITS) {
    const { col, row } = cell(d);
    const at = found.get(d);
    keypad[d] = at
      ? { at, inferred: false }
      : { at: { x: grid.cols[col] ?? 0, y: grid.rows[row] ?? 0 }, inferred: true };
  }
  return keypad;
}

interface Grid {
  cols: [number, number, number];
  rows: [number, number, number, number];
  pitchX: number;
  pitchY: number;
}

/** Column x and row y centres from placed digits; null unless they look like an evenly spaced keypad. */
function fitGrid(placed: { d: Digit; at: ScreenPoint }[]): Grid | null {
  const xs: number[][] = [[], [], []];
  const ys: number[][] = [[], [], [], []];
  for (const { d, at } of placed) {
    const { col, row } = cell(d);
    xs[col]?.push(at.x);
    ys[row]?.push(at.y);
  }
  const c = xs.map(median);
  const r = ys.map(median);
  const [c0, c1, c2] = c;
  const [r0, r1, r2] = r;
  if (c0 === undefined || c1 === undefined || c2 === undefined) return null;
  if (r0 === undefined || r1 === undefined || r2 === undefined) return null;
  const pitchX = (c2 - c0) / 2;
  const pitchY = (r2 - r0) / 2;
  if (!(pitchX > 0.05 && pitchY > 0.03)) return null;
  // Evenly spaced within 25 %: three digits in a row somewhere else on a screen do not pass this.
  if (Math.abs(c1 - c0 - pitchX) > pitchX / 4 || Math.abs(r1 - r0 - pitchY) > pitchY / 4) return null;
  const r3 = r[3] ?? r2 + pitchY;
  return { cols: [c0, c1, c2], rows: [r0, r1, r2, r3], pitchX, pitchY };
}

/** The lock screen's own hint (iOS: "Swipe up to open"; Chinese UI: "向上轻扫以打开"). */
const LOCK_HINT = /swipe\s*up\s*to\s*(open|unlock)|向上轻扫/i;

/**
 * The lock screen is showing: a text row carries the lock screen's swipe-up hint. After typing the
 * passcode this means the phone fell back to the lock screen (the keypad timed out, or taps went
 * astray), so "the keypad is gone" alone would be a false "unlocked".
 */
export function looksLocked(entries: readonly ListingEntry[]): boolean {
  return entries.some((e) => e.kind === "text" && LOCK_HINT.test(e.label));
}

/**
 * A screen that is off: nearly black everywhere and no text on it (the detector may still report a
 * faint "icon" or two in the glass's reflections).
 */
export function looksDark(screen: RgbImage, entries: readonly ListingEntry[]): boolean {
  if (entries.some((e) => e.kind === "text")) return false;
  const { data } = screen;
  let sum = 0;
  let n = 0;
  // Every 7th pixel is plenty for a mean.
  for (let i = 0; i + 2 < data.length; i += 3 * 7) {
    sum += luma(data, i);
    n++;
  }
  return n > 0 && sum / n < 28;
}
