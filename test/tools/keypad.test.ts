import { describe, expect, it } from "vitest";
import { findKeypad, looksDark, looksLocked } from "../../src/tools/keypad.js";
import type { ListingEntry } from "../../src/vision/listing.js";

/** Text rows of a keypad laid out as on the simulated phone (pitch 0.26 × 0.11 of the screen). */
function keypadRows(skip: string[] = [], extra: ListingEntry[] = []): ListingEntry[] {
  const rows: ListingEntry[] = [];
  ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"].forEach((d, i) => {
    if (skip.includes(d)) return;
    const col = i === 9 ? 1 : i % 3;
    const row = i === 9 ? 3 : Math.floor(i / 3);
    const x = 0.24 + col * 0.262;
    const y = 0.355 + row * 0.109;
    rows.push({ id: 0, kind: "text", label: d, box: [x - 0.03, y - 0.02, x + 0.03, y + 0.02], conf: 0.99 });
  });
  return [...rows, ...extra].map((e, i) => ({ ...e, id: i + 1 }));
}

const text = (label: string, box: [number, number, number, number]): ListingEntry => ({
  id: 0,
  kind: "text",
  label,
  box,
  conf: 0.9,
});

describe("findKeypad", () => {
  it("finds all ten keys at their digits' centres", () => {
    const pad = findKeypad(keypadRows());
    expect(pad).not.toBeNull();
    expect(pad?.["5"]).toEqual({
      at: { x: expect.closeTo(0.502, 3), y: expect.closeTo(0.464, 3) },
      inferred: false,
    });
    expect(pad?.["0"].at.y).toBeCloseTo(0.682, 3);
  });

  it("places keys OCR missed from the grid of the others (0 included)", () => {
    const pad = findKeypad(keypadRows(["0", "8", "3"]));
    expect(pad?.["0"]).toEqual({
      at: { x: expect.closeTo(0.502, 3), y: expect.closeTo(0.682, 3) },
      inferred: true,
    });
    expect(pad?.["3"].inferred).toBe(true);
    expect(pad?.["3"].at.x).toBeCloseTo(0.764, 3);
  });

  it("reads lookalike letters as digits, and ignores stray digits off the grid (a badge, a clock)", () => {
    const rows = keypadRows(
      ["1", "0"],
      [text("l", [0.21, 0.335, 0.27, 0.375]), text("O", [0.47, 0.66, 0.53, 0.7])],
    );
    rows.push(text("1", [0.9, 0.9, 0.95, 0.95]), text("5", [0.05, 0.02, 0.08, 0.04]));
    const pad = findKeypad(rows);
    expect(pad?.["1"]).toEqual({
      at: { x: expect.closeTo(0.24, 3), y: expect.closeTo(0.355, 3) },
      inferred: false,
    });
    expect(pad?.["5"].at.y).toBeCloseTo(0.464, 3);
    expect(pad?.["0"].inferred).toBe(false);
  });

  it("is null without a keypad: too few digits, or digits not in a keypad's layout", () => {
    expect(findKeypad([])).toBeNull();
    expect(findKeypad(keypadRows(["1", "2", "4", "7"]))).toBeNull();
    const scattered = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((d, i) =>
      text(d, [0.1 * i, 0.05 * ((i * 7) % 9), 0.1 * i + 0.03, 0.05 * ((i * 7) % 9) + 0.02]),
    );
    expect(findKeypad(scattered)).toBeNull();
  });
});

describe("looksDark", () => {
  const image = (level: number) => ({
    width: 10,
    height: 20,
    channels: 3 as const,
    data: Buffer.alloc(10 * 20 * 3, level),
  });
  it("is true for a black screen with at most a ghost icon, false with light or text", () => {
    const ghost: ListingEntry = { id: 1, kind: "icon", label: "", box: [0.8, 0.02, 0.85, 0.04], conf: 0.4 };
    expect(looksDark(image(9), [ghost])).toBe(true);
    expect(looksDark(image(120), [])).toBe(false);
    expect(looksDark(image(9), [text("9:41", [0.1, 0.1, 0.2, 0.2])])).toBe(false);
  });
});

describe("looksLocked", () => {
  it("sees the lock screen's swipe-up hint (English and Chinese UI), not a home screen or the keypad", () => {
    expect(
      looksLocked([text("9:41", [0.3, 0.15, 0.7, 0.24]), text("Swipe up to open", [0.35, 0.94, 0.65, 0.96])]),
    ).toBe(true);
    expect(looksLocked([text("向上轻扫以打开", [0.35, 0.94, 0.65, 0.96])])).toBe(true);
    expect(
      looksLocked([text("Clock", [0.1, 0.2, 0.2, 0.22]), text("Messages", [0.3, 0.2, 0.45, 0.22])]),
    ).toBe(false);
    expect(looksLocked(keypadRows([], [text("Enter Passcode", [0.3, 0.2, 0.7, 0.23])]))).toBe(false);
  });
});
