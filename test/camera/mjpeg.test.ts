import { beforeAll, describe, expect, it } from "vitest";
import { extractJpeg, jpegSize, MjpegSplitter, type SplitFrame } from "../../src/camera/mjpeg.js";
import { noiseJpeg } from "./helpers.js";

/** Which of `known` each frame is (-1: none); comparing small numbers keeps thousands of cases fast. */
function which(frames: SplitFrame[], known: Buffer[]): number[] {
  return frames.map((f) => known.findIndex((k) => k.equals(f.jpeg)));
}

/** Feed `stream` in the given pieces; return what came out. */
function split(pieces: Buffer[], maxFrameBytes?: number): { frames: SplitFrame[]; splitter: MjpegSplitter } {
  const frames: SplitFrame[] = [];
  const splitter = new MjpegSplitter((f) => frames.push(f), maxFrameBytes);
  for (const p of pieces) splitter.push(p);
  return { frames, splitter };
}

function cutAt(stream: Buffer, ...offsets: number[]): Buffer[] {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const o of offsets) {
    pieces.push(stream.subarray(from, o));
    from = o;
  }
  pieces.push(stream.subarray(from));
  return pieces;
}

/** A JPEG with an APP1 segment holding another whole JPEG (as an EXIF thumbnail does). */
function withEmbeddedThumbnail(jpeg: Buffer, thumb: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), thumb]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

describe("MjpegSplitter", () => {
  let a: Buffer;
  let b: Buffer;
  let c: Buffer;
  let progressive: Buffer;
  beforeAll(async () => {
    a = await noiseJpeg(40, 30);
    b = await noiseJpeg(24, 16);
    c = await noiseJpeg(32, 20);
    progressive = await noiseJpeg(36, 28, { progressive: true });
  });

  it("finds every frame of a back-to-back stream, with the size its header declares", () => {
    const { frames, splitter } = split([Buffer.concat([a, b, progressive, c])]);
    expect(frames.map((f) => f.jpeg)).toEqual([a, b, progressive, c]);
    expect(frames.map((f) => [f.width, f.height])).toEqual([
      [40, 30],
      [24, 16],
      [36, 28],
      [32, 20],
    ]);
    expect(splitter.stats).toEqual({ discardedBytes: 0, abandonedFrames: 0 });
    expect(splitter.bufferedBytes).toBe(0);
  });

  it("gives the same frames whichever offset the stream is cut at", () => {
    const stream = Buffer.concat([a, b]);
    for (let k = 0; k <= stream.length; k++) {
      const { frames } = split(cutAt(stream, k));
      if (which(frames, [a, b]).join() !== "0,1") expect.fail(`cut at ${k}: ${which(frames, [a, b])}`);
    }
  });

  it("gives the same frames when cut twice anywhere (sampled) and when fed one byte at a time", () => {
    const stream = Buffer.concat([b, progressive]);
    for (let k = 0; k < stream.length; k += 29) {
      for (let j = k; j <= stream.length; j += 31) {
        const got = which(split(cutAt(stream, k, j)).frames, [b, progressive]).join();
        if (got !== "0,1") expect.fail(`cuts at ${k},${j}: ${got}`);
      }
    }
    const bytes = [...stream].map((x) => Buffer.from([x]));
    expect(split(bytes).frames.map((f) => f.jpeg)).toEqual([b, progressive]);
  });

  it("drops garbage between frames, including bytes that look like the start of a JPEG", () => {
    const junk = Buffer.from([0x00, 0xff, 0xff, 0xd8, 0x12, 0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43, 0x99, 0xff]);
    const text = Buffer.from("Still capture image received\n");
    const stream = Buffer.concat([text, junk, a, junk, text, b, junk]);
    for (let k = 0; k <= stream.length; k++) {
      const { frames, splitter } = split(cutAt(stream, k));
      const got = which(frames, [a, b]).join();
      if (got !== "0,1" || splitter.stats.discardedBytes === 0) expect.fail(`cut at ${k}: ${got}`);
    }
  });

  it("abandons a frame cut short in its image data and keeps the next one", () => {
    const stream = Buffer.concat([a.subarray(0, Math.floor(a.length * 0.7)), b, c]);
    const { frames, splitter } = split([stream]);
    expect(frames.map((f) => f.jpeg)).toEqual([b, c]);
    expect(splitter.stats.abandonedFrames).toBe(1);
  });

  it("abandons a frame cut short inside its header and still finds the frame behind it", () => {
    for (const cut of [3, 5, 12, 30, 60, 100, 200]) {
      const stream = Buffer.concat([a.subarray(0, cut), b, c]);
      for (let k = 0; k <= stream.length; k++) {
        const got = which(split(cutAt(stream, k)).frames, [b, c]).join();
        if (got !== "0,1") expect.fail(`header cut ${cut}, chunk cut ${k}: ${got}`);
      }
    }
  });

  it("skips whole segments, so a thumbnail JPEG inside APP1 does not end the frame", () => {
    const withThumb = withEmbeddedThumbnail(a, b);
    const { frames } = split(cutAt(Buffer.concat([withThumb, c]), 50));
    expect(frames.map((f) => f.jpeg)).toEqual([withThumb, c]);
    expect(frames[0]).toMatchObject({ width: 40, height: 30 });
  });

  it("never holds more than one frame's worth: an endless frame is dropped at the limit", () => {
    const limit = 4096;
    const frames: SplitFrame[] = [];
    const splitter = new MjpegSplitter((f) => frames.push(f), limit);
    // A valid header up to the scan, then image data that never ends.
    const sos = a.indexOf(Buffer.from([0xff, 0xda]));
    splitter.push(a.subarray(0, sos + 2 + a.readUInt16BE(sos + 2)));
    const endless = Buffer.alloc(1000, 0x5a);
    for (let i = 0; i < 100; i++) {
      splitter.push(endless);
      expect(splitter.bufferedBytes).toBeLessThanOrEqual(limit + 2);
    }
    expect(splitter.stats.abandonedFrames).toBeGreaterThanOrEqual(1);
    splitter.push(b);
    expect(frames.map((f) => f.jpeg)).toEqual([b]);
  });

  it("holds at most one byte while reading garbage", () => {
    const { splitter } = split(Array.from({ length: 50 }, () => Buffer.alloc(100_000, 0xff)));
    expect(splitter.bufferedBytes).toBeLessThanOrEqual(1);
    expect(splitter.stats.discardedBytes).toBeGreaterThan(4_000_000);
  });

  it("does not take SOI…EOI without image data for a frame", () => {
    const { frames } = split([Buffer.from([0xff, 0xd8, 0xff, 0xd9]), a]);
    expect(frames.map((f) => f.jpeg)).toEqual([a]);
  });
});

describe("jpegSize / extractJpeg", () => {
  it("reads the size from the SOF header, through a thumbnail segment", async () => {
    const big = await noiseJpeg(80, 50);
    const small = await noiseJpeg(16, 16);
    expect(jpegSize(big)).toEqual({ width: 80, height: 50 });
    expect(jpegSize(withEmbeddedThumbnail(big, small))).toEqual({ width: 80, height: 50 });
    expect(jpegSize(Buffer.from("not a jpeg"))).toBeNull();
  });

  it("takes a still's whole JPEG (first SOI to last EOI) out of its output", async () => {
    const jpeg = withEmbeddedThumbnail(await noiseJpeg(40, 30), await noiseJpeg(16, 16));
    const out = Buffer.concat([Buffer.from("noise\n"), jpeg, Buffer.from("\n")]);
    expect(extractJpeg(out)).toEqual(jpeg);
    expect(extractJpeg(Buffer.from("ERROR: no camera"))).toBeNull();
  });
});
