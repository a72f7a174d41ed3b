import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { edgeSharpness, textBehindMaterial } from "../../src/vision/materials.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { filmedRealScreen } from "./ocr/filmed-real.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Text read through a bar's material, on real screenshots of the development set. The rows are the
 * screen's labelled text lines (as OCR lists them: sharp text, the bar's own title among them) plus the
 * fragments today's pipeline read under the bars (their boxes from its output on the same screen).
 */
const text = (label: string, box: Candidate["box"]): Candidate => ({ kind: "text", label, box, conf: 0.9 });

async function load(name: string): Promise<{ image: RgbImage; lines: Candidate[] }> {
  const image = await loadRealImage(name);
  const lines = realLabel(name).text.map((t) => text(t.text, t.box));
  return { image, lines };
}

describe("textBehindMaterial", () => {
  it("drops lines blurred under a dark navigation bar, keeps the bar's title and the list", async () => {
    const { image, lines } = await load("rc-netnewswire-timeline-dark.png");
    const blurred = [
      text("The full traile", [0.187, 0.064, 0.413, 0.078]),
      text("Devl W", [0.583, 0.067, 0.719, 0.077]),
      text("The pitch...", [0.185, 0.086, 0.386, 0.104]),
    ];
    const rows = [...lines, ...blurred];
    const kept = dropSpuriousRows(rows, image.height / image.width, image);
    for (const b of blurred) expect(kept, b.label).not.toContain(b);
    for (const l of lines) expect(kept, l.label).toContain(l);
    // Several times less sharp than the screen's text: the material's blur, not the font.
    const title = lines.find((l) => l.label === "Today");
    expect(title).toBeDefined();
    const [first] = blurred;
    if (title && first)
      expect(edgeSharpness(image, first.box)).toBeLessThan(0.3 * edgeSharpness(image, title.box));
  });

  it("drops lines faded under a light toolbar, keeps its search field and the last sharp lines", async () => {
    const { image, lines } = await load("rc-netnewswire-timeline-light.png");
    const faded = [
      text("Michael Tsai", [0.207, 0.978, 0.383, 0.989]),
      text("11:05 AM", [0.842, 0.978, 0.968, 0.99]),
    ];
    const kept = dropSpuriousRows([...lines, ...faded], image.height / image.width, image);
    for (const f of faded) expect(kept, f.label).not.toContain(f);
    for (const l of lines) expect(kept, l.label).toContain(l);
  });

  it("drops nothing on screens whose bars hold only their own sharp text", async () => {
    for (const name of [
      "ra-tp-calendar-new-event.png",
      "rb-messagekit-chat.png",
      "rc-icecubes-news-dark.jpg",
      "ra-atlantis-settings-zh.png",
      // The App Library's placeholder in its translucent search field: faint and a little soft.
      "ra-tp-applibrary-list.jpg",
    ]) {
      const { image, lines } = await load(name);
      expect(textBehindMaterial(image, lines).size, name).toBe(0);
    }
  });

  it("drops fragments soft and faint under iOS 26's floating toolbar, keeps the glass's own search field", async () => {
    const { image, lines } = await load("rc-netnewswire-timeline-light.png");
    // The pipeline's rows at b884b81: a headline seen between the glass buttons and under them.
    const glass = [
      text("Jes", [0.155, 0.929, 0.226, 0.946]),
      text("to", [0.206, 0.956, 0.25, 0.968]),
      text("bos", [0.754, 0.955, 0.837, 0.968]),
    ];
    const kept = dropSpuriousRows([...lines, ...glass], image.height / image.width, image);
    for (const g of glass) expect(kept, g.label).not.toContain(g);
    for (const l of lines) expect(kept, l.label).toContain(l);
  });

  it("drops a line soft and faint under the glass navigation bar on a camera frame", async () => {
    const name = "rc-netnewswire-timeline-dark.png";
    const image = await filmedRealScreen(name, 7 + 84);
    const lines = realLabel(name).text.map((t) => text(t.text, t.box));
    const fragment = text("The pitch...", [0.183, 0.086, 0.388, 0.105]);
    const behind = textBehindMaterial(image, [...lines, fragment]);
    expect(behind.has(fragment)).toBe(true);
    for (const l of lines) expect(behind.has(l), l.label).toBe(false);
  });

  it("keeps faint bar text a camera softens: App Library's title, a close ✕ read `x`", async () => {
    for (const [name, seed] of [
      ["ra-tp-applibrary-list.jpg", 7 + 21],
      ["rb-twostep-keyboard.png", 7 + 61],
    ] as const) {
      const image = await filmedRealScreen(name, seed);
      const lines = realLabel(name).text.map((t) => text(t.text, t.box));
      expect(textBehindMaterial(image, lines).size, name).toBe(0);
    }
  });
});
