import { describe, expect, it } from "vitest";
import { DEFAULT_GLYPH_OPTIONS, proposeGlyphs } from "../../src/vision/glyphs.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage, realLabel } from "./real-set.js";

const centreIn = (b: readonly number[], r: { box: readonly number[] }): boolean => {
  const x = ((r.box[0] as number) + (r.box[2] as number)) / 2;
  const y = ((r.box[1] as number) + (r.box[3] as number)) / 2;
  return x >= (b[0] as number) && x <= (b[2] as number) && y >= (b[1] as number) && y <= (b[3] as number);
};

// Toolbar and row-end symbols on flat bars, found on the screenshots and lost on the camera frames
// while the margin's flatness counted the symbols' own blur halo as texture.
const FILMED: [string, string, number][] = [
  ["rd-bark-shortcuts-action-detail-zh.png", "run", 107], // ▶ in a toolbar
  ["rc-vpsny-accounts-drawer.png", "menu", 99], // ≡ in a navigation bar
  ["rc-tubecast-playlist.png", "reorder", 97], // ≡ grip at a row's start
  ["rd-fordpass-home-widget-dark.jpg", "refresh", 113], // ↻ in a dark widget
];

describe("proposeGlyphs on camera frames", () => {
  for (const [name, label, seed] of FILMED)
    it(`finds ${name}'s "${label}" beyond its blur halo, and not without leaving the halo out`, async () => {
      const screen = await filmedRealScreen(name, seed);
      const truth = realLabel(name).elements.find((e) => e.label === label);
      if (!truth) throw new Error(`no ${label} in ${name}`);
      expect(proposeGlyphs(screen, []).filter((r) => centreIn(truth.box, r))).toHaveLength(1);
      const sharp = { ...DEFAULT_GLYPH_OPTIONS, haloPt: 0 };
      expect(proposeGlyphs(screen, [], sharp).filter((r) => centreIn(truth.box, r))).toHaveLength(0);
    });

  it("leaves sharp screenshots as they were (no halo measured), a night photo's soft lights included", async () => {
    for (const name of [...FILMED.map(([n]) => n), "rc-bingpaper-photo-dark.jpg"]) {
      const screen = await loadRealImage(name);
      expect(proposeGlyphs(screen, []), name).toEqual(
        proposeGlyphs(screen, [], { ...DEFAULT_GLYPH_OPTIONS, haloPt: 0 }),
      );
    }
  });
});
