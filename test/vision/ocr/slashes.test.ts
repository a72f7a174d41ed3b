import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RgbImage } from "../../../src/shared/image.js";
import { createOcrEngine, type PaddleOcrEngine } from "../../../src/vision/ocr/index.js";
import { slashesFromInk } from "../../../src/vision/ocr/slashes.js";
import { decodeRgb } from "../../../src/vision/rectify.js";

/**
 * A line drawn with plain shapes (no font): upright letters as bars standing on the baseline (y 60,
 * cap height y 30), plus `extra` SVG. Slashes in SF Pro and Menlo run from the ascender to below the
 * baseline; V and W stand on it.
 */
async function line(extra: string, letters: readonly number[]): Promise<RgbImage> {
  const bars = letters.map((x) => `<rect x="${x}" y="30" width="5" height="30" fill="#000"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="90"><rect width="400" height="90" fill="#fff"/>${bars}${extra}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

const INK = { x0: 8, y0: 26, x1: 392, y1: 70, score: 1 };
const stroke = (points: string) =>
  `<polyline points="${points}" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="bevel"/>`;
const LETTERS = [10, 30, 200, 220, 240];

describe("slashesFromInk", () => {
  it("reads a W whose ink descends below the baseline as \\/\\/", async () => {
    const image = await line(stroke("100,28 108,68 116,28 124,68 132,28"), LETTERS);
    const fix = slashesFromInk("ab W cde", [{ index: 3, x: 110 }], image, INK);
    expect(fix.text).toBe("ab \\/\\/ cde");
    expect(fix.moved(5)).toBe(8);
  });

  it("keeps a W or V standing on the baseline", async () => {
    const image = await line(stroke("100,30 108,60 116,30 124,60 132,30"), LETTERS);
    expect(slashesFromInk("ab W cde", [{ index: 3, x: 110 }], image, INK).text).toBe("ab W cde");
    const v = await line(stroke("100,30 108,60 116,30"), LETTERS);
    expect(slashesFromInk("ab V cde", [{ index: 3, x: 108 }], v, INK).text).toBe("ab V cde");
  });

  it("reads VV over one run of descending strokes as \\/\\/", async () => {
    const image = await line(stroke("100,28 108,68 116,28 124,68 132,28"), LETTERS);
    const fix = slashesFromInk(
      "ab:VVcde",
      [
        { index: 3, x: 104 },
        { index: 4, x: 122 },
      ],
      image,
      INK,
    );
    expect(fix.text).toBe("ab:\\/\\/cde");
  });

  it("reads a bar before n as a backslash when its ink leans top-left to bottom-right", async () => {
    const image = await line(stroke("60,28 72,68"), LETTERS);
    expect(slashesFromInk("In cde", [{ index: 0, x: 66 }], image, INK).text).toBe("\\n cde");
    expect(slashesFromInk("(n cde", [{ index: 0, x: 66 }], image, INK).text).toBe("\\n cde");
  });

  it("puts back the closing bracket of () read as (", async () => {
    const brackets = await line(
      `<path d="M 72 28 Q 56 48 72 68" fill="none" stroke="#000" stroke-width="3"/>` +
        `<path d="M 84 28 Q 100 48 84 68" fill="none" stroke="#000" stroke-width="3"/>`,
      LETTERS,
    );
    const fix = slashesFromInk("ab( cde", [{ index: 2, x: 66 }], brackets, INK);
    expect(fix.text).toBe("ab() cde");
    expect(fix.moved(3)).toBe(4);
    // One bracket only: nothing to put back.
    const one = await line(
      `<path d="M 72 28 Q 56 48 72 68" fill="none" stroke="#000" stroke-width="3"/>`,
      LETTERS,
    );
    expect(slashesFromInk("ab( cde", [{ index: 2, x: 66 }], one, INK).text).toBe("ab( cde");
  });

  it("keeps a bracket, whose curve turns back, and an upright bar", async () => {
    const paren = await line(
      `<path d="M 72 28 Q 56 48 72 68" fill="none" stroke="#000" stroke-width="3"/>`,
      LETTERS,
    );
    expect(slashesFromInk("(n cde", [{ index: 0, x: 66 }], paren, INK).text).toBe("(n cde");
    const bar = await line(stroke("66,28 66,68"), LETTERS);
    expect(slashesFromInk("In cde", [{ index: 0, x: 66 }], bar, INK).text).toBe("In cde");
  });
});

/** `image` blurred as a camera's lens and rectification blur it (σ in px), and scaled by `scale`. */
async function camera(image: RgbImage, scale: number, sigma: number): Promise<RgbImage> {
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(Math.round(image.width * scale), Math.round(image.height * scale))
    .blur(sigma)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

const scaled = (box: typeof INK, f: number) => ({
  x0: box.x0 * f,
  y0: box.y0 * f,
  x1: box.x1 * f,
  y1: box.y1 * f,
  score: 1,
});

describe("slashesFromInk on blurred, small ink (a camera frame: ~1.4 px per point)", () => {
  // SF Pro's brackets bow by ~0.12 of their height, its slashes lean ~0.23 px per row.
  const BRACKETS =
    `<path d="M 72 28 Q 62 48 72 68" fill="none" stroke="#000" stroke-width="4"/>` +
    `<path d="M 86 28 Q 96 48 86 68" fill="none" stroke="#000" stroke-width="4"/>`;

  it("puts back the ) of () read ( when the bracket bows by a pixel", async () => {
    const image = await camera(await line(BRACKETS, LETTERS), 0.4, 0.7);
    expect(slashesFromInk("ab( cde", [{ index: 2, x: 27 }], image, scaled(INK, 0.4)).text).toBe("ab() cde");
  });

  it("puts back no ) where the brackets stand a glyph apart: (✓) read (v)", async () => {
    const apart =
      `<path d="M 72 28 Q 62 48 72 68" fill="none" stroke="#000" stroke-width="4"/>` +
      `<path d="M 116 28 Q 126 48 116 68" fill="none" stroke="#000" stroke-width="4"/>`;
    const image = await camera(await line(apart, LETTERS), 0.4, 0.7);
    expect(slashesFromInk("TG (v)", [{ index: 3, x: 27 }], image, scaled(INK, 0.4)).text).toBe("TG (v)");
  });

  it("reads () read as 0 after a name as ()", async () => {
    const image = await camera(await line(BRACKETS, LETTERS), 0.4, 0.7);
    expect(slashesFromInk("ab0 cde", [{ index: 2, x: 30 }], image, scaled(INK, 0.4)).text).toBe("ab() cde");
    // A zero is one closed ring standing on the baseline.
    const zero = await camera(
      await line(
        `<ellipse cx="79" cy="45" rx="8" ry="15" fill="none" stroke="#000" stroke-width="4"/>`,
        LETTERS,
      ),
      0.4,
      0.7,
    );
    expect(slashesFromInk("ab0 cde", [{ index: 2, x: 32 }], zero, scaled(INK, 0.4)).text).toBe("ab0 cde");
  });

  it("counts the strokes from the ink: W and V over \\/\\/ is \\/\\/", async () => {
    const image = await camera(await line(stroke("100,28 109,68 118,28 127,68 136,28"), LETTERS), 0.4, 0.7);
    const glyphs = [
      { index: 3, x: 44 },
      { index: 4, x: 50 },
    ];
    expect(slashesFromInk("ab:WVcde", glyphs, image, scaled(INK, 0.4)).text).toBe("ab:\\/\\/cde");
  });

  it("puts back a backslash before n that no character was read for, in code only", async () => {
    const image = await camera(
      await line(`${stroke("60,28 69,68")}<rect x="76" y="40" width="12" height="20" fill="#000"/>`, LETTERS),
      0.4,
      0.7,
    );
    const n = [{ index: 3, x: 33 }];
    expect(slashesFromInk("ab.n\\/cde", n, image, scaled(INK, 0.4)).text).toBe("ab.\\n\\/cde");
    expect(slashesFromInk("ab.n cde", n, image, scaled(INK, 0.4)).text).toBe("ab.n cde");
  });
});

/**
 * A Scriptable script's JSON previewed in a share sheet (SF Pro, real dev-set screenshot), read whole by
 * the real models: each line below had `\/\/` read `VV` or `W`, `\/` read `V`, or `\n` read `In` or
 * `(n` before `slashes.ts` (and `iOS14` read `ios14` before `letter-case.ts`).
 */
const LINES = [
  String.raw`"script"："\n\/\/ LOL 近期赛事列表小组件\n\/\/ 支持中号、大号`,
  String.raw`如果仍无法解决，请反馈至：https:\/\/`,
  String.raw`github.com\/zkytech\/iOS14-widgets-for-scriptable\/`,
  String.raw`\nlet teamNameFontSize = lineHeight *0.5 \/\/`,
  String.raw`组件.\n\/\/ 如果组件崩溃或出现任何问题，请尝试重新下载`, // the backslash before n lost
];

describe("code on a real screenshot (rd-zkytech-share-sheet-zh)", () => {
  let engine: PaddleOcrEngine;
  let texts: string[] = [];
  beforeAll(async () => {
    engine = await createOcrEngine();
    const image = await decodeRgb(
      readFileSync(join("datasets/real-iphone/images", "rd-zkytech-share-sheet-zh.jpg")),
    );
    texts = (await engine.recognize(image)).map((l) => l.text);
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  for (const text of LINES)
    it(`reads ${text}`, () => {
      expect(texts).toContain(text);
    });
});
