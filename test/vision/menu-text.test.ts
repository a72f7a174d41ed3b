import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { menuGlyphReads } from "../../src/vision/menu-text.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import type { Candidate } from "../../src/vision/row.js";
import { row } from "./candidates.js";
import { type Canvas, canvas, type Rgb, rect } from "./stepper-synth.js";

/**
 * The ≡ menu glyph read as the text `三` (`menu-text.ts`): three equal bars become `[button] "menu"`;
 * the character's strokes of three lengths, two bars, or a word stay text.
 */
const PAGE: Rgb = [242, 242, 247];
const INK: Rgb = [60, 60, 67];
const GREY: Rgb = [150, 150, 155];

/** Bars of the given lengths (pt), centred on x = 40 pt, 2 pt thick, 6 pt apart from y = 20 pt; at 2 px/pt. */
function bars(lengths: readonly number[], edge = false): Canvas {
  const c = canvas(120, 60, 2, PAGE);
  lengths.forEach((len, i) => {
    const y = 20 + i * 8;
    rect(c, 40 - len / 2, y, len, 2, INK);
    // The antialiased row the pixel grid leaves under a bar whose edge falls mid-pixel: every other
    // pixel half-dark (about half the row reads as ink).
    if (edge)
      for (let px = Math.round((40 - len / 2) * 2); px < Math.round((40 + len / 2) * 2); px += 2)
        c.data.set(GREY, ((y + 2) * 2 * c.width + px) * 3);
  });
  return c;
}
const read = (c: Canvas, label: string): Candidate[] =>
  menuGlyphReads(c, [row("text", label, [28 / 120, 17 / 60, 52 / 120, 41 / 60])]);

describe("≡ read as text", () => {
  it("makes three equal bars read `三` a menu button", () => {
    expect(read(bars([20, 20, 20]), "三")).toMatchObject([{ kind: "button", label: "menu" }]);
    expect(read(bars([20, 20, 20]), "≡")).toMatchObject([{ kind: "button", label: "menu" }]);
  });

  it("accepts a bar's antialiased edge row (partial ink right under a bar)", () => {
    expect(read(bars([20, 20, 20], true), "三")).toMatchObject([{ kind: "button", label: "menu" }]);
  });

  it("keeps the character 三 (three strokes of different lengths), two bars, and words as text", () => {
    expect(read(bars([16, 13, 20]), "三")).toMatchObject([{ kind: "text", label: "三" }]);
    expect(read(bars([20, 20]), "=")).toMatchObject([{ kind: "text", label: "=" }]);
    expect(read(bars([20, 20, 20]), "Menu")).toMatchObject([{ kind: "text", label: "Menu" }]);
  });

  it("names the dimmed ≡ of a real WeChat mini-program page (check set, dokit storage editor)", async () => {
    const screen = await decodeRgb(
      readFileSync(join("datasets", "real-iphone-check", "images", "ck-dokit-wechat-storage-edit-zh.png")),
    );
    // The OCR's box for the `三` it reads there.
    const rows = [row("text", "三", [0.908, 0.151, 0.952, 0.174])];
    expect(menuGlyphReads(screen, rows)).toMatchObject([{ kind: "button", label: "menu" }]);
  });
});
