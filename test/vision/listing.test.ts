import { describe, expect, it } from "vitest";
import { iou, readingOrder } from "../../src/shared/box.js";
import { buildListing, formatListing } from "../../src/vision/listing.js";
import type { DetectedObject, TextLine } from "../../src/vision/types.js";

describe("listing", () => {
  it('formats rows as id [kind] "label" [l,t,r,b] conf with 3-decimal boxes', () => {
    const text: TextLine[] = [{ text: "Clock", box: [0.0612, 0.1881, 0.2034, 0.2049], conf: 0.973 }];
    const out = formatListing(buildListing(text, []));
    expect(out).toBe('1 [text] "Clock" [0.061,0.188,0.203,0.205] 0.97');
  });

  it("reads rows top to bottom, left to right, even when tops differ slightly", () => {
    const text: TextLine[] = [
      { text: "Maps", box: [0.55, 0.301, 0.7, 0.32], conf: 0.9 },
      { text: "Notes", box: [0.05, 0.5, 0.2, 0.52], conf: 0.9 },
      { text: "Clock", box: [0.05, 0.3, 0.2, 0.319], conf: 0.9 },
      { text: "Mail", box: [0.3, 0.302, 0.45, 0.321], conf: 0.9 },
    ];
    expect(buildListing(text, []).map((e) => e.label)).toEqual(["Clock", "Mail", "Maps", "Notes"]);
    expect(readingOrder([]).length).toBe(0);
  });

  it("dedupes overlapping same-kind boxes, keeps icon and its label apart, drops icons that are text", () => {
    const objects: DetectedObject[] = [
      { cls: "icon", box: [0.05, 0.2, 0.2, 0.27], conf: 0.9 },
      { cls: "icon", box: [0.052, 0.201, 0.2, 0.272], conf: 0.6 },
      // A detector hit on the glyphs of a text line is not an icon.
      { cls: "icon", box: [0.31, 0.5, 0.4, 0.52], conf: 0.5 },
      { cls: "text", box: [0.3, 0.5, 0.6, 0.52], conf: 0.8 },
      { cls: "control", box: [0.8, 0.6, 0.93, 0.63], conf: 0.95 },
    ];
    const text: TextLine[] = [
      { text: "Clock", box: [0.05, 0.28, 0.2, 0.3], conf: 0.95 },
      { text: "Wi-Fi", box: [0.3, 0.5, 0.6, 0.52], conf: 0.9 },
      { text: "  ", box: [0.3, 0.7, 0.6, 0.72], conf: 0.9 },
    ];
    const listing = buildListing(text, objects);
    expect(listing.map((e) => [e.kind, e.label])).toEqual([
      ["icon", ""],
      ["text", "Clock"],
      ["text", "Wi-Fi"],
      ["icon", ""],
    ]);
    expect(listing.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(listing[0]?.conf).toBe(0.9);
  });

  it("escapes quotes and newlines in labels and clamps boxes to the screen", () => {
    const text: TextLine[] = [{ text: 'say "hi"\nnow', box: [-0.01, 0.5, 1.02, 0.55], conf: 0.5 }];
    expect(formatListing(buildListing(text, []))).toBe(
      '1 [text] "say \\"hi\\" now" [0.000,0.500,1.000,0.550] 0.50',
    );
  });

  it("iou is symmetric, 1 for the same box and 0 for disjoint boxes", () => {
    expect(iou([0, 0, 1, 1], [0, 0, 1, 1])).toBe(1);
    expect(iou([0, 0, 0.1, 0.1], [0.2, 0.2, 0.3, 0.3])).toBe(0);
    expect(iou([0, 0, 0.2, 0.2], [0.1, 0.1, 0.3, 0.3])).toBeCloseTo(0.01 / 0.07, 9);
  });
});
