import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { applyKeyboard, fitKeyboard } from "../../src/vision/keyboard.js";
import { nameAppIcons } from "../../src/vision/named-icons.js";
import type { Candidate } from "../../src/vision/row.js";
import { mergeStatusBar } from "../../src/vision/status-bar.js";
import { findSwitches } from "../../src/vision/switches.js";

const text = (label: string, box: FracBox): Candidate => ({ kind: "text", label, box, conf: 0.95 });
const icon = (box: FracBox): Candidate => ({ kind: "icon", label: "", box, conf: 0.8 });

/** A 390×844 pt screen at `scale` px/pt, filled with `bg`, with iOS switches drawn at (x, y) pt (top-left). */
function screenWithSwitches(
  scale: number,
  bg: [number, number, number],
  switches: { x: number; y: number; on: boolean; track: [number, number, number] }[],
): RgbImage {
  const width = Math.round(390 * scale);
  const height = Math.round(844 * scale);
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(bg, i * 3);
  const put = (x: number, y: number, c: readonly number[]) => {
    if (x >= 0 && y >= 0 && x < width && y < height) data.set(c, (y * width + x) * 3);
  };
  for (const s of switches) {
    // Capsule 51×31 pt, knob 27 pt, 2 pt inset (UISwitch's drawing).
    const [x0, y0] = [s.x * scale, s.y * scale];
    const r = 15.5 * scale;
    const knobR = 13.5 * scale;
    const knobCx = x0 + (s.on ? 51 - 15.5 : 15.5) * scale;
    const cy = y0 + r;
    for (let y = Math.floor(y0); y < y0 + 31 * scale; y++)
      for (let x = Math.floor(x0); x < x0 + 51 * scale; x++) {
        const dx = Math.max(0, Math.abs(x + 0.5 - (x0 + 25.5 * scale)) - 10 * scale);
        if (dx * dx + (y + 0.5 - cy) ** 2 > r * r) continue;
        const inKnob = (x + 0.5 - knobCx) ** 2 + (y + 0.5 - cy) ** 2 <= knobR * knobR;
        put(x, y, inKnob ? [255, 255, 255] : s.track);
      }
  }
  return { width, height, channels: 3, data };
}

describe("findSwitches", () => {
  it("finds on and off switches on a light Settings screen, with their state", () => {
    const screen = screenWithSwitches(
      3,
      [255, 255, 255],
      [
        { x: 323, y: 200, on: true, track: [52, 199, 89] },
        { x: 323, y: 300, on: false, track: [233, 233, 234] },
      ],
    );
    const found = findSwitches(screen);
    expect(found.map((s) => s.on)).toEqual([true, false]);
    const [first] = found;
    expect(first?.box[0]).toBeCloseTo(323 / 390, 1);
    expect(first?.box[1]).toBeCloseTo(200 / 844, 2);
  });

  it("finds them in dark mode and at 2× scale, and nothing on a blank screen", () => {
    const dark = screenWithSwitches(
      2,
      [28, 28, 30],
      [
        { x: 320, y: 120, on: false, track: [57, 57, 61] },
        { x: 320, y: 500, on: true, track: [48, 209, 88] },
      ],
    );
    expect(findSwitches(dark).map((s) => s.on)).toEqual([false, true]);
    expect(findSwitches(screenWithSwitches(3, [242, 242, 247], []))).toEqual([]);
  });
});

describe("fitKeyboard and applyKeyboard", () => {
  // A few letters OCR read on a keyboard whose keys span the screen (pitch 0.1), rows at 0.70 + 0.065·k.
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
    text("space", at(5, 3)),
  ];

  it("fits the grid and lists every key of the letter layer with its own box", () => {
    const fit = fitKeyboard(anchors, 844 / 390);
    expect(fit?.pitch).toBeCloseTo(0.1, 3);
    expect(fit?.rowPitch).toBeCloseTo(0.065, 3);
    const rows = applyKeyboard([...anchors, text("Hello", [0.1, 0.2, 0.3, 0.22])], 844 / 390);
    const keys = rows.filter((r) => r.kind === "key");
    expect(keys.map((k) => k.label).join(" ")).toBe(
      "Q W E R T Y U I O P A S D F G H J K L shift Z X C V B N M 123 delete space return",
    );
    const q = keys.find((k) => k.label === "Q")?.box ?? [0, 0, 0, 0];
    expect((q[0] + q[2]) / 2).toBeCloseTo(0.05, 3);
    // The OCR letters are replaced by their keys; text elsewhere stays.
    expect(rows.filter((r) => r.kind === "text").map((r) => r.label)).toEqual(["Hello"]);
  });

  it("is not fooled by one line of single letters or by too few anchors", () => {
    expect(
      fitKeyboard([text("A", at(1, 1)), text("S", at(2, 1)), text("D", at(3, 1)), text("F", at(4, 1))], 2.16),
    ).toBeNull();
    expect(fitKeyboard(anchors.slice(0, 3), 2.16)).toBeNull();
  });

  it("reads the 123 layer from its digits", () => {
    const digits = ["1", "2", "3", "7", "0"].map((d) => text(d, at("1234567890".indexOf(d) + 0.5, 0)));
    const fit = fitKeyboard([...digits, text("ABC", at(1.2, 3))], 2.16);
    expect(fit?.layer).toBe("numbers");
  });
});

describe("mergeStatusBar", () => {
  it("makes the time and the status glyphs one [status] row", () => {
    const rows = mergeStatusBar([
      text("9:41", [0.1, 0.02, 0.2, 0.035]),
      icon([0.8, 0.02, 0.85, 0.035]),
      icon([0.87, 0.02, 0.93, 0.035]),
      text("Settings", [0.05, 0.1, 0.4, 0.13]),
    ]);
    expect(rows.map((r) => [r.kind, r.label])).toEqual([
      ["status", "9:41"],
      ["text", "Settings"],
    ]);
  });
  it("leaves a lock screen's big clock alone", () => {
    expect(mergeStatusBar([text("9:41", [0.3, 0.12, 0.7, 0.2])]).map((r) => r.kind)).toEqual(["text"]);
  });
});

describe("nameAppIcons", () => {
  const shape = { aspect: 844 / 390 };
  const appIcon = (x: number, y: number): Candidate => icon([x, y, x + 0.154, y + 0.071]);

  it("names an icon by the short line under it and drops that line", () => {
    const rows = nameAppIcons([appIcon(0.06, 0.1), text("Clock", [0.08, 0.175, 0.2, 0.19])], shape);
    expect(rows.map((r) => [r.kind, r.label])).toEqual([["app", "Clock"]]);
    expect(rows[0]?.labelBox).toEqual([0.08, 0.175, 0.2, 0.19]);
  });

  it("splits a line that runs under two icons between them", () => {
    const rows = nameAppIcons(
      [appIcon(0.06, 0.1), appIcon(0.29, 0.1), text("App Store Weather", [0.07, 0.175, 0.44, 0.19])],
      shape,
    );
    expect(rows.map((r) => [r.kind, r.label])).toEqual([
      ["app", "App Store"],
      ["app", "Weather"],
    ]);
  });

  it("leaves an icon without a name, and text far below it, alone", () => {
    const rows = nameAppIcons([appIcon(0.06, 0.1), text("Clock", [0.08, 0.3, 0.2, 0.32])], shape);
    expect(rows.map((r) => r.kind)).toEqual(["icon", "text"]);
  });
});
