import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { classifyShape, inkMask, nameIconButtons } from "../../src/vision/icon-shapes.js";
import type { Candidate } from "../../src/vision/row.js";

/** A `size`-px white square with a glyph stroked in blue (#007AFF) by `paint` in 0–1 coordinates. */
function glyph(
  size: number,
  stroke: number,
  paint: (plot: (x: number, y: number) => void) => void,
): RgbImage {
  const data = Buffer.alloc(size * size * 3, 255);
  paint((fx, fy) => {
    const r = stroke / 2;
    const cx = fx * size;
    const cy = fy * size;
    for (let y = Math.floor(cy - r); y <= cy + r; y++)
      for (let x = Math.floor(cx - r); x <= cx + r; x++)
        if (x >= 0 && y >= 0 && x < size && y < size && (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r)
          data.set([0, 122, 255], (y * size + x) * 3);
  });
  return { width: size, height: size, channels: 3, data };
}
const seg = (p: (x: number, y: number) => void, x0: number, y0: number, x1: number, y1: number) => {
  for (let i = 0; i <= 200; i++) p(x0 + ((x1 - x0) * i) / 200, y0 + ((y1 - y0) * i) / 200);
};
const circle = (p: (x: number, y: number) => void, cx: number, cy: number, r: number) => {
  for (let a = 0; a < 360; a += 1)
    p(cx + r * Math.cos((a * Math.PI) / 180), cy + r * Math.sin((a * Math.PI) / 180));
};
const shapeOf = (img: RgbImage): string | null => {
  const m = inkMask(img, 0, 0, img.width, img.height);
  return m && classifyShape(m);
};

describe("icon shapes", () => {
  it("names thin-stroke plus, cross, chevron, magnifier and ellipsis glyphs", () => {
    expect(
      shapeOf(
        glyph(66, 5, (p) => {
          seg(p, 0.5, 0.2, 0.5, 0.8);
          seg(p, 0.2, 0.5, 0.8, 0.5);
        }),
      ),
    ).toBe("add");
    expect(
      shapeOf(
        glyph(66, 5, (p) => {
          seg(p, 0.25, 0.25, 0.75, 0.75);
          seg(p, 0.75, 0.25, 0.25, 0.75);
        }),
      ),
    ).toBe("close");
    expect(
      shapeOf(
        glyph(66, 5, (p) => {
          seg(p, 0.6, 0.2, 0.4, 0.5);
          seg(p, 0.4, 0.5, 0.6, 0.8);
        }),
      ),
    ).toBe("back");
    expect(
      shapeOf(
        glyph(66, 4, (p) => {
          circle(p, 0.42, 0.42, 0.2);
          seg(p, 0.57, 0.57, 0.78, 0.78);
        }),
      ),
    ).toBe("search");
    const dots = glyph(66, 9, (p) => {
      p(0.25, 0.5);
      p(0.5, 0.5);
      p(0.75, 0.5);
    });
    expect(shapeOf(dots)).toBe("more");
  });

  it("names ≡ menu, ❚❚ pause, ⓘ info and ⊕ add by structure and template", () => {
    const menu = glyph(66, 4, (p) => {
      for (const y of [0.35, 0.5, 0.65]) seg(p, 0.25, y, 0.75, y);
    });
    expect(shapeOf(menu)).toBe("menu");
    const pause = glyph(66, 8, (p) => {
      seg(p, 0.4, 0.3, 0.4, 0.7);
      seg(p, 0.6, 0.3, 0.6, 0.7);
    });
    expect(shapeOf(pause)).toBe("pause");
    const info = glyph(66, 4, (p) => {
      circle(p, 0.5, 0.5, 0.35);
      p(0.5, 0.34);
      seg(p, 0.5, 0.44, 0.5, 0.68);
    });
    expect(shapeOf(info)).toBe("info");
    const addCircle = glyph(66, 4, (p) => {
      circle(p, 0.5, 0.5, 0.35);
      seg(p, 0.5, 0.33, 0.5, 0.67);
      seg(p, 0.33, 0.5, 0.67, 0.5);
    });
    expect(shapeOf(addCircle)).toBe("add");
  });

  it("does not call a wide row of separate dots or a filled disc `more`", () => {
    const passcode = glyph(120, 10, (p) => {
      for (const x of [0.1, 0.37, 0.63, 0.9]) p(x, 0.5);
    });
    expect(shapeOf(passcode)).not.toBe("more");
    expect(shapeOf(glyph(66, 44, (p) => p(0.5, 0.5)))).toBeNull();
  });

  it("leaves shapes it does not know unnamed", () => {
    expect(shapeOf(glyph(66, 5, (p) => circle(p, 0.5, 0.5, 0.3)))).toBeNull();
    expect(shapeOf(glyph(66, 40, (p) => p(0.5, 0.5)))).toBeNull();
    expect(shapeOf(glyph(66, 5, () => undefined))).toBeNull();
  });

  it("turns a recognised icon row into a button and keeps the others", () => {
    const img = glyph(66, 5, (p) => {
      seg(p, 0.5, 0.2, 0.5, 0.8);
      seg(p, 0.2, 0.5, 0.8, 0.5);
    });
    const rows: Candidate[] = [
      { kind: "icon", label: "", box: [0.1, 0.1, 0.9, 0.9], conf: 0.8 },
      { kind: "text", label: "Hi", box: [0.1, 0.1, 0.9, 0.9], conf: 0.8 },
    ];
    // The whole square is wider than a glyph may be on a phone screen: only a glyph-sized box is named.
    expect(nameIconButtons(img, rows).map((r) => r.kind)).toEqual(["icon", "text"]);
    const small: Candidate[] = [{ kind: "icon", label: "", box: [0.2, 0.2, 0.34, 0.34], conf: 0.8 }];
    const big = glyph(66, 5, () => undefined);
    expect(nameIconButtons(big, small)[0]?.kind).toBe("icon");
  });
});
