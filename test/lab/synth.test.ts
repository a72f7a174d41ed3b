import { describe, expect, it } from "vitest";
import { DETECTOR_CLASSES, scaledGeometry, syntheticScreen } from "../../src/lab/synth/dataset.js";
import { FontBook } from "../../src/shared/fonts.js";

const fonts = new FontBook();
const geometry = scaledGeometry(195); // small renders keep the test quick

describe("synthetic detector screens", () => {
  it("the same seed and index give the same pixels and boxes; another index differs", async () => {
    const a = await syntheticScreen(3, 5, fonts, geometry);
    const b = await syntheticScreen(3, 5, fonts, geometry);
    const c = await syntheticScreen(3, 6, fonts, geometry);
    expect(b.boxes).toEqual(a.boxes);
    expect(b.image.data.equals(a.image.data)).toBe(true);
    expect(c.image.data.equals(a.image.data)).toBe(false);
  });

  it("draws both sources at the requested size, with valid boxes of the detector's classes", async () => {
    const sources = new Set<string>();
    const classes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const s = await syntheticScreen(11, i, fonts, geometry);
      sources.add(s.source);
      // The 6.1" phone, or a Home-button phone (375×667 pt) for some iOS-style screens.
      expect([
        [195, 422],
        [195, 347],
      ]).toContainEqual([s.image.width, s.image.height]);
      expect(s.boxes.length).toBeGreaterThan(0);
      for (const { cls, box } of s.boxes) {
        classes.add(cls);
        expect(DETECTOR_CLASSES).toContain(cls);
        expect(box[0]).toBeGreaterThanOrEqual(0);
        expect(box[1]).toBeGreaterThanOrEqual(0);
        expect(box[2]).toBeLessThanOrEqual(195);
        expect(box[3]).toBeLessThanOrEqual(s.image.height);
        expect(box[2] - box[0]).toBeGreaterThanOrEqual(2);
        expect(box[3] - box[1]).toBeGreaterThanOrEqual(2);
      }
    }
    expect([...sources].sort()).toEqual(["layout", "phone"]);
    expect([...classes].sort()).toEqual(["control", "icon", "text"]);
  });
});
