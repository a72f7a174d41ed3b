import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { decodeSnapshot, encodeSnapshot, SnapshotFrameSource } from "../../../src/sim/camera/index.js";
import { SimControlClient } from "../../../src/sim/control.js";
import { type SimBench, startSimBench } from "../../camera/helpers.js";

const SETTINGS = { width: 640, height: 360, quality: 80 };

/** Mean absolute difference of two JPEGs' pixels (0–255). */
async function meanDiff(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([sharp(a).raw().toBuffer(), sharp(b).raw().toBuffer()]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs((x[i] ?? 0) - (y[i] ?? 0));
  return sum / x.length;
}

describe("scene snapshots (the simulated camera rendered off the world's event loop)", () => {
  let bench: SimBench | null = null;
  afterEach(async () => {
    await bench?.stop();
    bench = null;
  });

  it("round-trips through the wire form, with and without pixels", () => {
    const screen = { width: 2, height: 1, channels: 3 as const, data: Buffer.from([1, 2, 3, 4, 5, 6]) };
    const pose = { centerXMm: 1, centerYMm: 2, rotationDeg: 3, tiltXDeg: 0, tiltYDeg: 0 };
    const full = decodeSnapshot(encodeSnapshot({ screenVersion: 7, screen, carriage: null, pose }));
    expect(full.screen?.data.equals(screen.data)).toBe(true);
    expect(full).toMatchObject({ screenVersion: 7, carriage: null, pose });
    const bare = decodeSnapshot(encodeSnapshot({ screenVersion: 7, carriage: { xMm: 1, yMm: 2 }, pose }));
    expect(bare.screen).toBeUndefined();
    expect(() =>
      decodeSnapshot(encodeSnapshot({ screenVersion: 1, screen, carriage: null, pose }).subarray(0, 20)),
    ).toThrow(/bad scene snapshot/);
  });

  it("renders what the daemon would, sends the screen once, and reuses the frame of an unchanged scene", async () => {
    bench = await startSimBench();
    const client = new SimControlClient(bench.socketPath);
    const asked: (number | null)[] = [];
    const source = new SnapshotFrameSource(async (q) => {
      asked.push(q.haveScreen);
      return client.scene(q);
    });
    const first = await source.capture(SETTINGS);
    const again = await source.capture(SETTINGS);
    expect(again).toBe(first); // same scene: the last JPEG, no render
    expect(source.stats).toEqual({ rendered: 1, reused: 1 });
    expect(asked[0]).toBeNull();
    expect(asked[1]).not.toBeNull(); // the second ask names the screen it has: no pixels sent again

    // The frame rendered from the snapshot is the one the daemon renders itself (up to sensor noise).
    const inDaemon = await bench.rig.captureFrame(SETTINGS);
    expect(await meanDiff(first, inDaemon)).toBeLessThan(3);

    // A change on the phone (on the daemon's side) shows in the next frame.
    bench.rig.phone.pressSideButton();
    const after = await source.capture(SETTINGS);
    expect(source.stats.rendered).toBe(2);
    expect(await meanDiff(first, after)).toBeGreaterThan(5);
  });
});
