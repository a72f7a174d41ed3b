import type { FracBox } from "../shared/box.js";
import type { RgbImage } from "../shared/image.js";
import { bottomRowCaps } from "./keyboard-bottom-row.js";
import { capsUpperCase } from "./keyboard-case.js";
import { systemKeys } from "./keyboard-system-keys.js";
import type { Candidate } from "./row.js";
import { boxHeight, boxWidth, centreX, centreY } from "./row.js";

/**
 * The iOS on-screen keyboard, key by key. OCR reads only some key caps (a lone letter is a hard crop),
 * so the keyboard is recognised from a few anchors — single letters on the letter rows, the words on
 * the bottom row (`space`, `return`, `123`, `ABC`, Chinese `空格`, `换行`…), digits on the number row —
 * and every key is then placed from the keyboard's fixed geometry, fitted to those anchors by least
 * squares: key pitch `p` and left edge from the anchors' x, row pitch and first row from their y.
 *
 * Geometry (portrait iPhone, all UIKit keyboards since iOS 7; Apple publishes no drawing of it, so the
 * proportions are measured on screenshots of iOS 16–17 on 375–430 pt wide iPhones, and they match the
 * published descriptions of the layout in Apple's HIG "Virtual keyboards" and the UIKit text-input guide):
 *   - the keys span the screen's width: 10 letter keys per top row, key pitch p = width / 10, each cap
 *     ≈ 0.85 p wide (6 pt gaps on a 39 pt pitch);
 *   - row 1 `qwertyuiop` centres at (i + 0.5) p; row 2 `asdfghjkl` at (i + 1) p; row 3 `zxcvbnm` at
 *     (i + 2) p with shift (≈ 0.1–1.2 p) and delete (≈ 8.8–9.9 p) at the ends; row pitch ≈ 1.38 p,
 *     caps ≈ 0.78 of it tall (42 pt of 54);
 *   - bottom row: `123` (≈ 0.1–2.3 p), `space` (≈ 2.45–7.55 p), `return` (≈ 7.7–9.9 p); on
 *     Face ID iPhones the emoji and dictation keys sit below, outside the grid. Touch ID iPhones put
 *     them in the row; with the screen's pixels the row is measured cap by cap instead
 *     (`keyboard-bottom-row.ts`).
 *   - the 123 layer: `1234567890`, `-/:;()$&@"`, then `#+=` · `. , ? ! '` (five caps 1.4 p wide) ·
 *     delete, and `ABC` · space · return; the #+= layer: `[]{}#%^*+=`, `_\|~<>€£¥•`, `123` · same.
 *   - the Chinese pinyin keyboard has the QWERTY layout (its bottom row reads `123` · `空格` · `换行`).
 */

/** One key to list: the label (character or name) and its cap's box. */
interface Key {
  label: string;
  box: FracBox;
}

const LETTER_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"] as const;
const NUMBER_ROWS = ["1234567890", '-/:;()$&@"'] as const;
const SYMBOL_ROWS = ["[]{}#%^*+=", "_\\|~<>€£¥•"] as const;
const PUNCTUATION = [".", ",", "?", "!", "'"] as const;
/** Where each row's first key centre sits, in key pitches from the keyboard's left edge. */
const ROW_OFFSET = [0.5, 1, 2] as const;

/** Bottom-row words OCR reads, and the key each names (position in pitches). */
const BOTTOM_WORDS: { re: RegExp; label: string; u: number }[] = [
  { re: /^(space|空格|スペース|拼音)$/i, label: "space", u: 5 },
  {
    re: /^(return|go|search|send|done|next|join|route|换行|確認|确认|发送|搜索|前往|完成|下一项|改行)$/i,
    label: "return",
    u: 8.8,
  },
  { re: /^123$/, label: "123", u: 1.2 },
  { re: /^ABC$/, label: "ABC", u: 1.2 },
];

/**
 * The key a bottom-row word names (`space`, `return`, `123`, `ABC`), or null for any other text. Shared
 * with the dial pad, whose 3×3 digit grid is also the Chinese 9-key (T9) keyboard's when such words sit
 * under it.
 */
export function bottomRowKey(label: string): string | null {
  const t = label.trim();
  return BOTTOM_WORDS.find((w) => w.re.test(t))?.label ?? null;
}

type Layer = "letters" | "numbers" | "symbols";

/** The bottom row's keys of the letter grid; the others there are system keys (`keyboard-bottom-row.ts`). */
const BOTTOM_GRID_KEYS = new Set(["123", "ABC", "space", "return"]);

/** A reading of one key cap: which key (row, position in pitches) and where OCR saw it. */
interface Anchor {
  row: number;
  u: number;
  x: number;
  y: number;
  layer: Layer | "any";
  upper: boolean;
}

/**
 * Where `123`/`ABC` sits when a key shares its width: on Touch ID iPhones the emoji or globe key sits in
 * the bottom row between `123` and the space bar, and `123` covers only ≈ 0.1–1.2 pitches.
 */
const NARROW_123_U = 0.65;

/** Whether a detector icon sits on the bottom-row word's line between it and the space bar. */
function keyBeside(rows: readonly Candidate[], word: Candidate): boolean {
  const space = rows.find((r) => r.kind === "text" && bottomRowKey(r.label) === "space");
  const y = centreY(word.box);
  const h = boxHeight(word.box);
  const x0 = word.box[2];
  const x1 = space ? space.box[0] : x0 + 4 * boxWidth(word.box);
  return rows.some(
    (r) =>
      r.kind === "icon" &&
      Math.abs(centreY(r.box) - y) < h &&
      centreX(r.box) > x0 &&
      centreX(r.box) < x1 &&
      boxWidth(r.box) < 2 * boxWidth(word.box),
  );
}

function anchorsOf(rows: readonly Candidate[]): Anchor[] {
  const out: Anchor[] = [];
  for (const r of rows) {
    if (r.kind !== "text") continue;
    const t = r.label.trim();
    const x = centreX(r.box);
    const y = centreY(r.box);
    const word = BOTTOM_WORDS.find((w) => w.re.test(t));
    if (word) {
      const u = word.u === 1.2 && keyBeside(rows, r) ? NARROW_123_U : word.u;
      out.push({ row: 3, u, x, y, layer: word.label === "ABC" ? "numbers" : "any", upper: false });
      continue;
    }
    if (Array.from(t).length !== 1) continue;
    const lower = t.toLowerCase();
    LETTER_ROWS.forEach((keys, row) => {
      const i = keys.indexOf(lower);
      if (i >= 0)
        out.push({ row, u: i + (ROW_OFFSET[row] ?? 0), x, y, layer: "letters", upper: t !== lower });
    });
    for (const [layer, keys] of [
      ["numbers", NUMBER_ROWS],
      ["symbols", SYMBOL_ROWS],
    ] as const)
      keys.forEach((chars, row) => {
        const i = chars.indexOf(t);
        if (i >= 0) out.push({ row, u: i + 0.5, x, y, layer, upper: false });
      });
  }
  return out;
}

/** Least-squares line v = a + b·u; null without two distinct u. */
function fitLine(points: readonly { u: number; v: number }[]): { a: number; b: number } | null {
  const n = points.length;
  if (n < 2) return null;
  const mu = points.reduce((s, p) => s + p.u, 0) / n;
  const mv = points.reduce((s, p) => s + p.v, 0) / n;
  let suu = 0;
  let suv = 0;
  for (const p of points) {
    suu += (p.u - mu) ** 2;
    suv += (p.u - mu) * (p.v - mv);
  }
  if (suu < 1e-9) return null;
  const b = suv / suu;
  return { a: mv - b * mu, b };
}

/** Theil–Sen line v = a + b·u: b the median slope over pairs with distinct u; null without such a pair. */
function theilSen(points: readonly { u: number; v: number }[]): { a: number; b: number } | null {
  const slopes: number[] = [];
  points.forEach((p, i) => {
    for (const q of points.slice(i + 1))
      if (Math.abs(q.u - p.u) > 1e-9) slopes.push((q.v - p.v) / (q.u - p.u));
  });
  if (slopes.length === 0) return null;
  const b = median(slopes);
  return { a: median(points.map((p) => p.v - b * p.u)), b };
}

export interface KeyboardFit {
  layer: Layer;
  upper: boolean;
  /** Keyboard left edge and key pitch (fractions of the screen width). */
  left: number;
  pitch: number;
  /** First letter row's centre and the row pitch (fractions of the screen height). */
  top: number;
  rowPitch: number;
  anchors: number;
}

/** Fewest consistent anchors before a keyboard is believed. */
const MIN_ANCHORS = 4;

/**
 * The keyboard's grid from OCR rows, or null when the rows do not read as a keyboard. `aspect` is the
 * screen's height / width in pixels (to turn the horizontal pitch into a vertical prior).
 */
export function fitKeyboard(rows: readonly Candidate[], aspect: number): KeyboardFit | null {
  let anchors = anchorsOf(rows).filter((a) => a.y > 0.45);
  if (anchors.length < MIN_ANCHORS) return null;
  const count = (l: Layer): number => anchors.filter((a) => a.layer === l).length;
  const layer = (["letters", "numbers", "symbols"] as const).reduce((best, l) =>
    count(l) > count(best) ? l : best,
  );
  anchors = anchors.filter((a) => a.layer === layer || a.layer === "any");
  // Two rounds: fit, drop anchors more than 0.35 pitch (or 0.35 row) off, refit.
  let fit: KeyboardFit | null = null;
  for (let round = 0; round < 3; round++) {
    // The first fit is the robust one: a cap misread as another letter (`N` as `Z`) sits pitches away
    // from its key and would tilt a least-squares line enough to throw out the good anchors.
    const line = round === 0 ? theilSen : fitLine;
    const xs = line(anchors.map((a) => ({ u: a.u, v: a.x })));
    const pitch = xs && xs.b > 0.07 && xs.b < 0.13 ? xs.b : 0.1;
    const left = xs && xs.b > 0.07 && xs.b < 0.13 ? xs.a : median(anchors.map((a) => a.x - a.u * pitch));
    const ys = line(anchors.map((a) => ({ u: a.row, v: a.y })));
    const priorRow = (pitch * 1.38) / aspect;
    const rowPitch = ys && ys.b > priorRow * 0.7 && ys.b < priorRow * 1.4 ? ys.b : priorRow;
    const top = ys && rowPitch === ys.b ? ys.a : median(anchors.map((a) => a.y - a.row * rowPitch));
    fit = { layer, upper: false, left, pitch, top, rowPitch, anchors: anchors.length };
    const current = fit;
    const kept = anchors.filter(
      (a) =>
        Math.abs(current.left + a.u * current.pitch - a.x) < 0.35 * current.pitch &&
        Math.abs(current.top + a.row * current.rowPitch - a.y) < 0.35 * current.rowPitch,
    );
    if (kept.length === anchors.length) break;
    anchors = kept;
    if (anchors.length < MIN_ANCHORS) return null;
  }
  if (!fit || anchors.length < MIN_ANCHORS) return null;
  // Letters on at least two rows (or a row and the bottom-row words): one line of text is not a keyboard.
  if (new Set(anchors.map((a) => a.row)).size < 2) return null;
  // The keys must fit on the screen, with some slack for a camera frame's rectification: on Touch ID
  // iPhones the bottom row's caps end ~3 pt above the screen's edge, so its centre + half a row pitch is
  // already ~1.01.
  if (fit.top + 3.5 * fit.rowPitch > 1.05 || fit.left < -0.05 || fit.left + 10 * fit.pitch > 1.05)
    return null;
  const letters = anchors.filter((a) => a.layer === "letters");
  fit.upper = letters.length > 0 && letters.filter((a) => a.upper).length * 2 > letters.length;
  fit.anchors = anchors.length;
  return fit;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Every key of the fitted keyboard with its cap box. */
export function keyboardKeys(fit: KeyboardFit): Key[] {
  const { left, pitch, top, rowPitch } = fit;
  const capH = 0.78 * rowPitch;
  const box = (u0: number, u1: number, row: number): FracBox => [
    left + u0 * pitch,
    top + row * rowPitch - capH / 2,
    left + u1 * pitch,
    top + row * rowPitch + capH / 2,
  ];
  const cap = (u: number, row: number): FracBox => box(u - 0.425, u + 0.425, row);
  const keys: Key[] = [];
  const firstRows =
    fit.layer === "letters" ? LETTER_ROWS.slice(0, 2) : fit.layer === "numbers" ? NUMBER_ROWS : SYMBOL_ROWS;
  firstRows.forEach((chars, row) => {
    Array.from(chars).forEach((c, i) => {
      const label = fit.layer === "letters" && fit.upper ? c.toUpperCase() : c;
      keys.push({ label, box: cap(i + (ROW_OFFSET[row] ?? 0), row) });
    });
  });
  if (fit.layer === "letters") {
    keys.push({ label: "shift", box: box(0.1, 1.2, 2) });
    Array.from(LETTER_ROWS[2]).forEach((c, i) => {
      keys.push({ label: fit.upper ? c.toUpperCase() : c, box: cap(i + 2, 2) });
    });
    keys.push({ label: "123", box: box(0.1, 2.3, 3) });
  } else {
    keys.push({ label: fit.layer === "numbers" ? "#+=" : "123", box: box(0.1, 1.2, 2) });
    PUNCTUATION.forEach((c, i) => {
      keys.push({ label: c, box: box(1.5 + i * 1.4 + 0.08, 1.5 + (i + 1) * 1.4 - 0.08, 2) });
    });
    keys.push({ label: "ABC", box: box(0.1, 2.3, 3) });
  }
  keys.push({ label: "delete", box: box(8.8, 9.9, 2) });
  keys.push({ label: "space", box: box(2.45, 7.55, 3) });
  keys.push({ label: "return", box: box(7.7, 9.9, 3) });
  return keys;
}

/** The band of the screen the keys cover (rows of other text inside it are key glyphs). */
function keysBand(fit: KeyboardFit): FracBox {
  return [0, fit.top - 0.5 * fit.rowPitch, 1, fit.top + 3.5 * fit.rowPitch];
}

/** Compare a key's label with text read on it: NFKC, no spaces, lower case. */
const loose = (s: string): string => s.normalize("NFKC").replace(/\s+/g, "").toLowerCase();

/**
 * Text on a key that is not its label, to keep as its own row: a word (`空格`, `English`, the return
 * key's `Go` or `换行`) or a CJK sign. A single Latin letter that differs is a misread cap, not kept.
 */
const worthKeeping = (text: string, key: string): boolean =>
  loose(text) !== loose(key) && (Array.from(text.trim()).length >= 2 || /[\u3400-\u9fff]/u.test(text));

/**
 * The rows with a recognised keyboard listed key by key: every key a `[key]` row with its own cap box,
 * and the OCR and detector rows that fell on the keys dropped — except text that is not the key's name
 * (the space bar's `空格` or `English`), which stays a `text` row inside the key, since it is what a
 * person reads there. With `screen`, the system keys outside the grid (globe/emoji, mic:
 * `keyboard-system-keys.ts`) are listed too. Rows unchanged when there is no keyboard.
 */
export function applyKeyboard(rows: readonly Candidate[], aspect: number, screen?: RgbImage): Candidate[] {
  const ocrFit = fitKeyboard(rows, aspect);
  if (!ocrFit) return [...rows];
  // The caps' case from the glyphs' heights where the pixels show it; else the letters OCR read.
  const letterCaps = keyboardKeys({ ...ocrFit, upper: false }).filter((k) => /^[a-z]$/.test(k.label));
  const upper =
    screen && ocrFit.layer === "letters"
      ? capsUpperCase(
          screen,
          letterCaps.map((k) => ({ letter: k.label, box: k.box })),
        )
      : null;
  const fit = upper === null ? ocrFit : { ...ocrFit, upper };
  const band = keysBand(fit);
  const system = systemKeys(screen, rows, fit);
  let keys = keyboardKeys(fit);
  const inBottomRow = (k: { box: FracBox }) =>
    Math.abs(centreY(k.box) - (fit.top + 3 * fit.rowPitch)) < 0.4 * fit.rowPitch;
  // The bottom row as the pixels show it, cap by cap (Touch ID rows hold the globe and the mic).
  const measured = screen ? bottomRowCaps(screen, fit, fit.layer !== "letters") : null;
  if (measured) {
    // The grid's keys by its fixed geometry; the system keys (globe/emoji, mic) with the others found
    // outside it, so words printed on them name them (a Chinese keyboard's `英`).
    const grid = (k: Key) => BOTTOM_GRID_KEYS.has(k.label);
    keys = [...keys.filter((k) => !inBottomRow(k)), ...measured.filter(grid)];
    system.keys = [
      ...system.keys.filter((k) => !inBottomRow(k)),
      ...measured
        .filter((k) => !grid(k))
        .map((k): Candidate => ({ kind: "key", label: k.label, box: k.box, conf: 0.9 })),
    ];
  }
  // An emoji key in the bottom row leaves `123` its own cap only (0.1–1.2 pitches).
  else if (system.keys.some(inBottomRow))
    keys = keys.map((k) =>
      k.label === "123" || k.label === "ABC"
        ? { ...k, box: [fit.left + 0.1 * fit.pitch, k.box[1], fit.left + 1.2 * fit.pitch, k.box[3]] }
        : k,
    );
  const conf = Math.min(0.99, 0.6 + 0.04 * fit.anchors);
  const within = (r: Candidate, k: Key): boolean =>
    centreX(r.box) > k.box[0] &&
    centreX(r.box) < k.box[2] &&
    centreY(r.box) > k.box[1] &&
    centreY(r.box) < k.box[3];
  // A system key with words printed on it (a Chinese keyboard's `英`/`中` switch) is named by them.
  const printed = (k: Candidate) =>
    rows.find((r) => r.kind === "text" && within(r, k) && worthKeeping(r.label, k.label));
  const namedSystem = system.keys.map((k): Candidate => {
    const p = printed(k);
    return p ? { ...k, label: p.label.trim(), labelBox: p.box } : k;
  });
  const kept = rows.filter((r) => {
    if (system.used.has(r)) return false;
    // A symbol key's icon read as a character (the mic as `0`), or the words naming the key.
    if (r.kind === "text" && system.keys.some((k) => within(r, k))) return false;
    const x = centreX(r.box);
    const y = centreY(r.box);
    if (!(y > band[1] && y < band[3])) return true;
    if (r.kind === "text" && keys.some((k) => within(r, k) && worthKeeping(r.label, k.label))) return true;
    // A row spanning most of the band's height is not a key glyph (e.g. a sheet behind the keyboard).
    return boxHeight(r.box) > 2 * fit.rowPitch || boxWidth(r.box) > 0.9 || x < 0 || x > 1;
  });
  // The key's glyph, where OCR read the key's own label on it.
  const read = (k: Key): FracBox | undefined =>
    rows.find((r) => r.kind === "text" && within(r, k) && !worthKeeping(r.label, k.label))?.box;
  return [
    ...kept,
    ...keys.map((k): Candidate => {
      const labelBox = read(k);
      return { kind: "key", label: k.label, box: k.box, ...(labelBox ? { labelBox } : {}), conf };
    }),
    ...namedSystem,
  ];
}
