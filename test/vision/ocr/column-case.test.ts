import { describe, expect, it } from "vitest";
import { columnCase } from "../../../src/vision/ocr/column-case.js";
import type { TextLine } from "../../../src/vision/types.js";
import { realLabel } from "../real-set.js";

const line = (text: string, box: [number, number, number, number]): TextLine => ({ text, box, conf: 1 });

describe("columnCase", () => {
  it("reads a real section index's lone c, 0 and x as the capitals around them", () => {
    // The OCR boxes of ra-tp-applibrary-list.jpg's section index (750×1334 screenshot).
    const lines = [
      line("A", [0.971, 0.291, 0.991, 0.303]),
      line("B", [0.971, 0.31, 0.989, 0.324]),
      line("c", [0.969, 0.331, 0.991, 0.346]),
      line("D", [0.971, 0.352, 0.991, 0.366]),
      line("N", [0.971, 0.562, 0.991, 0.576]),
      line("0", [0.97, 0.583, 0.991, 0.597]),
      line("P", [0.975, 0.606, 0.991, 0.616]),
      line("Q", [0.971, 0.626, 0.991, 0.641]),
      line("U", [0.971, 0.71, 0.991, 0.724]),
      line("x", [0.97, 0.773, 0.991, 0.786]),
      line("Y", [0.974, 0.794, 0.989, 0.807]),
    ];
    const index = new Set(realLabel("ra-tp-applibrary-list.jpg").text.map((t) => t.text));
    const out = columnCase(lines).map((l) => l.text);
    expect(out).toEqual(["A", "B", "C", "D", "N", "O", "P", "Q", "U", "X", "Y"]);
    for (const t of out) expect(index.has(t)).toBe(true);
  });

  it("keeps a small letter shorter than the capitals, and lone letters outside a column", () => {
    const column = [
      line("A", [0.97, 0.3, 0.99, 0.314]),
      line("x", [0.97, 0.32, 0.99, 0.33]),
      line("B", [0.97, 0.336, 0.99, 0.35]),
    ];
    expect(columnCase(column)[1]?.text).toBe("x");
    // A key row: capitals beside the letter, not above or below it.
    const row = [
      line("A", [0.1, 0.8, 0.12, 0.814]),
      line("x", [0.2, 0.8, 0.22, 0.814]),
      line("B", [0.3, 0.8, 0.32, 0.814]),
    ];
    expect(columnCase(row)[1]?.text).toBe("x");
  });
});
