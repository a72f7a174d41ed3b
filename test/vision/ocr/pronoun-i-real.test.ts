import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FontBook } from "../../../src/shared/fonts.js";
import type { RgbImage } from "../../../src/shared/image.js";
import { SCREENSHOT_WIDTH } from "../../../src/vision/config.js";
import type { PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { workingWidth } from "../../../src/vision/pipeline.js";
import { shrinkRgb } from "../../../src/vision/rectify.js";
import { loadRealImage } from "../real-set.js";
import { filmedRealScreen } from "./filmed-real.js";
import { useRealOcrEngine } from "./real-engine.js";

/** Read as the pipeline reads a screenshot: found on the working-size copy, read from the full size. */
async function read(engine: PaddleOcrEngine, image: RgbImage): Promise<string[]> {
  const working = shrinkRgb(image, workingWidth(image.width, SCREENSHOT_WIDTH));
  return (await engine.recognize(working, image)).map((l) => l.text);
}

/**
 * A light screen (390 × 844 pt at 3×) of answer capsules as ResearchKit draws them (secondary-label grey
 * 17 pt text centred on a systemGray6 capsule 44 pt tall), then what must not read as a leading `I`: a
 * search field's caret (2 pt systemBlue, 22 pt tall) before its placeholder, a 1 pt divider before a
 * label, a calendar event's 4 pt colour strip before its title. Noto Sans SC stands in for SF Pro (its
 * capital I is a bare stem too).
 */
async function capsuleScreen(): Promise<RgbImage> {
  const fonts = new FontBook();
  const [W, H, size] = [390, 844, 17];
  const parts = [`<rect width="${W}" height="${H}" fill="#ffffff"/>`];
  ["I Don’t Know", "I Agree"].forEach((label, i) => {
    const y = 120 + i * 70;
    const w = fonts.measure(label, size) + 40;
    parts.push(`<rect x="${(W - w) / 2}" y="${y}" width="${w}" height="44" rx="22" fill="#e5e5ea"/>`);
    parts.push(
      fonts.shape(label, W / 2, y + 22 + 0.36 * size, { size, fill: "#8e8e93", anchor: "middle" }).svg,
    );
  });
  parts.push(`<rect x="16" y="300" width="358" height="36" rx="10" fill="#eeeef0"/>`);
  parts.push(`<rect x="44" y="307" width="2" height="22" fill="#007aff"/>`);
  parts.push(fonts.shape("Search", 52, 318 + 0.36 * size, { size, fill: "#8e8e93" }).svg);
  parts.push(`<rect x="40" y="366" width="1" height="28" fill="#c6c6c8"/>`);
  parts.push(fonts.shape("Settings", 50, 380 + 0.36 * size, { size }).svg);
  parts.push(`<rect x="16" y="420" width="4" height="40" rx="2" fill="#34c759"/>`);
  parts.push(fonts.shape("Team meeting", 28, 432 + 0.36 * size, { size }).svg);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${H * 3}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

const I_M = /^I['’]m$/u;

/**
 * The pronoun `I` (`pronoun-i.ts`, `lead-icon.ts`): the QuickType bar's `I’m` on the development set's
 * keyboards, read `1'm` below the confidence floor on the screenshot and `'m` on filmed frames (the stem
 * at the region's edge), and a capsule's leading `I` cut as an icon because a stem fills its box.
 */
describe("the pronoun I on real and drawn screens", () => {
  const engine = useRealOcrEngine();

  it("reads the QuickType bar's I’m on rv-iqkm-keyboard (screenshot)", async () => {
    const t = await read(engine(), await loadRealImage("rv-iqkm-keyboard.png"));
    expect(t.filter((s) => I_M.test(s))).toHaveLength(1);
    expect(t).toContain("The");
  }, 120_000);

  it("reads I’m on filmed rv-iqkm-keyboard and rb-jsqmessages-keyboard (bench seeds)", async () => {
    for (const [name, seed] of [
      ["rv-iqkm-keyboard.png", 133],
      ["rb-jsqmessages-keyboard.png", 52],
    ] as const) {
      const t = (await engine().recognize(await filmedRealScreen(name, seed))).map((l) => l.text);
      expect(
        t.filter((s) => I_M.test(s)),
        name,
      ).toHaveLength(1);
      expect(
        t.some((s) => /^['’`]m$/u.test(s)),
        name,
      ).toBe(false);
    }
  }, 180_000);

  it("keeps a capsule's leading I, and reads no I off a caret, a divider or a colour strip", async () => {
    const t = await read(engine(), await capsuleScreen());
    expect(t).toContain("I Agree");
    expect(t.some((s) => /^I Don['’] ?t Know$/u.test(s))).toBe(true);
    expect(t).toContain("Search");
    expect(t).toContain("Settings");
    expect(t).toContain("Team meeting");
    expect(t.filter((s) => /^[I|l1] ?(Search|Settings|Team)/u.test(s))).toEqual([]);
  }, 120_000);
});
