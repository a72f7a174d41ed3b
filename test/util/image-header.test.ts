import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageHeader, MAX_IMAGE_PIXELS } from "../../src/util/image-header.js";
import { decodeRgb } from "../../src/vision/rectify.js";
import { jpegHeaderOnly, pngBomb } from "../helpers/image-bomb.js";

describe("image size checks before decode (issue 19 item 4)", () => {
  it("reads PNG and JPEG sizes from the header, as sharp reports them", async () => {
    const raw = { width: 37, height: 21, channels: 3 as const };
    const pixels = Buffer.alloc(37 * 21 * 3, 200);
    for (const [type, bytes] of [
      ["png", await sharp(pixels, { raw }).png().toBuffer()],
      ["jpeg", await sharp(pixels, { raw }).jpeg().toBuffer()],
      ["jpeg", await sharp(pixels, { raw }).jpeg({ progressive: true }).toBuffer()],
    ] as const) {
      expect(imageHeader(bytes)).toEqual({ type, width: 37, height: 21 });
    }
    expect(imageHeader(jpegHeaderOnly(16000, 16000))).toEqual({ type: "jpeg", width: 16000, height: 16000 });
    expect(imageHeader(Buffer.from("not an image at all"))).toBeNull();
    expect(imageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });

  it("a 31 KB PNG of 16000×16000 is refused before decoding, without the 768 MB buffer", async () => {
    const bomb = pngBomb(16000, 16000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(imageHeader(bomb)).toEqual({ type: "png", width: 16000, height: 16000 });
    const rssBefore = process.memoryUsage().rss;
    await expect(decodeRgb(bomb)).rejects.toMatchObject({ code: "VISION_IMAGE_TOO_LARGE" });
    // Decoding it took 768 MB; refusing it must not allocate anything near that.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    // Just under the limit still decodes (so the refusal is about the size).
    const side = Math.floor(Math.sqrt(MAX_IMAGE_PIXELS / 40));
    const fine = await decodeRgb(
      await sharp({ create: { width: side, height: side, channels: 3, background: "#000" } })
        .png()
        .toBuffer(),
    );
    expect(fine.width).toBe(side);
  });
});
