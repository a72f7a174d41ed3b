import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RealScreen } from "../../src/lab/real/labels.js";
import type { FracBox } from "../../src/shared/box.js";
import { applyDialPad, padFromCaps } from "../../src/vision/dial-pad.js";
import type { Candidate } from "../../src/vision/row.js";
import { loadRealImage, REAL_SET_DIR, realLabel } from "./real-set.js";
import { defaultVisionStack } from "./vision-stack.js";

/**
 * Keypads apps draw themselves, on real screenshots (`datasets/real-iphone/`, the `re-` screens): thin
 * outline rings (iOS 7 style, an in-call DTMF pad) and iOS 6's flat square cells. The rows fed to
 * `applyDialPad` are what OCR and the detector give on these screens (digits read or not, a shape on
 * each ring), built from the hand label so each test fails for one reason.
 */

const centre = (b: FracBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

/** The labelled element a tap at the row's centre lands on (the smallest box containing it). */
function hit(label: RealScreen, box: FracBox): RealScreen["elements"][number] | undefined {
  const [x, y] = centre(box);
  return label.elements
    .filter((e) => x >= e.box[0] && x <= e.box[2] && y >= e.box[1] && y <= e.box[3])
    .sort(
      (a, b) => (a.box[2] - a.box[0]) * (a.box[3] - a.box[1]) - (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]),
    )[0];
}

const textRow = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.9 });
const iconRow = (box: FracBox): Candidate => ({ kind: "icon", label: "", box, conf: 0.5 });

/** Text rows for the labelled lines in `lines`, as OCR read them. */
const read = (label: RealScreen, lines: string[]): Candidate[] =>
  label.text.filter((t) => lines.includes(t.text)).map((t) => textRow(t.text, t.box));

/** The detector's shape on each labelled key cap (an outline ring is found as an icon). */
const rings = (label: RealScreen): Candidate[] =>
  label.elements.filter((e) => e.kind === "key").map((e) => iconRow(e.box));

/** Every key row taps the labelled key of its own character; every labelled key in `want` has a row. */
function expectKeys(label: RealScreen, rows: Candidate[], want: string[]): void {
  const keys = rows.filter((r) => r.kind === "key");
  for (const k of keys) expect(hit(label, k.box)?.char, `key row ${k.label}`).toBe(k.label);
  expect(keys.map((k) => k.label).sort()).toEqual([...want].sort());
}

const ALL = Array.from("0123456789*#");

describe("applyDialPad on keypads apps draw", () => {
  it("finds an outline-ring keypad from its caps when OCR reads only four digits", async () => {
    const id = "re-jcdialpad-dial";
    const label = realLabel(`${id}.png`);
    const screen = await loadRealImage(`${id}.png`);
    // As on this screen: 3 6 8 9 read, the thin 1 2 4 5 7 0 not; `*` read as 米; a ring on every key.
    const rows = [...read(label, ["3", "6", "8", "9", "ABC", "DEF", "PQRS"]), ...rings(label)];
    const star = label.text.find((t) => t.text === "*");
    if (star) rows.push(textRow("米", star.box));
    const out = applyDialPad(screen, rows);
    expectKeys(label, out, [...ALL, "call"]);
    // Each unread digit is read where the read digits sit on their caps, not over the letters.
    const two = out.find((r) => r.kind === "key" && r.label === "2");
    const abc = label.text.find((t) => t.text === "ABC");
    expect(two?.labelBox && abc && centre(two.labelBox)[1] < abc.box[1]).toBe(true);
    // The green call button beside the demo's logo button, on the row under the keypad.
    const call = out.find((r) => r.kind === "key" && r.label === "call");
    expect(call && hit(label, call.box)?.char).toBe("call");
  });

  it("lists * and # drawn as glyphs on iOS 6's flat cells, and # is not a delete key", async () => {
    const id = "re-jazinga-dial";
    const label = realLabel(`${id}.png`);
    const screen = await loadRealImage(`${id}.png`);
    const hash = label.text.find((t) => t.text === "#");
    const del = label.elements.find((e) => e.char === "delete");
    // Digits read, `*` and `#` not (small glyphs); the detector found the `#` glyph and the ⌫ symbol.
    const rows = [...read(label, Array.from("0123456789")), ...(hash ? [iconRow(hash.box)] : [])];
    if (del) rows.push(iconRow([del.box[0] + 0.12, del.box[1] + 0.04, del.box[2] - 0.12, del.box[3] - 0.04]));
    const out = applyDialPad(screen, rows);
    expectKeys(label, out, [...ALL, "delete", "call"]);
  });

  it("lists the # of an in-call DTMF pad whose ring is empty inside but for the glyph", async () => {
    const id = "re-voximplant-dtmf-keypad";
    const label = realLabel(`${id}.png`);
    const screen = await loadRealImage(`${id}.png`);
    const out = applyDialPad(screen, [
      ...read(label, [...Array.from("0123456789"), "*", "hide"]),
      ...rings(label),
    ]);
    expectKeys(label, out, ALL);
    // The `hide` caption under `#` stays text: it is its own button.
    expect(out.some((r) => r.kind === "text" && r.label === "hide")).toBe(true);
  });
});

describe("padFromCaps", () => {
  // Twelve equal caps on a 3×4 grid (0.25 × 0.1 pitch on a 390×844 screen, caps 0.19 wide).
  const aspect = 844 / 390;
  const capAt = (col: number, row: number): FracBox => {
    const [x, y] = [0.25 + 0.25 * col, 0.45 + 0.1 * row];
    const ry = 0.095 / aspect;
    return [x - 0.095, y - ry, x + 0.095, y + ry];
  };
  const caps = Array.from({ length: 12 }, (_, i) => iconRow(capAt(i % 3, Math.floor(i / 3))));
  const digitOn = (d: string, col: number, row: number): Candidate => {
    const [x, y] = centre(capAt(col, row));
    return textRow(d, [x - 0.01, y - 0.02, x + 0.01, y]);
  };

  it("takes the grid for a keypad when three digits sit on their own caps", () => {
    const pad = padFromCaps([...caps, digitOn("3", 2, 0), digitOn("5", 1, 1), digitOn("8", 1, 2)], aspect);
    expect(pad?.keys["1"].inferred).toBe(true);
    expect(pad?.keys["5"].inferred).toBe(false);
    const [x, y] = centre(capAt(1, 3));
    expect(pad?.keys["0"].at.x).toBeCloseTo(x, 3);
    expect(pad?.keys["0"].at.y).toBeCloseTo(y, 3);
  });

  it("leaves a grid of round icons alone without digits in the keypad's places", () => {
    expect(padFromCaps(caps, aspect)).toBeNull();
    expect(padFromCaps([...caps, digitOn("3", 2, 0), digitOn("5", 1, 1)], aspect)).toBeNull();
    // Digits on the wrong caps (a photo grid's counts, a calendar) are not a keypad.
    expect(
      padFromCaps([...caps, digitOn("7", 2, 0), digitOn("1", 1, 1), digitOn("2", 1, 2)], aspect),
    ).toBeNull();
  });
});

describe("a keypad drawn as outline rings, through the whole pipeline", () => {
  const vision = defaultVisionStack();

  it("dials on rings over a wallpaper: each key row taps its own key, none is a Control Center toggle", async () => {
    const label = realLabel("re-jcdialpad-dial.png");
    const view = await vision().pipeline.fromScreenshot(
      readFileSync(join(REAL_SET_DIR, "images", label.image)),
    );
    const keys = view.entries.filter((e) => e.kind === "key");
    for (const d of ALL) {
      const row = keys.find((k) => k.label === d);
      expect(row, `a key row for ${d}`).toBeDefined();
      if (row) expect(hit(label, row.box)?.char).toBe(d);
    }
    expect(view.entries.filter((e) => e.kind === "switch")).toEqual([]);
  });
});
