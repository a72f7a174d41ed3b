import { crc32, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { RgbImage } from "../../src/shared/image.js";
import { workingWidth } from "../../src/vision/pipeline.js";
import { decodeRgb, shrinkRgb } from "../../src/vision/rectify.js";

/**
 * PNGs written byte by byte (W3C PNG spec, 3rd ed.: IHDR colour types 0 grey, 2 RGB, 3 palette,
 * 4 grey + alpha, 6 RGBA; 16-bit samples big-endian; sub-byte samples packed from the high bit), so
 * every layout a phone or an editor may save is decoded here, not only what sharp itself writes.
 */
function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

function png(
  size: { width: number; height: number },
  colourType: number,
  bitDepth: number,
  row: (y: number) => number[],
  extra: Buffer[] = [],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size.width, 0);
  ihdr.writeUInt32BE(size.height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colourType;
  const rows = Array.from({ length: size.height }, (_, y) => Buffer.from([0, ...row(y)])); // filter 0
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    ...extra,
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** Four pixels, one row: red, green, blue, grey 9 — as RGB triples. */
const EXPECTED_COLOUR = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9];
const PALETTE = chunk("PLTE", Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]));
const one = { width: 4, height: 1 };

describe("decodeRgb", () => {
  it.each([
    ["grey 8-bit", png(one, 0, 8, () => [10, 100, 200, 250]), [10, 100, 200, 250]],
    ["grey 16-bit", png(one, 0, 16, () => [10, 0, 100, 0, 200, 0, 250, 0]), [10, 100, 200, 250]],
    ["grey 1-bit", png(one, 0, 1, () => [0b1010_0000]), [255, 0, 255, 0]],
    ["grey + alpha", png(one, 4, 8, () => [10, 255, 100, 255, 200, 128, 250, 0]), [10, 100, 200, 250]],
  ])("reads a %s PNG as three equal channels", async (_, bytes, grey) => {
    const img = await decodeRgb(bytes);
    expect([img.width, img.height, img.channels, img.data.length]).toEqual([4, 1, 3, 12]);
    expect([...img.data]).toEqual(grey.flatMap((g) => [g, g, g]));
  });

  it.each([
    ["palette 4-bit", png(one, 3, 4, () => [0x01, 0x23], [PALETTE])],
    [
      "palette with transparency",
      png(one, 3, 8, () => [0, 1, 2, 3], [PALETTE, chunk("tRNS", Buffer.from([255, 0]))]),
    ],
    [
      "RGB 16-bit",
      png(one, 2, 16, () => [
        255, 0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 255, 255, 9, 0, 9, 0, 9, 0,
      ]),
    ],
    [
      "RGBA 16-bit",
      png(one, 6, 16, () =>
        [255, 0, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255].concat([
          0, 0, 0, 0, 255, 255, 255, 255, 9, 0, 9, 0, 9, 0, 255, 255,
        ]),
      ),
    ],
    ["RGBA 8-bit", png(one, 6, 8, () => [255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 128, 9, 9, 9, 255])],
  ])("reads a %s PNG as 8-bit RGB, alpha dropped", async (_, bytes) => {
    const img = await decodeRgb(bytes);
    expect([img.width, img.height, img.channels]).toEqual([4, 1, 3]);
    expect([...img.data]).toEqual(EXPECTED_COLOUR);
  });
});

function image(width: number, height: number, value: (x: number, y: number) => number): RgbImage {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.fill(value(x, y), (y * width + x) * 3, (y * width + x + 1) * 3);
  return { width, height, channels: 3, data };
}

describe("shrinkRgb", () => {
  it("averages whole blocks: one-pixel black and white stripes become even mid-grey", () => {
    const small = shrinkRgb(
      image(40, 20, (x) => (x % 2 ? 255 : 0)),
      20,
    );
    expect([small.width, small.height, small.data.length]).toEqual([20, 10, 600]);
    expect(new Set(small.data)).toEqual(new Set([128]));
  });

  it("weights partly covered pixels by their share at a fractional factor, keeping the mean", () => {
    const src = image(100, 50, (x, y) => (x * 7 + y * 3) % 256);
    const small = shrinkRgb(src, 30);
    expect([small.width, small.height]).toEqual([30, 15]);
    const mean = (d: Uint8Array) => d.reduce((a, b) => a + b, 0) / d.length;
    expect(Math.abs(mean(small.data) - mean(src.data))).toBeLessThan(0.6);
    // A vertical edge at x = 50 of 100 falls between output columns 14 and 15 of 30 (at 15): column 14
    // covers source 46.7–50 (all black), column 15 covers 50–53.3 (all white).
    const edge = shrinkRgb(
      image(100, 50, (x) => (x < 50 ? 0 : 255)),
      30,
    );
    expect([edge.data[14 * 3], edge.data[15 * 3]]).toEqual([0, 255]);
    // An edge at x = 51 leaves column 15 (source 50–53.3) 1 of its 3.33 pixels black: 255 · 0.7 = 178.5.
    const off = shrinkRgb(
      image(100, 50, (x) => (x < 51 ? 0 : 255)),
      30,
    );
    expect(off.data[15 * 3]).toBe(179);
  });

  it("returns an image no wider than the target as it is", () => {
    const src = image(8, 4, () => 7);
    expect(shrinkRgb(src, 8)).toBe(src);
    expect(shrinkRgb(src, 16)).toBe(src);
  });
});

describe("workingWidth", () => {
  it("divides by the whole factor that lands closest to the target", () => {
    expect([1170, 1242, 1125, 1284, 1320, 750, 828, 320].map((w) => workingWidth(w, 585))).toEqual([
      585, 621, 563, 642, 660, 750, 828, 320,
    ]);
  });
});
