import { describe, expect, it } from "vitest";
import { listPictures } from "../../src/vision/pictures.js";
import type { Candidate } from "../../src/vision/row.js";
import { centreX, centreY, contains } from "../../src/vision/row.js";
import { row } from "./candidates.js";
import { loadRealImage, realLabel } from "./real-set.js";

/**
 * Transport controls over a picture (`picture-controls.ts`): a real screen's map snapshot stands in for
 * the album art, with icon rows set over it as the glyph proposer or the detector would list them.
 */
const ID = "rb-messagekit-chat-media.png";
const labelledTexts = (): Candidate[] => realLabel(ID).text.map((t) => row("text", t.text, t.box));
/** MessageKit's location bubble: x 0.05–0.70, y 0.24–0.53. A ~26 pt symbol centred at (x, y). */
const symbol = (x: number, y: number, pt = 26): Candidate =>
  row("icon", "", [x - pt / 780, y - pt / 1688, x + pt / 780, y + pt / 1688]);
const onMap = (r: Candidate): boolean => contains([0.05, 0.24, 0.7, 0.53], centreX(r.box), centreY(r.box));

describe("transport controls over a picture", () => {
  it("keeps ⏮ ⏯ ⏭ set evenly on one line over the picture, the middle one larger", async () => {
    const image = await loadRealImage(ID);
    const controls = [symbol(0.2, 0.45), symbol(0.375, 0.45, 36), symbol(0.55, 0.45)];
    const kept = listPictures(image, [...labelledTexts(), ...controls]);
    for (const c of controls) expect(kept).toContain(c);
  });

  it("folds shapes that do not line up, or are unevenly spaced, into the picture's one row", async () => {
    const image = await loadRealImage(ID);
    const scattered = [symbol(0.2, 0.3), symbol(0.4, 0.45), symbol(0.6, 0.38)];
    const uneven = [symbol(0.15, 0.5), symbol(0.22, 0.5), symbol(0.6, 0.5)];
    const two = [symbol(0.3, 0.35), symbol(0.5, 0.35)];
    for (const shapes of [scattered, uneven, two]) {
      const kept = listPictures(image, [...labelledTexts(), ...shapes]);
      for (const s of shapes) expect(kept).not.toContain(s);
      expect(kept.filter((r) => r.kind === "icon" && onMap(r))).toHaveLength(1);
    }
  });
});
