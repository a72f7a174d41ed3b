import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { applyDialPad } from "../../src/vision/dial-pad.js";
import { decimalSeparator, isSystemNumberPad } from "../../src/vision/number-pad.js";
import type { Candidate } from "../../src/vision/row.js";
import { cellCentre, decimalPadPng, type PadOptions } from "./decimal-pad-synth.js";
import { filmScreenshot } from "./ocr/filmed-real.js";
import { REAL_SET_DIR } from "./real-set.js";
import { defaultVisionStack } from "./vision-stack.js";

const inside = (p: [number, number], b: FracBox): boolean =>
  p[0] > b[0] && p[0] < b[2] && p[1] > b[1] && p[1] < b[3];

/** The key rows a listing has on cell (col, row) of the synthetic pad. */
const keysOn = (rows: readonly Pick<Candidate, "kind" | "label" | "box">[], col: number, row: number) =>
  rows.filter((r) => r.kind === "key" && inside(cellCentre(col, row), r.box)).map((r) => r.label);

const PADS: PadOptions[] = [
  { dark: false, separator: ".", filledSeparator: false },
  { dark: false, separator: ",", filledSeparator: true },
  { dark: true, separator: ".", filledSeparator: true },
  { dark: true, separator: ",", filledSeparator: false },
];

describe("the system decimal and number pads, whole pipeline", () => {
  const vision = defaultVisionStack();

  for (const o of PADS)
    it(`lists the ${o.separator} key and delete on a ${o.dark ? "dark" : "light"} decimal pad (${o.filledSeparator ? "filled" : "bare"} key)`, async () => {
      const view = await vision().pipeline.fromScreenshot(await decimalPadPng(o));
      expect(keysOn(view.entries, 0, 3)).toEqual([o.separator]);
      expect(keysOn(view.entries, 2, 3)).toEqual(["delete"]);
      expect(keysOn(view.entries, 1, 3)).toEqual(["0"]);
      expect(view.entries.some((r) => r.kind === "key" && (r.label === "*" || r.label === "#"))).toBe(false);
    }, 60_000);

  for (const dark of [false, true])
    it(`leaves a ${dark ? "dark" : "light"} number pad's empty bottom-left cell unlisted`, async () => {
      const view = await vision().pipeline.fromScreenshot(
        await decimalPadPng({ dark, separator: "", filledSeparator: false }),
      );
      expect(keysOn(view.entries, 0, 3)).toEqual([]);
      expect(view.entries.filter((r) => inside(cellCentre(0, 3), r.box))).toEqual([]);
      expect(keysOn(view.entries, 2, 3)).toEqual(["delete"]);
    }, 60_000);

  it("lists a filmed decimal pad's delete key as delete, not #", async () => {
    const screen = await filmScreenshot(
      await decimalPadPng({ dark: true, separator: ".", filledSeparator: true }),
      11,
    );
    const view = await vision().pipeline.fromScreen(screen);
    expect(keysOn(view.entries, 2, 3)).toEqual(["delete"]);
    expect(keysOn(view.entries, 0, 3)).toEqual(["."]);
  }, 120_000);

  it("keeps the dev set's number pad (Clock, iOS 13–15 style) as it was: empty bottom-left, delete", async () => {
    const view = await vision().pipeline.fromScreenshot(
      readFileSync(join(REAL_SET_DIR, "images", "ra-tp-clock-edit-alarm.png")),
    );
    const bottom = view.entries.filter((r) => r.kind === "key" && r.box[1] > 0.9).map((r) => r.label);
    expect(bottom.sort()).toEqual(["0", "delete"]);
  }, 60_000);
});

/** A flat screen of grey `v` with dark ink where `draw(x, y)` says. */
function screen(w: number, h: number, v: number, draw: (x: number, y: number) => boolean): RgbImage {
  const data = Buffer.alloc(w * h * 3, v);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (draw(x, y)) data.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
  return { width: w, height: h, channels: 3, data };
}

describe("number-pad rules", () => {
  it("takes only a width-spanning grid docked at the screen's bottom for the system pad", () => {
    expect(isSystemNumberPad({ pitchX: 0.32, rows: [0.7, 0.77, 0.84, 0.92] })).toBe(true);
    // The Phone app's round caps (~100 pt pitch) and iOS 6's Phone keypad (call button and tab bar under it).
    expect(isSystemNumberPad({ pitchX: 0.25, rows: [0.4, 0.5, 0.6, 0.7] })).toBe(false);
    expect(isSystemNumberPad({ pitchX: 0.33, rows: [0.25, 0.39, 0.53, 0.67] })).toBe(false);
    expect(isSystemNumberPad({ pitchX: 0.25, rows: [0.7, 0.77, 0.84, 0.92] })).toBe(false);
  });

  it("tells a period from a comma by the ink's shape, and an empty cell from both", () => {
    // A 200×200 cell centred at (0.5, 0.5), cap half-size 0.25: a 6×6 dot, a 6×13 comma, nothing.
    const dot = screen(200, 200, 230, (x, y) => x >= 97 && x < 103 && y >= 110 && y < 116);
    const comma = screen(200, 200, 230, (x, y) => x >= 97 && x < 103 && y >= 110 && y < 123);
    const empty = screen(200, 200, 230, () => false);
    expect(decimalSeparator(dot, 0.5, 0.5, 0.25, 0.25)).toBe(".");
    expect(decimalSeparator(comma, 0.5, 0.5, 0.25, 0.25)).toBe(",");
    expect(decimalSeparator(empty, 0.5, 0.5, 0.25, 0.25)).toBeNull();
    // OCR's `.`/`,` is believed; a lone dot it read as `*` is named from the ink.
    expect(decimalSeparator(empty, 0.5, 0.5, 0.25, 0.25, ",")).toBe(",");
    expect(decimalSeparator(dot, 0.5, 0.5, 0.25, 0.25, "*")).toBe(".");
  });

  it("keeps the Phone keypad's * and # (a grid not docked at the bottom)", () => {
    const at = (col: number, row: number): FracBox => [
      0.24 + 0.25 * col,
      0.43 + 0.1 * row,
      0.26 + 0.25 * col,
      0.455 + 0.1 * row,
    ];
    const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.95 });
    const digits = Array.from("1234567890").map((d, i) =>
      text(d, i === 9 ? at(1, 3) : at(i % 3, Math.floor(i / 3))),
    );
    const blank = screen(390, 844, 255, () => false);
    const rows = applyDialPad(blank, [...digits, text("*", at(0, 3)), text("#", at(2, 3))]);
    const keys = rows.filter((r) => r.kind === "key").map((r) => r.label);
    expect(keys).toContain("*");
    expect(keys).toContain("#");
    expect(keys).not.toContain("delete");
  });
});
