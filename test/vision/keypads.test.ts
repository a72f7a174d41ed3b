import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { applyCalculator } from "../../src/vision/calculator.js";
import { applyDialPad } from "../../src/vision/dial-pad.js";
import { applyKeyboard, fitKeyboard } from "../../src/vision/keyboard.js";
import { globeOrEmoji } from "../../src/vision/keyboard-system-keys.js";
import type { Candidate } from "../../src/vision/row.js";

const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.95 });
const icon = (box: FracBox): Candidate => ({ kind: "icon", label: "", box, conf: 0.8 });
const centre = (b: FracBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const inside = (p: [number, number], b: FracBox): boolean =>
  p[0] > b[0] && p[0] < b[2] && p[1] > b[1] && p[1] < b[3];

/** A flat `w`×`h` screen of grey `v`, with `draw(x, y)` returning a grey to paint instead (or null). */
function screen(w: number, h: number, v: number, draw?: (x: number, y: number) => number | null): RgbImage {
  const data = Buffer.alloc(w * h * 3, v);
  if (draw)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const g = draw(x, y);
        if (g !== null) data.fill(g, (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
  return { width: w, height: h, channels: 3, data };
}

describe("applyDialPad: text printed on keys", () => {
  // A phone keypad on a 390×844 screen: columns at 0.25/0.5/0.75, rows from 0.45 every 0.1; the digit
  // sits in the cap's upper half, its letters just under it.
  const digitAt = (col: number, row: number): FracBox => [
    0.24 + 0.25 * col,
    0.43 + 0.1 * row,
    0.26 + 0.25 * col,
    0.455 + 0.1 * row,
  ];
  const lettersAt = (col: number, row: number): FracBox => [
    0.23 + 0.25 * col,
    0.46 + 0.1 * row,
    0.27 + 0.25 * col,
    0.47 + 0.1 * row,
  ];
  const LETTERS = ["", "ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ"];
  const digits = Array.from("123456789").map((d, i) => text(d, digitAt(i % 3, Math.floor(i / 3))));
  const letters = LETTERS.flatMap((l, i) => (l ? [text(l, lettersAt(i % 3, Math.floor(i / 3)))] : []));
  const blank = screen(390, 844, 255);

  it("keeps the letters under a digit as their own text rows inside the key, and the key's label one digit", () => {
    const rows = applyDialPad(blank, [
      ...digits,
      ...letters,
      text("0", digitAt(1, 3)),
      text("+", lettersAt(1, 3)),
    ]);
    const keys = rows.filter((r) => r.kind === "key");
    expect(keys.map((k) => k.label).sort()).toEqual(Array.from("0123456789").sort());
    const texts = rows.filter((r) => r.kind === "text");
    expect(texts.map((t) => t.label).sort()).toEqual([...LETTERS.filter((l) => l), "+"].sort());
    // Each letter row lies inside the key of its digit (one target: the key), and no digit is left as text.
    for (const t of texts) {
      const key = keys.find((k) => inside(centre(t.box), k.box));
      expect(key?.label, t.label).toBe(t.label === "+" ? "0" : String(LETTERS.indexOf(t.label) + 1));
    }
  });

  it("reads an icon in the # cell as delete only when the * cell is empty (passcode and number pads)", () => {
    const del = icon(digitAt(2, 3));
    const pad = applyDialPad(blank, [...digits, text("0", digitAt(1, 3)), del]);
    expect(pad.filter((r) => r.kind === "key" && r.label === "delete")).toHaveLength(1);
    // The Phone keypad: `*` read in its cell, so an icon on the # cap is not a delete key.
    const phone = applyDialPad(blank, [...digits, text("0", digitAt(1, 3)), text("*", digitAt(0, 3)), del]);
    expect(phone.some((r) => r.kind === "key" && r.label === "delete")).toBe(false);
  });

  it("reads a T9 keyboard when keyboard words sit on the fourth row: no * 0 # keys, the words become keys", () => {
    const bottom = [
      text("123", [0.04, 0.74, 0.11, 0.76]),
      text("中", [0.19, 0.74, 0.23, 0.76]),
      text("拼音", [0.42, 0.74, 0.49, 0.76]),
      text("return", [0.82, 0.74, 0.94, 0.76]),
      icon([0.18, 0.735, 0.25, 0.765]),
    ];
    // The mic icon under the keyboard read as "0" far from the 0 key's place must not move the grid.
    const rows = applyDialPad(blank, [...digits, ...letters, ...bottom, text("0", [0.87, 0.83, 0.92, 0.86])]);
    const keys = rows.filter((r) => r.kind === "key").map((k) => k.label);
    expect(keys.sort()).toEqual([...Array.from("123456789"), "123", "return", "space", "中"].sort());
    // "拼音" is not the key's name (space): it stays readable as text; "123" and "中" are the keys' own labels.
    const texts = rows.filter((r) => r.kind === "text").map((t) => t.label);
    expect(texts).toContain("拼音");
    expect(texts).not.toContain("123");
    expect(rows.some((r) => r.kind === "icon")).toBe(false);
  });
});

describe("applyKeyboard: text on keys and the system keys", () => {
  const at = (u: number, row: number): FracBox => [
    u * 0.1 - 0.015,
    0.7 + row * 0.065 - 0.01,
    u * 0.1 + 0.015,
    0.7 + row * 0.065 + 0.01,
  ];
  const anchors = [
    text("R", at(3.5, 0)),
    text("A", at(1, 1)),
    text("S", at(2, 1)),
    text("M", at(8, 2)),
    text("123", at(1.2, 3)),
  ];

  it("keeps a word on the space bar as text inside the space key, not a key's misread letter", () => {
    const rows = applyKeyboard([...anchors, text("空格", at(5, 3)), text("l", at(7.5, 0))], 844 / 390);
    expect(rows.filter((r) => r.kind === "text").map((r) => r.label)).toEqual(["空格"]);
    const space = rows.find((r) => r.kind === "key" && r.label === "space");
    expect(space && inside(centre(at(5, 3)), space.box)).toBe(true);
  });

  it("fits a keyboard whose bottom row reaches the screen's edge (Touch ID iPhones, camera frames)", () => {
    // Rows from 0.675 every 0.1, as a camera frame's fit of such a keyboard gives: the bottom row's centre
    // at 0.975, so the grid's lower edge (centre + half a pitch) is at 1.025.
    const low = (u: number, row: number): FracBox => [
      u * 0.1 - 0.015,
      0.675 + row * 0.1 - 0.01,
      u * 0.1 + 0.015,
      0.675 + row * 0.1 + 0.01,
    ];
    const rows = [
      text("B", low(6, 2)),
      text("N", low(7, 2)),
      text("M", low(8, 2)),
      text("123", low(1.2, 3)),
      text("return", low(8.8, 3)),
    ];
    expect(fitKeyboard(rows, 667 / 375)).not.toBeNull();
    // A line of such words far below the screen is still no keyboard.
    expect(
      fitKeyboard(
        rows.map((r) => ({ ...r, box: [r.box[0], r.box[1] + 0.1, r.box[2], r.box[3] + 0.1] as FracBox })),
        667 / 375,
      ),
    ).toBeNull();
  });

  it("places a narrow 123 (an emoji key beside it, Touch ID iPhones) at its own cap's centre", () => {
    // Keys span the screen (pitch 0.1, left edge 0): `123` covers 0.1–1.2 pitches, the emoji key 1.3–2.4.
    const rows = [
      text("B", at(6, 2)),
      text("M", at(8, 2)),
      text("123", at(0.65, 3)),
      icon([0.16, 0.88, 0.21, 0.91]),
      text("space", at(5, 3)),
      text("return", at(8.8, 3)),
    ];
    expect(fitKeyboard(rows, 667 / 375)?.left).toBeCloseTo(0, 2);
    const keys = applyKeyboard(rows, 667 / 375).filter((r) => r.kind === "key");
    expect(keys.some((k) => k.label === "emoji" && inside([0.185, 0.895], k.box))).toBe(true);
    const n123 = keys.find((k) => k.label === "123")?.box ?? [0, 0, 0, 0];
    expect(n123[2]).toBeLessThan(0.13);
  });

  it("names a system key by the words printed on it (a Chinese keyboard's 英 switch), once", () => {
    // rb-universekb-t9-qwerty: `英` where the emoji key sits, between `123` and the space bar.
    const rows = [
      text("B", at(6, 2)),
      text("M", at(8, 2)),
      text("123", at(0.65, 3)),
      icon([0.16, 0.88, 0.21, 0.91]),
      text("英", [0.175, 0.885, 0.195, 0.905]),
      text("space", at(5, 3)),
      text("return", at(8.8, 3)),
    ];
    const out = applyKeyboard(rows, 667 / 375);
    const switchKey = out.filter((r) => r.kind === "key" && inside([0.185, 0.895], r.box));
    expect(switchKey.map((k) => k.label)).toEqual(["英"]);
    expect(out.some((r) => r.kind === "text" && r.label === "英")).toBe(false);
  });

  it("lists the mic and the globe/emoji key under the keyboard from the detector's icons", () => {
    const rows = applyKeyboard(
      [...anchors, icon([0.05, 0.93, 0.15, 0.97]), icon([0.84, 0.93, 0.94, 0.97])],
      844 / 390,
    );
    const keys = rows.filter((r) => r.kind === "key");
    expect(keys.some((k) => k.label === "mic" && inside([0.89, 0.95], k.box))).toBe(true);
    expect(keys.some((k) => k.label === "emoji" && inside([0.1, 0.95], k.box))).toBe(true);
    expect(rows.some((r) => r.kind === "icon")).toBe(false);
  });
});

describe("globeOrEmoji", () => {
  // 60×60 px: a ring of radius 24 around (30, 30), plus a globe's equator or a face's eyes and mouth.
  const ring = (x: number, y: number) => Math.abs(Math.hypot(x - 30, y - 30) - 24) < 2;
  const box: FracBox = [0, 0, 1, 1];

  it("tells the globe (a line across the middle) from the smiling face (eyes above, mouth below)", () => {
    const globe = screen(60, 60, 240, (x, y) =>
      ring(x, y) || (Math.abs(y - 30) < 2 && Math.abs(x - 30) < 24) || Math.abs(x - 30) < 2 ? 30 : null,
    );
    const face = screen(60, 60, 240, (x, y) =>
      ring(x, y) ||
      Math.hypot(x - 22, y - 22) < 3 ||
      Math.hypot(x - 38, y - 22) < 3 ||
      (y > 38 && y < 41 && Math.abs(x - 30) < 9)
        ? 30
        : null,
    );
    expect(globeOrEmoji(globe, box)).toBe("globe");
    expect(globeOrEmoji(face, box)).toBe("emoji");
    // Light symbol on a dark keyboard too (the globe has its meridian as well as its equator).
    const darkGlobe = screen(60, 60, 20, (x, y) =>
      ring(x, y) || Math.abs(y - 30) < 2 || Math.abs(x - 30) < 2 ? 230 : null,
    );
    expect(globeOrEmoji(darkGlobe, box)).toBe("globe");
  });
});

describe("applyCalculator", () => {
  // Calculator circles on a 0.235-wide square pitch of a 390×844 screen (aspect 2.16): columns at
  // 0.15 + 0.235·c, rows at 0.37 + 0.1085·r (0.235 / 2.16).
  const aspect = 844 / 390;
  const at = (col: number, row: number, w = 0.02): FracBox => [
    0.15 + 0.235 * col - w,
    0.37 + 0.1085 * row - 0.015,
    0.15 + 0.235 * col + w,
    0.37 + 0.1085 * row + 0.015,
  ];
  const read = ["8", "9", "4", "5", "6", "2", "3"].map((d) => {
    const row = ["789", "456", "123"].findIndex((r) => r.includes(d));
    return text(d, at(["789", "456", "123"][row]?.indexOf(d) ?? 0, row + 1));
  });

  it("lists all nineteen keys from the digits OCR read, C while the display shows a number", () => {
    const rows = applyCalculator(
      [text("123.456", [0.3, 0.14, 0.92, 0.21]), ...read, text("x", at(3, 1)), icon(at(0, 4, 0.1))],
      aspect,
    );
    const keys = rows.filter((r) => r.kind === "key");
    expect(keys.map((k) => k.label).sort()).toEqual(
      [
        "C",
        "+/-",
        "%",
        "÷",
        "7",
        "8",
        "9",
        "×",
        "4",
        "5",
        "6",
        "-",
        "1",
        "2",
        "3",
        "+",
        "0",
        ".",
        "=",
      ].sort(),
    );
    // A round 0 (the detector's box one circle wide): `.` beside it and a wide `=`.
    const key = (l: string) => keys.find((k) => k.label === l)?.box ?? [0, 0, 0, 0];
    expect(inside(centre(at(0, 4)), key("0"))).toBe(true);
    expect(inside(centre(at(1, 4)), key("."))).toBe(true);
    expect(inside([0.62, centre(at(2, 4))[1]], key("="))).toBe(true);
    // The OCR glyphs and the detector box are replaced; the display stays.
    expect(rows.filter((r) => r.kind !== "key").map((r) => r.label)).toEqual(["123.456"]);
  });

  it("uses Apple's wide 0 and AC on a cleared display, and leaves a phone keypad alone", () => {
    const keys = applyCalculator(
      [text("0", [0.8, 0.14, 0.92, 0.21]), ...read, icon([0.05, 0.8, 0.44, 0.86])],
      aspect,
    ).filter((r) => r.kind === "key");
    const zero = keys.find((k) => k.label === "0")?.box ?? [0, 0, 0, 0];
    expect(centre(zero)[0]).toBeCloseTo(0.15 + 0.235 / 2, 3);
    expect(keys.some((k) => k.label === "AC")).toBe(true);
    expect(keys.find((k) => k.label === ".")?.box[0]).toBeGreaterThan(0.15 + 0.235 * 1.5);
    // 1 2 3 on top (the phone keypad's order) is not a calculator.
    const pad = Array.from("123456789").map((d, i) => text(d, at(i % 3, 1 + Math.floor(i / 3))));
    expect(applyCalculator(pad, aspect)).toEqual(pad);
  });
});
