import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { repeatedBlankDiscs } from "../../src/vision/blank-discs.js";
import type { Candidate } from "../../src/vision/row.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

/** Plain discs repeated in one colour (`blank-discs.ts`), on real screenshots and a drawn palette. */
const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.4 });

describe("repeatedBlankDiscs", () => {
  it("drops the detector's boxes on a logo's four dots and keeps the screen's controls", async () => {
    const name = "rb-twilio-client-to-pstn.png";
    const image = await loadRealImage(name);
    const lines = realLabel(name).text.map(
      (t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }),
    );
    // Today's pipeline output: one box per dot of the Twilio mark.
    const dots = [
      icon([0.355, 0.311, 0.493, 0.375]),
      icon([0.511, 0.314, 0.642, 0.371]),
      icon([0.352, 0.383, 0.498, 0.447]),
      icon([0.517, 0.383, 0.649, 0.443]),
    ];
    const out = dropSpuriousRows([...lines, ...dots], image.height / image.width, image);
    expect(out).toEqual(lines);
  });

  it("keeps a keypad's round keys (one colour, each with its digit) and a call screen's round buttons", async () => {
    for (const name of ["rb-twilio-dial-view.png", "rb-twilio-call-view.png", "re-jcdialpad-dial.png"]) {
      const image = await loadRealImage(name);
      const keys = realLabel(name)
        .elements.filter((e) => e.kind === "key" || e.kind === "button")
        .map((e) => icon(e.box));
      expect(keys.length, name).toBeGreaterThanOrEqual(4);
      expect(repeatedBlankDiscs(image, keys).size, name).toBe(0);
    }
  });

  it("keeps a palette's swatches (plain discs, each its own colour); drops the same discs in one colour", () => {
    const draw = (colours: number[][]): RgbImage => {
      const width = 400;
      const height = 800;
      const data = Buffer.alloc(width * height * 3, 255);
      colours.forEach((c, k) => {
        const cx = 60 + k * 100;
        for (let y = 370; y < 430; y++)
          for (let x = cx - 30; x < cx + 30; x++)
            if ((x - cx) ** 2 + (y - 400) ** 2 <= 28 ** 2) data.set(c, (y * width + x) * 3);
      });
      return { width, height, channels: 3, data };
    };
    const boxes = [0, 1, 2, 3].map((k) =>
      icon([(30 + k * 100) / 400, 370 / 800, (90 + k * 100) / 400, 430 / 800]),
    );
    const palette = draw([
      [255, 59, 48],
      [52, 199, 89],
      [0, 122, 255],
      [255, 204, 0],
    ]);
    expect(repeatedBlankDiscs(palette, boxes).size).toBe(0);
    const pattern = draw([0, 1, 2, 3].map(() => [255, 59, 48]));
    expect(repeatedBlankDiscs(pattern, boxes).size).toBe(4);
  });
});
