import { describe, expect, it } from "vitest";
import type { FracBox } from "../../src/shared/box.js";
import type { RgbImage } from "../../src/shared/image.js";
import { digitsInIcons } from "../../src/vision/icon-digits.js";
import type { DetectedObject, OcrEngine, TextLine } from "../../src/vision/types.js";
import { digitScreen } from "./ocr/digit-synth.js";
import { useRealOcrEngine } from "./ocr/real-engine.js";

const blank: RgbImage = { width: 1170, height: 2532, channels: 3, data: Buffer.alloc(1170 * 2532 * 3, 255) };
const icon = (box: FracBox): DetectedObject => ({ cls: "icon", box, conf: 0.5 });

/** An engine whose `readDigits` reads `digit` in every box whose top is above `below`. */
function engineReading(digit: string, below: number): OcrEngine & { asked: FracBox[][] } {
  const asked: FracBox[][] = [];
  return {
    asked,
    recognize: async () => [],
    readDigits: async (_img, boxes) => {
      asked.push([...boxes]);
      return boxes.map((b) => (b[1] < below ? { text: digit, conf: 0.95, box: b } : undefined));
    },
    close: async () => undefined,
  };
}

describe("digitsInIcons", () => {
  it("lists a digit read in an icon box as text and drops the icon", async () => {
    const objects = [icon([0.1, 0.2, 0.15, 0.23]), icon([0.1, 0.6, 0.15, 0.63])];
    const out = await digitsInIcons([], objects, blank, engineReading("7", 0.5), ["icon"]);
    expect(out.text.map((t) => t.text)).toEqual(["7"]);
    expect(out.objects).toEqual([objects[1]]);
  });

  it("offers no icon a text line touches, none too large, and no non-icon class", async () => {
    const line: TextLine = { text: "Wi-Fi", conf: 0.99, box: [0.12, 0.21, 0.4, 0.24] };
    const objects = [
      icon([0.1, 0.2, 0.15, 0.23]), // under the line
      icon([0.1, 0.3, 0.4, 0.4]), // ~85 pt tall: a picture, not a glyph
      { cls: "text", box: [0.1, 0.45, 0.15, 0.48] as FracBox, conf: 0.5 },
    ];
    const engine = engineReading("7", 1);
    const out = await digitsInIcons([line], objects, blank, engine, ["icon"]);
    expect(engine.asked).toEqual([]);
    expect(out.objects).toEqual(objects);
  });

  it("changes nothing with an engine that cannot read digits", async () => {
    const engine: OcrEngine = { recognize: async () => [], close: async () => undefined };
    const objects = [icon([0.1, 0.2, 0.15, 0.23])];
    const out = await digitsInIcons([], objects, blank, engine, ["icon"]);
    expect(out).toEqual({ text: [], objects });
  });
});

describe("lone digits in icon boxes, read by the real engine", () => {
  const engine = useRealOcrEngine();

  it("reads white digits on black the text detector missed; no ring, disc or radio becomes a digit", async () => {
    // Icon boxes as the UI detector gives them on the dark synthetic screen (`ocr/digit-synth.ts`).
    const digits: FracBox[] = [
      [0.075, 0.38, 0.16, 0.412], // 17 pt 8
      [0.069, 0.502, 0.164, 0.544], // 22 pt 1
      [0.062, 0.751, 0.193, 0.807], // 34 pt 7
    ];
    const shapes: FracBox[] = [
      [0.604, 0.379, 0.681, 0.412],
      [0.74, 0.382, 0.803, 0.411],
      [0.868, 0.383, 0.928, 0.408],
      [0.597, 0.63, 0.692, 0.671],
      [0.737, 0.635, 0.805, 0.666],
      [0.863, 0.638, 0.929, 0.665],
    ];
    const read = await engine().readDigits(await digitScreen(true), [...digits, ...shapes]);
    expect(read.map((l) => l?.text)).toEqual(["8", "1", "7", ...shapes.map(() => undefined)]);
  }, 60_000);
});
