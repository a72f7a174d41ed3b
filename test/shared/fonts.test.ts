import { describe, expect, it } from "vitest";
import { FontBook } from "../../src/shared/fonts.js";

describe("shipped fonts", () => {
  const fonts = new FontBook();

  it("have glyphs for English and Chinese UI text in every weight", () => {
    for (const weight of ["light", "regular", "semibold"] as const) {
      expect(fonts.missingGlyphs("Clock Messages 时钟 信息 粘贴 设置 天气 09:41", weight)).toEqual([]);
    }
  });

  it("report characters they cannot draw", () => {
    expect(fonts.missingGlyphs("A😀")).toEqual(["😀"]);
  });

  it("shape text into outlines with an anchored box", () => {
    const shaped = fonts.shape("粘贴", 100, 50, { size: 20, anchor: "middle" });
    expect(shaped.svg).toMatch(/^<path fill="#000" d="M/);
    expect(shaped.width).toBeCloseTo(40, 1); // two full-width ideographs, 1 em each
    expect(shaped.box.left).toBeCloseTo(80, 1);
    expect(shaped.box.right).toBeCloseTo(120, 1);
    expect(shaped.box.top).toBeLessThan(50);
    expect(shaped.box.bottom).toBeGreaterThan(50);
  });
});
