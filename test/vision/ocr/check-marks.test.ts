import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { parenthesisedChecks } from "../../../src/vision/ocr/symbols.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/**
 * A bracketed glyph between two parentheses, drawn pixel by pixel on a white 80×40 line: `(` and `)` as
 * bars from y 6 to 36 (they reach above the capitals and below the baseline), and between them either a
 * check mark (short arm down-right from y 20 to the vertex at y 30, long arm up to y 12: SF Symbols'
 * `checkmark`) or a symmetric `V` (both arms from y 14).
 */
function bracketed(glyph: "check" | "v"): RgbImage {
  const width = 80;
  const height = 40;
  const data = Buffer.alloc(width * height * 3, 255);
  const dot = (x: number, y: number) => {
    for (let dy = 0; dy < 2; dy++)
      for (let dx = 0; dx < 2; dx++)
        data.fill(30, ((y + dy) * width + x + dx) * 3, ((y + dy) * width + x + dx + 1) * 3);
  };
  for (let y = 6; y < 36; y++) {
    dot(20, y);
    dot(58, y);
  }
  const line = (x0: number, y0: number, x1: number, y1: number) => {
    const n = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
    for (let i = 0; i <= n; i++)
      dot(Math.round(x0 + ((x1 - x0) * i) / n), Math.round(y0 + ((y1 - y0) * i) / n));
  };
  if (glyph === "check") {
    line(30, 20, 35, 30);
    line(35, 30, 47, 12);
  } else {
    line(30, 14, 38, 30);
    line(38, 30, 46, 14);
  }
  return { width, height, channels: 3, data };
}

const whole = { x0: 0, y0: 0, x1: 80, y1: 40, score: 1 };

describe("check marks in parentheses read with full-width brackets", () => {
  it("reads a check between parentheses as (✓) whichever brackets the recogniser chose", () => {
    for (const read of ["（V）", "(√)", "（)", "(V）"])
      expect(parenthesisedChecks(read, bracketed("check"), whole, []).text, read).toBe("(✓)");
  });

  it("moves the spaces after a `()` reading along by the character it gains", () => {
    const out = parenthesisedChecks("（) x", bracketed("check"), whole, [{ index: 3 }]);
    expect(out.text).toBe("(✓) x");
    expect(out.spaces).toEqual([{ index: 4 }]);
  });

  it("leaves a symmetric V in brackets alone", () => {
    expect(parenthesisedChecks("（V）", bracketed("v"), whole, []).text).toBe("（V）");
  });
});

describe("check marks on a filmed real widget", () => {
  const engine = useRealOcrEngine();
  const bare = (t: string) => t.replace(/\s+/gu, "").normalize("NFKC");

  it("reads every (✓) of the FordPass medium widget's door lines (rd-fordpass-home-widget-medium)", async () => {
    // Two films of the screen (two camera seeds): the blur makes the recogniser read the checks' brackets
    // full-width on some lines (`LR （V)|RR（)`).
    for (const seed of [31, 90]) {
      const doors = (
        await engine().recognize(await filmedRealScreen("rd-fordpass-home-widget-medium.jpg", seed))
      )
        .map((l) => bare(l.text))
        .filter((t) => /^L[FR]\(/u.test(t));
      expect(doors.length, `seed ${seed}`).toBeGreaterThanOrEqual(2);
      for (const t of doors) expect(t, `seed ${seed}`).toMatch(/^L[FR]\(✓\)\|R[FR]\(✓\)$/u);
    }
  }, 240_000);
});
