import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { findCallButton } from "./dial-pad-call.js";
import { findCapGrid } from "./dial-pad-caps.js";
import { capContrast, glyphInk } from "./dial-pad-pixels.js";
import { plusUnderZero } from "./dial-pad-plus.js";
import { t9Extras } from "./dial-pad-t9.js";
import { bottomRowKey } from "./keyboard.js";
import { isSystemNumberPad, systemPadCorners } from "./number-pad.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * The phone keypad — the Phone app's dial pad and the passcode keypad — found from its digits and
 * listed key by key. The digits read by OCR are fitted to a keypad's 3×4 layout (1 2 3 / 4 5 6 /
 * 7 8 9 / * 0 #); stray digits elsewhere (a badge, a clock) are ruled out by the layout, and a digit OCR
 * missed is placed from the grid of the others. Each key's tap box is its round cap: Apple's keypad
 * keys are 75–78 pt circles on a ~100 pt horizontal and ~90 pt vertical pitch (Phone app and
 * passcode screen on 375–430 pt wide iPhones; the circle is ~0.78 of the horizontal pitch). `*` and `#`
 * are listed when their cap is drawn (the passcode keypad leaves those cells empty), and the green
 * call button, when present, is `[key] "call"` (`dial-pad-call.ts`).
 */

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] as const;
export type Digit = (typeof DIGITS)[number];

/** Column and row of each key. */
function cell(d: Digit): { col: number; row: number } {
  if (d === "0") return { col: 1, row: 3 };
  const i = Number(d) - 1;
  return { col: i % 3, row: Math.floor(i / 3) };
}

/** Characters OCR reads for a lone digit in a thin font. */
const LOOKALIKES: Record<string, Digit> = { O: "0", o: "0", D: "0", l: "1", I: "1", "|": "1", i: "1" };

function asDigit(label: string): Digit | null {
  // A keypad prints no degree sign: a `°` read after a lone digit is the cap's edge (`degree-sign.ts`).
  const t = label.trim().replace(/^(\d)°$/, "$1");
  if (t.length !== 1) return null;
  if ((DIGITS as readonly string[]).includes(t)) return t as Digit;
  return LOOKALIKES[t] ?? null;
}

export interface PadPoint {
  x: number;
  y: number;
}

export interface PadKey {
  at: PadPoint;
  /** True when OCR did not read this key and its place comes from the grid. */
  inferred: boolean;
}

export interface PadGrid {
  cols: [number, number, number];
  rows: [number, number, number, number];
  pitchX: number;
  pitchY: number;
  /** The caps' measured size (fractions of width and height) when the keypad was found from its caps. */
  cap?: { w: number; h: number };
}

export interface DialPad {
  keys: Record<Digit, PadKey>;
  grid: PadGrid;
}

/** Fewest digits OCR must read before the rest may be placed from the grid. */
const MIN_READ = 7;

const median = (xs: number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/**
 * The keypad among `rows` (only `text` and `key` rows count), or null when there is none (too few
 * digits, or not in a keypad layout).
 */
export function findDialPad(rows: readonly Pick<Candidate, "kind" | "label" | "box">[]): DialPad | null {
  const candidates = new Map<Digit, PadPoint[]>();
  for (const e of rows) {
    if (e.kind !== "text" && e.kind !== "key") continue;
    const d = asDigit(e.label);
    if (!d) continue;
    const at = { x: centreX(e.box), y: centreY(e.box) };
    candidates.set(d, [...(candidates.get(d) ?? []), at]);
  }
  // The grid from digits read exactly once, then each digit's candidate nearest its grid cell.
  const grid = fitGrid(
    [...candidates].flatMap(([d, pts]) => (pts.length === 1 && pts[0] ? [{ d, at: pts[0] }] : [])),
  );
  if (!grid) return null;
  const found = new Map<Digit, PadPoint>();
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
  const keys = {} as Record<Digit, PadKey>;
  for (const d of DIGITS) {
    const { col, row } = cell(d);
    const at = found.get(d);
    keys[d] = at
      ? { at, inferred: false }
      : { at: { x: grid.cols[col] ?? 0, y: grid.rows[row] ?? 0 }, inferred: true };
  }
  return { keys, grid };
}

/** Column x and row y centres from placed digits; null unless they look like an evenly spaced keypad. */
function fitGrid(placed: { d: Digit; at: PadPoint }[]): PadGrid | null {
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
  // The `0` row from a `0` only when that `0` sits on the grid (under `8`, one pitch below): a `0` read
  // elsewhere (a key's icon misread, a badge) must not move the fourth row.
  const zero = placed.find((p) => p.d === "0")?.at;
  const onGrid =
    zero !== undefined && Math.abs(zero.x - c1) < pitchX / 3 && Math.abs(zero.y - (r2 + pitchY)) < pitchY / 4;
  const r3 = onGrid ? zero.y : r2 + pitchY;
  return { cols: [c0, c1, c2], rows: [r0, r1, r2, r3], pitchX, pitchY };
}

/** Share of a cell's middle that is ink when a glyph is drawn there (`glyphInk`; an empty cell reads ~0). */
const GLYPH_INK = 0.015;

/** Fewest digits OCR must read, each on its own cell's cap, before a grid of caps is taken for a keypad. */
const MIN_READ_ON_CAPS = 3;

/**
 * The keypad from a 3×4 grid of equal caps (`findCapGrid`) when OCR read too few digits for
 * `findDialPad`: believed when at least three digits OCR read sit on the caps the E.161 layout gives
 * them and more agree than not (a grid of round icons elsewhere — photos, emoji — has no digits in
 * those places). Each key is at its cap's centre; the digits OCR missed are `inferred`.
 */
export function padFromCaps(rows: readonly Candidate[], aspect: number): DialPad | null {
  const caps = findCapGrid(rows, aspect);
  if (!caps) return null;
  const rx = caps.capW / 2;
  const ry = caps.capH / 2;
  const read = new Set<Digit>();
  let agree = 0;
  let disagree = 0;
  for (const r of rows) {
    if (r.kind !== "text") continue;
    const d = asDigit(r.label);
    if (!d) continue;
    const x = centreX(r.box);
    const y = centreY(r.box);
    const at = caps.cells.findIndex((c) => c !== null && Math.abs(c.x - x) < rx && Math.abs(c.y - y) < ry);
    if (at < 0) continue;
    const { col, row } = cell(d);
    if (at === row * 3 + col) {
      agree++;
      read.add(d);
    } else disagree++;
  }
  if (agree < MIN_READ_ON_CAPS || agree <= disagree) return null;
  const keys = {} as Record<Digit, PadKey>;
  for (const d of DIGITS) {
    const { col, row } = cell(d);
    const c = caps.cells[row * 3 + col];
    keys[d] = { at: c ?? { x: caps.cols[col] ?? 0, y: caps.rows[row] ?? 0 }, inferred: !read.has(d) };
  }
  const { cols, rows: ys, pitchX, pitchY } = caps;
  return { keys, grid: { cols, rows: ys, pitchX, pitchY, cap: { w: caps.capW, h: caps.capH } } };
}

/** Words on a passcode screen: its bottom corners hold text buttons, not `*` and `#`. */
const PASSCODE_HINT = /passcode|emergency|cancel|密码|密碼|紧急|取消/i;

/** Whether a text row is a key's own glyph (its digit, `*`, `#`), read into the key row's label. */
const isGlyph = (label: string): boolean => asDigit(label) !== null || /^[*＊#]$/.test(label.trim());

/**
 * Text a keypad prints on a key under its digit: the E.161 letters (`ABC` … `WXYZ`, capitals, three or
 * four) or the `+` of a long press on `0` — part of the key, not a word that makes the cell a button.
 */
const isKeyLetters = (label: string): boolean =>
  /^([A-Z]{3,4}|\+)$/.test(label.replace(/\s/g, "").toUpperCase());

/**
 * The rows with a recognised keypad listed key by key (`[key] "1"`…`"#"`, `"call"`), the OCR
 * digits and detector boxes on the caps dropped. Other text printed on a cap — the letters under a
 * digit (`ABC`), the `+` under `0` — stays a `text` row of its own inside the key: it is what a person
 * reads there, and the key row's label stays the one character the key types. Unchanged without a
 * keypad.
 *
 * The same 3×3 digit grid is the Chinese 9-key (T9) keyboard's when its fourth row holds keyboard words
 * (`123`, `拼音`/`空格`, `return`…, `bottomRowKey`): then there is no `*`, `0`, `#` or call button, and
 * those words (and a lone `中`/`英` layer key) become key rows.
 */
export function applyDialPad(screen: RgbImage, rows: readonly Candidate[]): Candidate[] {
  const aspect = screen.height / screen.width;
  const pad = findDialPad(rows.filter((r) => r.kind === "text")) ?? padFromCaps(rows, aspect);
  if (!pad) return [...rows];
  const { grid } = pad;
  // The cap as measured, else ~0.78 of the horizontal pitch and never taller than 0.9 of the vertical.
  const d = grid.cap?.w ?? Math.min(0.78 * grid.pitchX, 0.9 * grid.pitchY * aspect);
  const rx = d / 2;
  const ry = grid.cap ? grid.cap.h / 2 : rx / aspect;
  const capAt = (x: number, y: number): FracBox => [x - rx, y - ry, x + rx, y + ry];
  const onCap = (r: Candidate, x: number, y: number): boolean =>
    Math.abs(centreX(r.box) - x) < rx && Math.abs(centreY(r.box) - y) < ry;
  // Keyboard words on the fourth row's line: a T9 keyboard, not a phone keypad.
  const bottomWords = rows.filter(
    (r) =>
      r.kind === "text" &&
      Math.abs(centreY(r.box) - grid.rows[3]) < grid.pitchY / 3 &&
      (bottomRowKey(r.label) !== null || /^[中英]$/.test(r.label.trim())),
  );
  const t9 = bottomWords.some((r) => bottomRowKey(r.label) !== null);
  const keys: Candidate[] = [];
  const caps: PadPoint[] = [];
  const glyphs = new Set<Candidate>();
  const glyphOf = new Map<Digit, Candidate>();
  for (const digit of DIGITS) {
    const { col, row } = cell(digit);
    const x = grid.cols[col] ?? 0;
    const y = grid.rows[row] ?? 0;
    const glyph = rows.find((r) => r.kind === "text" && asDigit(r.label) === digit && onCap(r, x, y));
    if (glyph) glyphOf.set(digit, glyph);
  }
  const digitBox = usualDigitBox(grid, glyphOf);
  for (const digit of DIGITS) {
    const { col, row } = cell(digit);
    const x = grid.cols[col] ?? 0;
    const y = grid.rows[row] ?? 0;
    // A key OCR did not read is placed from the grid unless a word sits there (its own button); one
    // other character alone on the cap is its digit misread (`2` as `N`), part of the key.
    const other = rows.filter(
      (r) => r.kind === "text" && onCap(r, x, y) && !isGlyph(r.label) && !isKeyLetters(r.label),
    );
    const word = other.some((r) => Array.from(r.label.trim()).length > 1);
    const glyph = glyphOf.get(digit) ?? (pad.keys[digit].inferred && !word ? other[0] : undefined);
    if (glyph) glyphs.add(glyph);
    if (pad.keys[digit].inferred && (word || (t9 && row === 3))) continue;
    keys.push({
      kind: "key",
      label: digit,
      box: capAt(x, y),
      ...(glyph ? { labelBox: glyph.box } : digitBox ? { labelBox: digitBox(x, y) } : {}),
      conf: pad.keys[digit].inferred ? 0.6 : 0.95,
    });
    caps.push({ x, y });
  }
  const passcode = rows.some((r) => r.kind === "text" && PASSCODE_HINT.test(r.label));
  // A cap is drawn in a cell when it is filled (contrast with the cell's corners), when the detector
  // found a shape of a cap's size there (an outline ring), or when a glyph's ink sits in its middle
  // (`*` or `#` OCR did not read, on iOS 6's flat cells or inside a thin ring).
  const drawnAt = (x: number, y: number): boolean =>
    capContrast(screen, x, y, rx, ry) > 10 ||
    rows.some(
      (r) =>
        r.kind === "icon" &&
        Math.abs(centreX(r.box) - x) < rx / 2 &&
        Math.abs(centreY(r.box) - y) < ry / 2 &&
        boxWidth(r.box) > 1.4 * rx,
    ) ||
    glyphInk(screen, x, y, rx, ry) > GLYPH_INK;
  const starX = grid.cols[0];
  const noStar =
    !rows.some((r) => r.kind === "text" && onCap(r, starX, grid.rows[3])) &&
    (passcode || !drawnAt(starX, grid.rows[3]));
  // UIKit's number and decimal pads have no `*` or `#`: a decimal separator or nothing, and delete.
  const systemPad = !t9 && isSystemNumberPad(grid);
  const corners = systemPad ? systemPadCorners(screen, rows, grid.cols, grid.rows[3], { rx, ry }) : null;
  for (const g of corners?.glyphs ?? []) glyphs.add(g);
  for (const k of corners?.keys ?? []) {
    keys.push(k);
    caps.push({ x: centreX(k.box), y: centreY(k.box) });
  }
  for (const [label, col] of t9 || systemPad
    ? []
    : ([
        ["*", 0],
        ["#", 2],
      ] as const)) {
    const x = grid.cols[col];
    const y = grid.rows[3];
    const text = rows.find((r) => r.kind === "text" && onCap(r, x, y));
    if (text && Array.from(text.label.trim()).length > 1) continue; // a word there is its own button
    // The passcode and number pads draw the delete key (⌫, a symbol OCR does not read) in the `#` cell
    // and leave the `*` cell empty; the Phone keypad has `*` there and its `#` is a glyph.
    const backspace = !text && col === 2 && noStar && rows.some((r) => r.kind === "icon" && onCap(r, x, y));
    const drawn = !passcode && drawnAt(x, y);
    if (!text && !drawn && !backspace) continue;
    const glyph = text?.label.trim();
    // The `#` cell holds `#` or the delete symbol, which OCR reads as anything (`x`, `⌫`, even `卤`).
    const name = backspace || (col === 2 && glyph !== undefined && !/^[#＃]$/.test(glyph)) ? "delete" : label;
    if (text) glyphs.add(text);
    keys.push({
      kind: "key",
      label: name,
      box: capAt(x, y),
      ...(text ? { labelBox: text.box } : {}),
      conf: text ? 0.9 : 0.7,
    });
    caps.push({ x, y });
  }
  // The green call button (`dial-pad-call.ts`) is a key of the pad: it is what dials the typed number.
  const call = t9 ? undefined : findCallButton(screen, rows, grid.cols, grid.rows[3], grid.pitchY, rx, ry);
  if (call !== undefined) {
    const { x: callAt, y: callY } = call;
    keys.push({ kind: "key", label: "call", box: capAt(callAt, callY), conf: 0.9 });
    caps.push({ x: callAt, y: callY });
    // The Phone app's delete key sits right of the call button, in the `#` column (a ⌫ symbol).
    const del = rows.find((r) => r.kind === "icon" && onCap(r, grid.cols[2], callY));
    if (del) {
      keys.push({ kind: "key", label: "delete", box: capAt(grid.cols[2], callY), conf: 0.7 });
      caps.push({ x: grid.cols[2], y: callY });
    }
  }
  const bottomKeys: FracBox[] = [];
  if (t9)
    for (const w of bottomWords) {
      const label = bottomRowKey(w.label) ?? w.label.trim();
      // The word is the key's middle; the key is as tall as a cap (T9 keys are short rounded rectangles).
      const pad = 0.25 * boxHeight(w.box) * aspect;
      const box: FracBox = [w.box[0] - pad, centreY(w.box) - ry, w.box[2] + pad, centreY(w.box) + ry];
      keys.push({ kind: "key", label, box, labelBox: w.box, conf: 0.9 });
      bottomKeys.push(box);
      if (label === w.label.trim()) glyphs.add(w);
    }
  if (t9)
    for (const k of t9Extras(screen, rows, grid.rows[3], grid.pitchY, keys)) {
      keys.push(k);
      bottomKeys.push(k.box);
    }
  const system = keys.filter((k) => k.label === "mic" || k.label === "globe" || k.label === "emoji");
  const kept = rows.filter(
    (r) =>
      !glyphs.has(r) &&
      // A system key's symbol read as a character (the mic as `0`) or found as an icon.
      !system.some((k) => contains(k.box, centreX(r.box), centreY(r.box))) &&
      !(
        r.kind !== "text" &&
        (caps.some((c) => onCap(r, c.x, c.y)) ||
          bottomKeys.some((b) => contains(b, centreX(r.box), centreY(r.box))))
      ),
  );
  // The `+` printed under `0` beside the letters, a glyph too small for the text detector.
  const plus = t9 || systemPad || passcode ? null : plusUnderZero(screen, rows, grid);
  return [...kept, ...keys, ...(plus ? [plus] : [])];
}

/**
 * Where a digit sits on its key, from the digits OCR read (median offset from the cell's centre and
 * median size): a keypad draws every digit at the same place on its cap, above its letters. A digit OCR
 * missed is given that box as its `labelBox`, so what the key reads is placed on its digit and not over
 * the letters (`ABC`, `+`) printed under it. Null with fewer than three digits read.
 */
function usualDigitBox(
  grid: PadGrid,
  glyphOf: ReadonlyMap<Digit, Candidate>,
): ((x: number, y: number) => FracBox) | null {
  const seen = [...glyphOf].map(([d, g]) => {
    const { col, row } = cell(d);
    return {
      dx: centreX(g.box) - (grid.cols[col] ?? 0),
      dy: centreY(g.box) - (grid.rows[row] ?? 0),
      w: boxWidth(g.box),
      h: boxHeight(g.box),
    };
  });
  if (seen.length < 3) return null;
  const dx = median(seen.map((s) => s.dx)) ?? 0;
  const dy = median(seen.map((s) => s.dy)) ?? 0;
  const w = median(seen.map((s) => s.w)) ?? 0;
  const h = median(seen.map((s) => s.h)) ?? 0;
  return (x, y) => [x + dx - w / 2, y + dy - h / 2, x + dx + w / 2, y + dy + h / 2];
}
