import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import {
  dashCandidate,
  dashForLength,
  EM_DASH_MIN,
  EN_DASH_MIN,
  ellipsisDash,
  inkComponents,
  isBar,
  rangeDash,
  typographicDashes,
} from "../../../src/vision/ocr/dashes.js";
import { decodeRgb } from "../../../src/vision/rectify.js";
import { useRealOcrEngine } from "./real-engine.js";

/** A white `w`×40 image with black rectangles `[x0, y0, x1, y1)`. */
function drawn(w: number, rects: [number, number, number, number][]): RgbImage {
  const h = 40;
  const data = Buffer.alloc(w * h * 3, 255);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y < y1; y++) data.fill(0, (y * w + x0) * 3, (y * w + x1) * 3);
  return { width: w, height: h, channels: 3, data };
}
/** Ink from row 5 to 34: a line 30 px tall. */
const LINE = { x0: 2, y0: 3, x1: 198, y1: 37, score: 1 };
/** Two 30 px letters around a bar `len` px long, 3 px thick, at mid-height (x 60…60+len). */
const spaced = (len: number) =>
  drawn(200, [
    [10, 5, 40, 35],
    [60, 18, 60 + len, 21],
    [150, 5, 180, 35],
  ]);

describe("a dash read before a closing ellipsis", () => {
  // A 30 px ideograph block, then three 4 px dots at the baseline (x 60…96); `bar`: a dash before them.
  const line = (bar: boolean) =>
    drawn(200, [
      [10, 5, 40, 35],
      ...(bar ? ([[46, 18, 56, 21]] as [number, number, number, number][]) : []),
      [60, 30, 64, 34],
      [72, 30, 76, 34],
      [84, 30, 88, 34],
    ]);

  it("drops it when the ink ends in dots alone, keeps it when a bar stands before them", () => {
    expect(ellipsisDash("私—…", line(false), LINE)).toBe("私…");
    expect(ellipsisDash("私一…", line(false), LINE)).toBe("私…");
    expect(ellipsisDash("私—…", line(true), LINE)).toBe("私—…");
    expect(ellipsisDash("私…", line(false), LINE)).toBe("私…");
    expect(ellipsisDash("私—", line(false), LINE)).toBe("私—"); // no ellipsis read: not this case
  });
});

describe("dash lengths", () => {
  it("tells a hyphen, an en dash and an em dash by length against the line's ink height", () => {
    expect(dashForLength(11, 30)).toBe("-"); // 0.37: SF Pro's hyphen
    expect(dashForLength(EN_DASH_MIN * 30 + 0.01, 30)).toBe("–");
    expect(dashForLength(17, 30)).toBe("–"); // 0.57
    expect(dashForLength(EM_DASH_MIN * 30 + 0.01, 30)).toBe("—");
    expect(dashForLength(26, 30)).toBe("—"); // 0.87
  });

  it("takes a flat bar in the middle band for a dash, not a letter, an underscore or a rule", () => {
    const comps = inkComponents(spaced(17), LINE);
    expect(comps).toHaveLength(3);
    expect(comps.map((c) => isBar(c, 5, 34))).toEqual([false, true, false]);
    const low = inkComponents(
      drawn(200, [
        [10, 5, 40, 35],
        [60, 31, 77, 34],
      ]),
      LINE,
    );
    expect(low.map((c) => isBar(c, 5, 34))).toEqual([false, false]);
    const rule = inkComponents(
      drawn(200, [
        [10, 5, 40, 35],
        [50, 18, 95, 21],
      ]),
      LINE,
    );
    expect(rule.map((c) => isBar(c, 5, 34))).toEqual([false, false]);
  });

  it("measures only dash-like characters outside Latin words, and 一 only beside a space or Latin", () => {
    expect(dashCandidate("Desert - Dark", 7)).toBe(true);
    expect(dashCandidate("简体中文－拼音", 4)).toBe(true);
    expect(dashCandidate("widgets-for", 7)).toBe(false);
    expect(dashCandidate("Today -5HRS", 6)).toBe(false);
    expect(dashCandidate("TubeCast 一 你的", 9)).toBe(true);
    expect(dashCandidate("下一步", 1)).toBe(false);
  });
});

describe("a dash between numbers, against its digits' em", () => {
  // Two 30 px digits (em 41.7 px at SF Pro's 0.72 digit height) around a 3 px bar `len` long; the line's
  // ink is taller (an ideograph from row 0 to 39, a descender), which made an en dash look short.
  const range = (len: number) =>
    drawn(240, [
      [2, 0, 38, 40],
      [60, 5, 80, 35],
      [86, 18, 86 + len, 21],
      [92 + len, 5, 112 + len, 35],
    ]);
  const box = { x0: 0, y0: 0, x1: 240, y1: 40, score: 1 };
  const at = (text: string, len: number) => {
    const comps = inkComponents(range(len), box);
    const bar = comps.find((c) => c.x0 === 86);
    return bar ? rangeDash(text, 3, comps, bar) : "no bar";
  };

  it("tells hyphen, en dash and em dash by the digits' em", () => {
    expect(at("正 4-7", 12)).toBe("-"); // 0.29 em
    expect(at("正 4-7", 21)).toBe("–"); // 0.50 em: the line's ink (40 px) made it 0.53 → en as well
    expect(at("正 4-7", 19)).toBe("–"); // 0.46 em; 0.475 of the line: a hyphen by the line's measure
    expect(at("正 4-7", 40)).toBe("—"); // 0.96 em
    expect(typographicDashes("正 4-7", [{ index: 3, x: 95 }], range(19), box)).toBe("正 4–7");
  });

  it("says nothing near a threshold, between non-digits, or beside ink no digit's height", () => {
    expect(at("正 4-7", 17)).toBeUndefined(); // 0.41 em: within the margin of 0.40
    expect(at("正 a-b", 21)).toBeUndefined();
    const short = drawn(240, [
      [60, 15, 80, 25],
      [86, 18, 107, 21],
      [113, 5, 133, 35],
    ]);
    const comps = inkComponents(short, box);
    const bar = comps.find((c) => c.x0 === 86);
    expect(bar && rangeDash("正 4-7", 3, comps, bar)).toBeUndefined();
  });
});

describe("typographicDashes", () => {
  it("sets a spaced dash from its ink, keeping a hyphen as read", () => {
    expect(typographicDashes("A - B", [{ index: 2, x: 68 }], spaced(17), LINE)).toBe("A – B");
    expect(typographicDashes("A 一 B", [{ index: 2, x: 72 }], spaced(26), LINE)).toBe("A — B");
    expect(typographicDashes("A － B", [{ index: 2, x: 65 }], spaced(11), LINE)).toBe("A － B");
  });

  it("puts a line's leading minus back from a bar left of its first digit", () => {
    // A bar, then two 30 px digits: read `10` with the 1 on the bar, or `0` alone.
    const minus = drawn(200, [
      [10, 18, 24, 21],
      [30, 5, 50, 35],
      [56, 5, 76, 35],
    ]);
    const line = { x0: 8, y0: 3, x1: 80, y1: 37, score: 1 };
    expect(typographicDashes("10", [{ index: 0, x: 17 }], minus, line)).toBe("-0");
    expect(typographicDashes("00", [{ index: 0, x: 40 }], minus, line)).toBe("-00");
    // A real 1 is tall: no change.
    const one = drawn(200, [
      [14, 5, 18, 35],
      [30, 5, 50, 35],
    ]);
    expect(typographicDashes("10", [{ index: 0, x: 16 }], one, line)).toBe("10");
  });
});

const DATASET = "datasets/real-iphone/images";

/** The band of `image` from `top` to `bottom` (fractions) across `left`…`right`. */
function crop(image: RgbImage, [left, top, right, bottom]: readonly number[]): RgbImage {
  const x0 = Math.floor((left ?? 0) * image.width);
  const x1 = Math.ceil((right ?? 1) * image.width);
  const y0 = Math.floor((top ?? 0) * image.height);
  const y1 = Math.ceil((bottom ?? 1) * image.height);
  const data = Buffer.alloc((x1 - x0) * (y1 - y0) * 3);
  for (let y = y0; y < y1; y++)
    image.data.copy(data, (y - y0) * (x1 - x0) * 3, (y * image.width + x0) * 3, (y * image.width + x1) * 3);
  return { width: x1 - x0, height: y1 - y0, channels: 3, data };
}

/** Real lines the recogniser misread before these rules (screenshots of the development set). */
const REAL = [
  // The minus at a short crop's left edge read as `1`.
  { image: "rc-300hero-leaderboard-dark.jpg", box: [0, 0.155, 1, 0.2], text: "-0" },
  // The minus skipped (a blank with `-` second).
  { image: "rc-tubecast-player.jpg", box: [0.8, 0.84, 0.98, 0.88], text: "-53:37" },
  // An en dash, which the dictionary lacks, read `－`.
  { image: "rb-universekb-keyboard-list.png", box: [0.05, 0.15, 0.5, 0.195], text: "简体中文 – 拼音" },
  // SF Pro's em dash before Chinese read as `一`.
  {
    image: "rc-tubecast-settings.png",
    box: [0.15, 0.575, 0.8, 0.605],
    text: "TubeCast — 你的个人 YouTube 音频库",
  },
  // Spaced hyphens stay hyphens.
  { image: "rc-icecubes-theme-selector.png", box: [0.55, 0.6, 0.95, 0.64], text: "Desert - Dark" },
] as const;

describe("dashes on real screenshots", () => {
  const engine = useRealOcrEngine();
  for (const c of REAL)
    it(`reads "${c.text}" on ${c.image}`, async () => {
      const image = await decodeRgb(readFileSync(join(DATASET, c.image)));
      const lines = await engine().recognize(crop(image, c.box));
      // Spaces as the evaluation treats them (ignored): a crop read at full size sets fewer of them.
      expect(lines.map((l) => l.text.replace(/\s/g, ""))).toContain(c.text.replace(/\s/g, ""));
    }, 60_000);
});
