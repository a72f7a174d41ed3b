import { describe, expect, it } from "vitest";
import { splitInfoGlyphs } from "../../src/vision/info-glyph.js";
import type { Candidate } from "../../src/vision/row.js";

const text = (label: string, box: [number, number, number, number]): Candidate => ({
  kind: "text",
  label,
  box,
  conf: 0.95,
});

describe("splitInfoGlyphs", () => {
  // A 1125×2436 Recents cell: detail text and the info glyph at the trailing edge, read as one line.
  const aspect = 2436 / 1125;

  it("splits a cell's detail text from the info button read as a circled digit", () => {
    const rows = splitInfoGlyphs([text("Yesterday ①", [0.696, 0.201, 0.956, 0.235])], aspect);
    expect(rows.map((r) => [r.kind, r.label])).toEqual([
      ["button", "info"],
      ["text", "Yesterday"],
    ]);
    const [button, detail] = rows;
    // The glyph: the line's height square at the trailing end; the text ends before it.
    expect(button?.box[2]).toBe(0.956);
    expect(button?.box[0]).toBeCloseTo(0.956 - 0.034 * aspect, 6);
    expect(detail?.box[2]).toBeLessThan(button?.box[0] ?? 0);
  });

  it("makes a lone glyph the button and leaves numbering and other text alone", () => {
    expect(splitInfoGlyphs([text("ⓘ", [0.9, 0.2, 0.95, 0.22])], aspect).map((r) => r.kind)).toEqual([
      "button",
    ]);
    const kept = [text("Step①", [0.1, 0.3, 0.3, 0.32]), text("10:09 AM", [0.1, 0.4, 0.3, 0.42])];
    expect(splitInfoGlyphs(kept, aspect)).toEqual(kept);
  });
});
