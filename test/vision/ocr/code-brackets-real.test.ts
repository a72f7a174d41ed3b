import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { bracketsFromInk, codeSlots } from "../../../src/vision/ocr/code-brackets.js";
import { decodeRgb } from "../../../src/vision/rectify.js";
import type { TextLine } from "../../../src/vision/types.js";
import { REAL_SET_DIR } from "../real-set.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

const IMAGE = "rd-zkytech-share-sheet-zh.jpg";

/** Bracket-only lines, top to bottom, and the first JSON key's line. */
function brackets(lines: readonly TextLine[]): { texts: string[]; firstKeyTop: number; braceTop: number } {
  const only = lines.filter((l) => /^[{}[\]]+,?$/.test(l.text)).sort((a, b) => a.box[1] - b.box[1]);
  const key = lines.find((l) => l.text.startsWith('"always_run_in_app"'));
  return { texts: only.map((l) => l.text), firstKeyTop: key?.box[1] ?? 0, braceTop: only[0]?.box[1] ?? 1 };
}

/**
 * A Scriptable script's JSON in a share sheet's preview (real dev-set screen): its `{` and `},` stand on
 * lines of their own, which the detector never boxed and PP-OCRv4 cannot read alone; before
 * `code-brackets.ts` both were missing from the listing, on the screenshot and on the camera frame.
 */
describe(`brace-only code lines (${IMAGE})`, () => {
  const engine = useRealOcrEngine();

  it("lists the opening { above the first key and the closing }, on the screenshot", async () => {
    const image = await decodeRgb(readFileSync(join(REAL_SET_DIR, "images", IMAGE)));
    const b = brackets(await engine().recognize(image));
    expect(b.texts).toEqual(["{", "},"]);
    expect(b.braceTop).toBeLessThan(b.firstKeyTop);
  }, 120_000);

  it("lists them on the camera frame (~1.4 px per point)", async () => {
    const b = brackets(await engine().recognize(await filmedRealScreen(IMAGE, 122)));
    expect(b.texts).toEqual(["{", "},"]);
    expect(b.braceTop).toBeLessThan(b.firstKeyTop);
  }, 120_000);
});

describe("code slots", () => {
  const line = (text: string, y: number): TextLine => ({ text, conf: 1, box: [0.05, y, 0.5, y + 0.02] });
  const image: RgbImage = { width: 100, height: 1000, channels: 3, data: Buffer.alloc(100 * 1000 * 3) };

  it("has none on a screen of prose, however its lines are spaced", () => {
    const prose = ["Wi-Fi", "Bluetooth", "Cellular", "Personal Hotspot"].map((t, i) =>
      line(t, 0.1 + 0.06 * i),
    );
    expect(codeSlots([...prose, line("Notifications", 0.5)], image)).toEqual([]);
  });

  it("expects a line before a code block, after it, and in a skipped pitch", () => {
    const code = ['"a" : 1,', '"b" : 2,', '"c" : 3,'].map((t, i) => line(t, 0.2 + 0.03 * i));
    const slots = codeSlots([...code, line('"d" : 4', 0.32)], image);
    const centres = slots.map((s) => Math.round((s.box.y0 + s.box.y1) / 2));
    expect(centres).toEqual([180, 300, 360]);
  });
});

describe("bracketsFromInk", () => {
  /** Black strokes on white, 40 × 40: each rect [x0, y0, x1, y1] inclusive. */
  const drawn = (rects: readonly (readonly [number, number, number, number])[]): RgbImage => {
    const data = Buffer.alloc(40 * 40 * 3, 255);
    for (const [x0, y0, x1, y1] of rects)
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) data.fill(0, (y * 40 + x) * 3, (y * 40 + x) * 3 + 3);
    return { width: 40, height: 40, channels: 3, data };
  };
  const mirror = (rects: readonly (readonly [number, number, number, number])[]) =>
    rects.map(([x0, y0, x1, y1]) => [39 - x1, y0, 39 - x0, y1] as const);
  // SF Pro's brace, schematically: arms at the ends curling right, a nib in the middle pointing left.
  const brace = [
    [14, 5, 16, 6],
    [12, 7, 13, 15],
    [9, 16, 11, 19],
    [12, 20, 13, 28],
    [14, 29, 16, 30],
  ] as const;
  const square = [
    [10, 5, 16, 6],
    [10, 7, 11, 28],
    [10, 29, 16, 30],
  ] as const;
  const ink = (x0: number, x1: number) => ({ x0, y0: 5, x1, y1: 31, score: 1 });

  it("tells { from } by the side the nib points to", () => {
    expect(bracketsFromInk(drawn(brace), ink(9, 17))).toBe("{");
    expect(bracketsFromInk(drawn(mirror(brace)), ink(23, 31))).toBe("}");
  });
  it("adds a comma hanging from the baseline after a brace", () => {
    expect(
      bracketsFromInk(drawn([...mirror(brace), [33, 26, 34, 32]]), {
        x0: 23,
        y0: 5,
        x1: 35,
        y1: 33,
        score: 1,
      }),
    ).toBe("},");
  });
  it("does not take a square bracket (straight stem, serifs at the ends) for a brace", () => {
    expect(bracketsFromInk(drawn(square), ink(10, 17))).toBeUndefined();
  });
});
