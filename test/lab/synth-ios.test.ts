import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { iosScreen } from "../../src/lab/synth/ios-screens.js";
import { SYMBOL_NAMES, SYMBOLS } from "../../src/lab/synth/symbols.js";
import { FontBook } from "../../src/shared/fonts.js";
import { seededRandom } from "../../src/util/random.js";

const fonts = new FontBook();

/** Share of dark pixels in a 48×48 render of one symbol drawn black on white. */
async function inkShare(name: string): Promise<number> {
  const draw = SYMBOLS[name];
  if (!draw) throw new Error(name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 24 24"><rect width="24" height="24" fill="#fff"/>${draw(24, "#000", 1.8, "#fff")}</svg>`;
  const { data } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data.filter((v) => v < 128).length / data.length;
}

describe("iOS-style synthetic screens", () => {
  it("every symbol draws visible ink inside its box, none fills it", async () => {
    expect(SYMBOL_NAMES.length).toBeGreaterThanOrEqual(60);
    for (const name of SYMBOL_NAMES) {
      const share = await inkShare(name);
      expect(share, name).toBeGreaterThan(0.02);
      expect(share, name).toBeLessThan(0.8);
    }
  });

  it("labels keyboard keys, switches on and off and icon-only buttons across screens", () => {
    const ids: string[] = [];
    const keyLabels = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const scene = iosScreen(seededRandom(seed), fonts, 390, 844);
      for (const el of scene.truth()) {
        ids.push(el.id);
        if (el.id.startsWith("key.")) {
          expect(el.kind).toBe("control");
          keyLabels.add(el.label);
        }
        if (el.id.startsWith("switch.")) {
          expect(el.kind).toBe("control");
          const [l, t, r, b] = el.box;
          expect(Math.round((r - l) * 390)).toBe(51); // iOS switch metrics: 51×31 pt
          expect(Math.round((b - t) * 844)).toBe(31);
        }
        if (el.id.startsWith("iconbtn.")) expect(el.kind).toBe("icon");
      }
    }
    expect(ids.some((i) => i.startsWith("switch.on"))).toBe(true);
    expect(ids.some((i) => i.startsWith("switch.off"))).toBe(true);
    expect(ids.some((i) => i.startsWith("dial."))).toBe(true);
    expect(ids.filter((i) => i.startsWith("iconbtn.")).length).toBeGreaterThan(30);
    expect(keyLabels.has("space")).toBe(true);
  });
});
