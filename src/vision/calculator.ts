import type { FracBox } from "../shared/box.js";
import type { Candidate } from "./row.js";
import { boxWidth, centreX, centreY, contains } from "./row.js";

/**
 * The Calculator keypad (Apple's Calculator app, portrait, iOS 7–17, and the many apps that copy it),
 * found from the digits OCR reads and listed key by key. Its buttons are circles on a square grid of
 * four columns and five rows:
 *
 *     AC/C  +/-   %    ÷
 *      7     8    9    ×
 *      4     5    6    -
 *      1     2    3    +
 *      0 (two columns) .    =
 *
 * The first key reads `AC` until a number is entered and `C` after (so `C` while the display shows a
 * number other than 0). Some copies put `0` in one circle and widen `=` instead; the detector's box on
 * the bottom-left button tells the two apart. The digit grid is told from the phone keypad's by its
 * order (7 8 9 on top) and its fourth column.
 */

const ROWS = ["789", "456", "123"] as const;

/** Characters OCR reads for the operators, and the key each is (labels as a person types them). */
const OPERATORS: Record<string, string> = {
  "÷": "÷",
  "/": "÷",
  "×": "×",
  x: "×",
  X: "×",
  "*": "×",
  "-": "-",
  "−": "-",
  "+": "+",
  "=": "=",
};

interface CalcGrid {
  cols: [number, number, number, number];
  /** Rows 0 (AC) to 4 (0). */
  rows: [number, number, number, number, number];
  pitchX: number;
  pitchY: number;
}

const median = (xs: readonly number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Fewest digits read before the calculator is believed (of the nine in the 3×3 block). */
const MIN_DIGITS = 5;

/** The calculator grid from the digits 1–9 read once each; null unless they sit on a square grid. */
export function fitCalculator(rows: readonly Candidate[], aspect: number): CalcGrid | null {
  const seen = new Map<string, Candidate[]>();
  for (const r of rows)
    if (r.kind === "text" && /^[1-9]$/.test(r.label.trim()))
      seen.set(r.label.trim(), [...(seen.get(r.label.trim()) ?? []), r]);
  const xs: number[][] = [[], [], []];
  const ys: number[][] = [[], [], []];
  let n = 0;
  for (const [d, list] of seen) {
    const only = list.length === 1 ? list[0] : undefined;
    if (!only) continue;
    const row = ROWS.findIndex((r) => r.includes(d));
    const col = ROWS[row]?.indexOf(d) ?? -1;
    xs[col]?.push(centreX(only.box));
    ys[row]?.push(centreY(only.box));
    n++;
  }
  if (n < MIN_DIGITS) return null;
  const c = xs.map(median);
  const r = ys.map(median);
  const [c0, c1, c2] = c;
  const [r1, r2, r3] = r;
  if (c0 === undefined || c1 === undefined || c2 === undefined) return null;
  if (r1 === undefined || r2 === undefined || r3 === undefined) return null;
  const pitchX = (c2 - c0) / 2;
  const pitchY = (r3 - r1) / 2;
  if (!(pitchX > 0.12 && pitchY > 0.03)) return null;
  if (Math.abs(c1 - c0 - pitchX) > pitchX / 4 || Math.abs(r2 - r1 - pitchY) > pitchY / 4) return null;
  // Circles on a square pitch: the pitches agree in pixels within 25 %.
  if (Math.abs(pitchY * aspect - pitchX) > pitchX / 4) return null;
  const c3 = c2 + pitchX;
  const r0 = r1 - pitchY;
  const r4 = r3 + pitchY;
  if (c3 > 1 || r0 < 0 || r4 > 1) return null;
  return { cols: [c0, c1, c2, c3], rows: [r0, r1, r2, r3, r4], pitchX, pitchY };
}

/**
 * The rows with a recognised calculator listed key by key (`[key] "7"`, `"÷"`, `"AC"`…): OCR glyphs and
 * detector boxes on the buttons dropped. Unchanged without one.
 */
export function applyCalculator(rows: readonly Candidate[], aspect: number): Candidate[] {
  const g = fitCalculator(rows, aspect);
  if (!g) return [...rows];
  const rx = 0.45 * g.pitchX;
  const ry = 0.45 * g.pitchY;
  const cap = (x0: number, x1: number, row: number): FracBox => {
    const y = g.rows[row] ?? 0;
    return [x0 - rx, y - ry, x1 + rx, y + ry];
  };
  const display = rows.find(
    (r) =>
      r.kind === "text" && centreY(r.box) < g.rows[0] - g.pitchY / 2 && /^-?[\d.,\s]+$/.test(r.label.trim()),
  );
  const cleared = !display || Number(display.label.replace(/[,\s]/g, "")) === 0;
  const keys: { label: string; box: FracBox }[] = [
    { label: cleared ? "AC" : "C", box: cap(g.cols[0], g.cols[0], 0) },
    { label: "+/-", box: cap(g.cols[1], g.cols[1], 0) },
    { label: "%", box: cap(g.cols[2], g.cols[2], 0) },
  ];
  ROWS.forEach((digits, i) => {
    Array.from(digits).forEach((d, col) => {
      const x = g.cols[col] ?? 0;
      keys.push({ label: d, box: cap(x, x, i + 1) });
    });
  });
  ["÷", "×", "-", "+"].forEach((op, row) => {
    keys.push({ label: op, box: cap(g.cols[3], g.cols[3], row) });
  });
  // Bottom row: Apple's wide 0, or a round 0 with a wide `=` (told by the bottom-left button's width).
  const bottomLeft = rows.find(
    (r) => r.kind === "icon" && contains(cap(g.cols[0], g.cols[0], 4), centreX(r.box), centreY(r.box)),
  );
  const roundZero = bottomLeft !== undefined && boxWidth(bottomLeft.box) < 1.3 * g.pitchX;
  if (roundZero)
    keys.push(
      { label: "0", box: cap(g.cols[0], g.cols[0], 4) },
      { label: ".", box: cap(g.cols[1], g.cols[1], 4) },
      { label: "=", box: cap(g.cols[2], g.cols[3], 4) },
    );
  else
    keys.push(
      { label: "0", box: cap(g.cols[0], g.cols[1], 4) },
      { label: ".", box: cap(g.cols[2], g.cols[2], 4) },
      { label: "=", box: cap(g.cols[3], g.cols[3], 4) },
    );
  const on = (r: Candidate): { label: string; box: FracBox } | undefined =>
    keys.find((k) => contains(k.box, centreX(r.box), centreY(r.box)));
  // OCR's reading of a key's glyph: its label box; everything else on a key (detector boxes) goes.
  const glyph = new Map<string, FracBox>();
  for (const r of rows) {
    const k = on(r);
    if (!k || r.kind !== "text") continue;
    const t = r.label.trim();
    if (
      t === k.label ||
      OPERATORS[t] === k.label ||
      (k.label === "AC" && t === "C") ||
      (k.label === "C" && t === "AC")
    )
      glyph.set(k.label, r.box);
  }
  return [
    ...rows.filter((r) => !on(r)),
    ...keys.map((k): Candidate => {
      const labelBox = glyph.get(k.label);
      return {
        kind: "key",
        label: k.label,
        box: k.box,
        ...(labelBox ? { labelBox } : {}),
        conf: labelBox ? 0.95 : 0.7,
      };
    }),
  ];
}
