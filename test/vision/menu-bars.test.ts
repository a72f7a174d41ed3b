import { describe, expect, it } from "vitest";
import { proposeGlyphs } from "../../src/vision/glyphs.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { row } from "./candidates.js";
import { blur, type Canvas, canvas, rect } from "./stepper-synth.js";

/**
 * The ≡ menu button (`menu-bars.ts`, `ink-blobs.ts` `overCapClusters`): SF Symbols' thin
 * `line.3.horizontal` and a web page's thick three-bar toggle, on white, at 3 px/pt.
 */
const WHITE = [255, 255, 255] as const;
const BLACK = [0, 0, 0] as const;

/** Three bars `w` pt long, `th` pt thick, `gap` pt apart, top-left at (20, 40) pt. */
function menu(th: number, gap: number, w: number): Canvas {
  const c = canvas(390, 120, 3, WHITE);
  for (let i = 0; i < 3; i++) rect(c, 20, 40 + i * (th + gap), w, th, BLACK);
  return c;
}
const at = (th: number, gap: number, w: number): [number, number] => [
  (20 + w / 2) / 390,
  (40 + 1.5 * th + gap) / 120,
];
const hit = (c: Canvas, rows: Parameters<typeof proposeGlyphs>[1], p: [number, number]): boolean =>
  proposeGlyphs(c, rows).some(
    (r) => contains(r.box, p[0], p[1]) && contains(r.box, centreX(r.box), centreY(r.box)),
  );

describe("≡ menu buttons", () => {
  it("finds thick bars through a camera's blur (the halo's pieces re-read as one symbol)", () => {
    for (const [th, gap, w] of [
      [4, 5, 26],
      [4, 6, 28],
      [5, 5, 28],
    ] as const)
      expect(hit(blur(menu(th, gap, w), 3), [], at(th, gap, w))).toBe(true);
  });

  it("keeps a ≡ with a title or logo right after it (a control, not a cell's leading image)", () => {
    for (const [th, gap, w] of [
      [2, 5, 22],
      [3, 4.5, 22],
      [4, 5, 26],
    ] as const) {
      const title = row("text", "Docs", [(20 + w + 10) / 390, 0.4, 0.5, 0.55]);
      expect(hit(menu(th, gap, w), [title], at(th, gap, w))).toBe(true);
    }
  });

  it("still drops other leading glyphs before a text line (a cell's image: the text's row is the target)", () => {
    const c = canvas(390, 120, 3, WHITE);
    // A filled square glyph and a two-bar `=`, each with text 10 pt to its right.
    rect(c, 20, 40, 20, 20, BLACK);
    rect(c, 20, 80, 22, 3, BLACK);
    rect(c, 20, 88, 22, 3, BLACK);
    const rows = [
      row("text", "General", [50 / 390, 0.35, 0.5, 0.48]),
      row("text", "Equal", [52 / 390, 0.68, 0.5, 0.78]),
    ];
    expect(proposeGlyphs(c, rows)).toEqual([]);
  });
});
