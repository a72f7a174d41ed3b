import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { lookAlikes } from "../../../src/vision/ocr/look-alikes.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/** `text` through `lookAlikes`, each character's runner-up `alt` (score 0.1) or none where `alt` has a space. */
function chosen(text: string, alt: string): string {
  const chars = [...text];
  const alts = [...alt].map((a) => (a === " " ? "" : a));
  return lookAlikes(
    chars,
    alts,
    alts.map((a) => (a === "" ? 0 : 0.1)),
  ).join("");
}

describe("lookAlikes", () => {
  it("reads a doubled bar after a word's capital as `ll` when the recogniser offered `l`", () => {
    expect(chosen("AII Closed", " ll       ")).toBe("All Closed");
    expect(chosen("AII", " ll")).toBe("All");
    expect(chosen("AlI Closed", " Il       ")).toBe("All Closed");
    expect(chosen("AllI", " IIl")).toBe("Alll");
    expect(chosen("FuII", "    ")).toBe("FuII");
  });

  it("keeps Roman numerals, acronyms running on in capitals, and bars the recogniser did not doubt", () => {
    expect(chosen("XII", " ll")).toBe("XII");
    expect(chosen("VII", " ll")).toBe("VII");
    expect(chosen("AIIB", " ll ")).toBe("AIIB");
    expect(chosen("AII", "   ")).toBe("AII");
    expect(chosen("AII", " l ")).toBe("AII");
  });

  it("reads a word's first bar before d g k r v z or a capital as `I`", () => {
    expect(chosen("ldle", "I   ")).toBe("Idle");
    expect(chosen("lD 42", "I    ")).toBe("ID 42");
    expect(chosen("ldle", "    ")).toBe("ldle");
    expect(chosen("llama lake", "I     I   ")).toBe("llama lake");
  });

  it("reads a lone O before a small-letter word, or among digits, as 0", () => {
    expect(chosen("O items in machine", "0                 ")).toBe("0 items in machine");
    expect(chosen("1O:3O", " 0  0")).toBe("10:30");
    expect(chosen("O Items", "0      ")).toBe("O Items");
    expect(chosen("Precise: On", "         0 ")).toBe("Precise: On");
    expect(chosen("SLO-MO", "  0  0")).toBe("SLO-MO");
    expect(chosen("O items", "       ")).toBe("O items");
  });

  it("reads a lone 1 or I after a decimal quantity as the litre sign", () => {
    expect(chosen("0,5 1", "    l")).toBe("0,5 l");
    expect(chosen("1.5 I", "    l")).toBe("1.5 l");
    expect(chosen("Page 2 1", "       l")).toBe("Page 2 1");
    expect(chosen("v1.2 1", "     l")).toBe("v1.2 1");
    expect(chosen("0,5 1", "     ")).toBe("0,5 1");
  });

  it("reads a lone round glyph before a caret-like bar, the whole line, as 0", () => {
    expect(chosen("ol", "0 ")).toBe("0l");
    expect(chosen("Ol", "0 ")).toBe("0l");
    expect(chosen("ol", "  ")).toBe("ol");
    expect(chosen("olive", "0    ")).toBe("olive");
  });

  it("changes nothing without the recogniser's runner-ups", () => {
    expect(lookAlikes([..."AII"], undefined, undefined)).toEqual(["A", "I", "I"]);
  });
});

describe("look-alikes on a filmed real screen (rd-fordpass-home-widgets-light, seed 116 as the bench films it)", () => {
  const engine = useRealOcrEngine();

  it("keeps the widget's `All Closed` (guard: this frame reads it right with or without the rule)", async () => {
    const frame = await filmedRealScreen("rd-fordpass-home-widgets-light.jpg", 116);
    const texts = (await engine().recognize(frame)).map((l) => l.text);
    expect(texts).toContain("All Closed");
  }, 120_000);
});

/** A 390 × 844 pt form at 3×: a label and, in the field, a placeholder-grey `0` with the caret after it. */
async function zeroWithCaret(): Promise<RgbImage> {
  const W = 1170;
  const H = 2532;
  // placeholderText: #3C3C43 at 30% on white ≈ #C4C4C6; the caret a 2 pt systemBlue bar (UIKit).
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<rect width="100%" height="100%" fill="#FFFFFF"/>
<text x="60" y="1160" font-family="Helvetica" font-size="51" fill="#000">Amount</text>
<text x="400" y="1160" font-family="Helvetica" font-size="51" fill="#C4C4C6">0</text>
<rect x="440" y="1115" width="6" height="60" fill="#007AFF"/>
</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

describe("a field's grey 0 beside its caret (synthetic form)", () => {
  const engine = useRealOcrEngine();

  it("reads the digit 0, not the letter O", async () => {
    const texts = (await engine().recognize(await zeroWithCaret())).map((l) => l.text);
    expect(texts).toContain("0");
    expect(texts).not.toContain("O");
  }, 120_000);
});
