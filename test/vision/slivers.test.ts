import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import type { Candidate } from "../../src/vision/row.js";
import { inkSlivers } from "../../src/vision/slivers.js";
import { dropSpuriousRows } from "../../src/vision/spurious.js";
import { loadRealImage, realLabel } from "./real-set.js";

const icon = (box: Candidate["box"]): Candidate => ({ kind: "icon", label: "", box, conf: 0.6 });

/** A white 390 × 844 pt screen at 1 px a point, with dark rectangles (x, y, w, h in pixels) painted on it. */
function screenWith(rects: readonly [number, number, number, number][]): RgbImage {
  const width = 390;
  const height = 844;
  const data = Buffer.alloc(width * height * 3, 255);
  for (const [x0, y0, w, h] of rects)
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) data.fill(30, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { width, height, channels: 3, data };
}

/** A box (screen fractions) around pixels x, y, w, h of `screenWith`'s screen, `pad` pixels wider each side. */
const around = (x: number, y: number, w: number, h: number, pad = 0): Candidate["box"] => [
  (x - pad) / 390,
  (y - pad) / 844,
  (x + w + pad) / 390,
  (y + h + pad) / 844,
];

describe("inkSlivers", () => {
  it("drops the sliver of artwork peeking out beside IceCubes' floating close button", async () => {
    const name = "rc-icecubes-explore-search.png";
    const image = await loadRealImage(name);
    const lines = realLabel(name).text.map(
      (t): Candidate => ({ kind: "text", label: t.text, box: t.box, conf: 0.9 }),
    );
    // The pipeline's row at b884b81 (screenshot and camera frame alike).
    const sliver = icon([0.952, 0.516, 0.961, 0.533]);
    const close = icon([0.87, 0.52, 0.95, 0.56]);
    const kept = dropSpuriousRows([...lines, sliver, close], image.height / image.width, image);
    expect(kept).not.toContain(sliver);
    expect(kept).toContain(close);
  });

  it("drops a solid 3 pt bar (a caret, a scroll indicator)", () => {
    const bar = icon(around(200, 300, 3, 18));
    expect(inkSlivers(screenWith([[200, 300, 3, 18]]), [bar]).has(bar)).toBe(true);
  });

  it("keeps a vertical ellipsis ⋮ in a box as narrow: three dots with gaps", () => {
    const dots: [number, number, number, number][] = [
      [200, 300, 3, 4],
      [200, 307, 3, 4],
      [200, 314, 3, 4],
    ];
    const more = icon(around(200, 300, 3, 18));
    expect(inkSlivers(screenWith(dots), [more]).size).toBe(0);
  });

  it("keeps glyphs wider than 4 pt and bars not three times taller than wide", () => {
    const chevron = icon(around(200, 300, 7, 12));
    const stub = icon(around(100, 300, 3, 6));
    const image = screenWith([
      [200, 300, 7, 12],
      [100, 300, 3, 6],
    ]);
    expect(inkSlivers(image, [chevron, stub]).size).toBe(0);
  });
});
