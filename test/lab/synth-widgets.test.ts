import { describe, expect, it } from "vitest";
import { widgetScreen } from "../../src/lab/synth/widget-screens.js";
import { FontBook } from "../../src/shared/fonts.js";
import { seededRandom } from "../../src/util/random.js";

const fonts = new FontBook();

/** HIG "Widgets", widget dimensions on a 390×844 pt iPhone: small, medium, large (w × h). */
const SIZES = [
  [158, 158],
  [338, 158],
  [338, 354],
];

describe("synthetic widget home screens (HIG metrics)", () => {
  const screens = Array.from({ length: 30 }, (_, i) => widgetScreen(seededRandom(1000 + i), fonts));

  it("draws widgets only at the HIG sizes, on the grid's slots, each with its name 14 pt under it", () => {
    let widgets = 0;
    for (const { scene } of screens)
      for (const w of scene.elements.filter((e) => e.id.startsWith("w.widget"))) {
        widgets++;
        expect(SIZES).toContainEqual([w.rect.w, w.rect.h]);
        // Small widgets centred on ±90 pt (two columns' middle), medium and large on the screen's centre.
        const cx = w.rect.x + w.rect.w / 2;
        expect([105, 195, 285]).toContain(cx);
        // Tops on a row's tile top: 71 pt + n × 98 pt.
        expect((w.rect.y - 71) % 98).toBe(0);
        const below = scene.elements
          .filter(
            (e) => e.kind === "text" && e.label === w.label && Math.abs(e.rect.x + e.rect.w / 2 - cx) < 0.5,
          )
          .map((e) => Math.abs(e.rect.y + e.rect.h / 2 - (w.rect.y + w.rect.h + 14)));
        expect(Math.min(...below)).toBeLessThan(2);
      }
    expect(widgets).toBeGreaterThan(30);
  });

  it("keeps every text line inside the screen and writes it with the shipped fonts' glyphs", () => {
    for (const { scene } of screens)
      for (const t of scene.elements.filter((e) => e.kind === "text")) {
        expect(t.rect.x).toBeGreaterThanOrEqual(0);
        expect(t.rect.x + t.rect.w).toBeLessThanOrEqual(390);
        expect(fonts.missingGlyphs(t.label, "regular")).toEqual([]);
      }
  });

  it("draws the script-style content: thin clock digits, degree signs, Chinese dates", () => {
    const labels = screens.flatMap(({ scene }) => scene.elements.map((e) => e.label));
    expect(labels.some((l) => /^\d\d:\d\d$/.test(l))).toBe(true);
    expect(labels.some((l) => /^-?\d+°$/.test(l))).toBe(true);
    expect(labels.some((l) => /^\d+月\d+日 星期[日一二三四五六]$/.test(l))).toBe(true);
    expect(labels.some((l) => /^(农历)?[正二三四五六七八九十冬腊]+月/.test(l))).toBe(true);
  });

  it("is reproducible from its seed", () => {
    const a = widgetScreen(seededRandom(7), fonts).scene.body();
    const b = widgetScreen(seededRandom(7), fonts).scene.body();
    expect(a).toBe(b);
  });
});
