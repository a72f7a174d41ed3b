import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { charExtents, linksInText } from "../../src/vision/links.js";
import { centreX, centreY } from "../../src/vision/row.js";
import { loadRealImage } from "./real-set.js";

/** A white 300×40 image with blocks of "glyphs" (ink columns) in the given colours, left to right. */
function line(colours: readonly (readonly [number, number, number])[]): RgbImage {
  const width = 300;
  const height = 40;
  const data = Buffer.alloc(width * height * 3, 255);
  colours.forEach((c, k) => {
    // Glyph stems 3 px wide every 6 px, 40 px a word, 10 px word spaces; ink rows 12–28.
    for (let x = 10 + k * 50; x < 50 + k * 50; x++)
      if ((x - 10 - k * 50) % 6 < 3) for (let y = 12; y < 28; y++) data.set(c, (y * width + x) * 3);
  });
  return { width, height, channels: 3, data };
}

const BLACK = [0, 0, 0] as const;
const BLUE = [0, 122, 255] as const; // systemBlue

describe("links inside text lines", () => {
  const box = [10 / 300, 12 / 40, 240 / 300, 28 / 40] as const;
  const spaces = [55 / 300, 105 / 300, 155 / 300, 205 / 300];
  it("cuts a tinted word out of a label-coloured line at the read spaces", () => {
    const img = line([BLACK, BLACK, BLUE, BLACK, BLACK]);
    const links = linksInText(img, [{ text: "aaaa bbbb cccc dddd eeee", box: [...box], conf: 1, spaces }]);
    expect(links.map((l) => l.label)).toEqual(["cccc"]);
    expect(links[0]?.kind).toBe("link");
  });
  it("adds nothing for a line all in one colour, tinted or not", () => {
    for (const c of [BLACK, BLUE]) {
      const img = line([c, c, c, c, c]);
      expect(
        linksInText(img, [{ text: "aaaa bbbb cccc dddd eeee", box: [...box], conf: 1, spaces }]),
      ).toEqual([]);
    }
  });
  it("spreads characters over the words between read spaces", () => {
    const ext = charExtents("ab cd", [0, 0, 1, 1], [0.6]);
    expect(ext).toHaveLength(5);
    expect(ext[1]?.[1]).toBeCloseTo(0.6);
    expect(ext[3]?.[0]).toBeCloseTo(0.6);
  });
  it("finds the underlined data-detector link in a real Messages-style bubble", async () => {
    // rb-jsqmessages-chat: "tonight" is underlined in the label-coloured line (element box from the label).
    const img = await loadRealImage("rb-jsqmessages-chat.png");
    const links = linksInText(img, [
      { text: "tonight. My cell number is", box: [0.189, 0.445, 0.809, 0.475], conf: 1 },
    ]);
    expect(links.map((l) => l.label)).toEqual(["tonight"]);
    const b = links[0]?.box ?? [0, 0, 0, 0];
    expect(centreX(b)).toBeGreaterThan(0.1875);
    expect(centreX(b)).toBeLessThan(0.35625);
    expect(centreY(b)).toBeGreaterThan(0.44);
  });
});
