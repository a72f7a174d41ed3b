import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/util/clock.js";
import { PiclawError } from "../../src/util/errors.js";
import { noiseJpeg } from "../camera/helpers.js";
import { rejection } from "../helpers/errors.js";
import { FakeCamera } from "./camera.js";

/** The fake camera on virtual time: the freshness rules every camera follows, without processes. */

/** A source whose captures finish only when the test says so. */
function gatedSource(jpeg: Buffer) {
  const gates: (() => void)[] = [];
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    source: () => {
      calls++;
      return new Promise<Buffer>((resolve) => gates.push(() => resolve(jpeg)));
    },
    /** Finish the oldest capture in flight. */
    release: () => gates.shift()?.(),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("FakeCamera", () => {
  it("stamps frames with the injected clock and reads their size from the JPEG", async () => {
    const clock = new ManualClock(1_000_000);
    const jpeg = await noiseJpeg(48, 32);
    const camera = new FakeCamera({
      clock,
      source: async () => {
        clock.advance(15); // exposure + readout
        return jpeg;
      },
    });
    await camera.start();
    const frame = await camera.grab();
    expect(frame).toMatchObject({ width: 48, height: 32, seq: 1, atMs: 1_000_015 });
    expect(frame.jpeg).toBe(jpeg);
    await camera.stop();
  });

  it("takes a new picture for a grab at the same virtual time, reuses one for an older newerThanMs", async () => {
    const clock = new ManualClock(0);
    const jpeg = await noiseJpeg(16, 16);
    const camera = new FakeCamera({ clock, source: async () => jpeg });
    await camera.start();
    clock.advance(100);
    const a = await camera.grab();
    const b = await camera.grab(); // time stood still: a may predate whatever just happened
    expect([a.seq, b.seq, camera.captures]).toEqual([1, 2, 2]);
    const c = await camera.grab({ newerThanMs: 50 }); // began at 100: newer than 50
    expect(c.seq).toBe(2);
    expect(camera.captures).toBe(2);
  });

  it("shares a capture in flight with grabs it is new enough for, and queues the others", async () => {
    const clock = new ManualClock(1000);
    const gated = gatedSource(await noiseJpeg(16, 16));
    const camera = new FakeCamera({ clock, source: gated.source });
    await camera.start();
    const first = camera.grab(); // capture #1 begins at 1000
    clock.advance(10);
    const shared = camera.grab({ newerThanMs: 990 });
    const queued = camera.grab(); // asked at 1010, after #1 began: needs #2
    await tick();
    expect(gated.calls).toBe(1);
    gated.release();
    expect((await first).seq).toBe(1);
    expect((await shared).seq).toBe(1);
    await tick();
    expect(gated.calls).toBe(2);
    gated.release();
    expect((await queued).seq).toBe(2);
  });

  it("does not begin a capture before a future newerThanMs is reached on the clock", async () => {
    const clock = new ManualClock(0);
    const camera = new FakeCamera({ clock, source: async () => noiseJpeg(16, 16) });
    await camera.start();
    let done = false;
    const later = camera.grab({ newerThanMs: 500 }).then((f) => {
      done = true;
      return f;
    });
    await new Promise((r) => setTimeout(r, 60));
    expect([done, camera.captures]).toEqual([false, 0]);
    clock.advance(500);
    expect((await later).atMs).toBe(500);
  });

  it("fails with CAMERA_TIMEOUT when the source hangs, and stop() still returns", async () => {
    const clock = new ManualClock(0);
    const camera = new FakeCamera({ clock, source: () => new Promise<Buffer>(() => {}) });
    await camera.start();
    const err = await rejection(camera.grab({ timeoutMs: 50 }));
    expect(err.code).toBe("CAMERA_TIMEOUT");
    expect(err.details).toMatchObject({ timeoutMs: 50, captureRunning: true, lastFrameAtMs: null });
    const waiting = rejection(camera.grab({ timeoutMs: 10_000 }));
    await camera.stop();
    expect((await waiting).code).toBe("CAMERA_STOPPED");
  });

  it("fails like a broken camera while failWith() is set", async () => {
    const clock = new ManualClock(0);
    const camera = new FakeCamera({ clock, source: async () => noiseJpeg(16, 16) });
    await camera.start();
    camera.failWith(new PiclawError("CAMERA_CAPTURE_FAILED", "sensor unplugged"));
    const err = await rejection(camera.grab());
    expect([err.code, err.message]).toEqual(["CAMERA_CAPTURE_FAILED", "sensor unplugged"]);
    camera.failWith(null);
    clock.advance(1);
    expect((await camera.grab()).seq).toBe(1);
  });
});
