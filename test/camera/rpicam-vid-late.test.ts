import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stampBurst } from "../../src/camera/frame-stamps.js";
import { RpicamVidCamera } from "../../src/camera/rpicam-vid.js";
import { systemClock } from "../../src/util/clock.js";
import { quietLog } from "../fakes/log.js";
import { cameraConfig, exposureOf, type FakeRpicam, fakeRpicam } from "./helpers.js";

/**
 * Freshness when the reader is late: frames that piled up in the pipe while this process's event loop
 * was busy must not pass for frames exposed after a grab made when it got free (a real Pi's daemon is
 * busy at times too; a stale frame after a tap reads as "no change"). The lateness is made
 * deterministically: the loop spins until the program has written frames, not by loading the machine.
 */

describe("stampBurst", () => {
  const facts = { periodMs: 20, nowMs: 1000, successorPending: false, turnRequestMs: null };

  it("stamps a burst as old as one frame per period forces, the last at its read time", () => {
    const read = [{ readMs: 1000 }, { readMs: 1000 }, { readMs: 1000 }];
    expect(stampBurst(read, facts)).toEqual([960, 980, 1000]);
  });

  it("keeps read times that are already older; a successor arriving ages even the last", () => {
    expect(stampBurst([{ readMs: 900 }, { readMs: 1000 }], facts)).toEqual([900, 1000]);
    expect(stampBurst([{ readMs: 1000 }], { ...facts, successorPending: true })).toEqual([980]);
  });

  it("frames read behind a request are stamped before it", () => {
    expect(stampBurst([{ readMs: 995 }, { readMs: 1000 }], { ...facts, turnRequestMs: 990 })).toEqual([
      969, 989,
    ]);
  });
});

describe("RpicamVidCamera with a late reader", () => {
  let fake: FakeRpicam;
  let camera: RpicamVidCamera | null = null;
  beforeEach(async () => {
    fake = await fakeRpicam();
  });
  afterEach(async () => {
    await camera?.stop();
    camera = null;
    fake.cleanup();
  });

  /** Block this event loop until the program has written `n` more frames (they wait in the pipe). */
  function spinUntilWritten(countFile: string, n: number): void {
    const written = () => (existsSync(countFile) ? Number(readFileSync(countFile, "utf8")) : 0);
    const target = written() + n;
    const deadline = Date.now() + 60_000;
    while (written() < target) if (Date.now() > deadline) throw new Error("the fake wrote no frames");
  }

  it.each([1, 2])(
    "a grab made right after the loop was busy returns a frame exposed after it (pipelineFrames %i)",
    async (pipelineFrames) => {
      const countFile = join(fake.dir, "count");
      camera = new RpicamVidCamera(
        cameraConfig({ vidBinary: fake.binary, width: 96, height: 64, framerate: 50, pipelineFrames }),
        {
          clock: systemClock,
          log: quietLog(),
          env: fake.env({ FAKE_INTERVAL_MS: "20", FAKE_STAMP: "1", FAKE_COUNT_FILE: countFile }),
        },
      );
      await camera.start();
      await camera.grab({ timeoutMs: 60_000 });
      for (let round = 0; round < 3; round++) {
        spinUntilWritten(countFile, 5);
        const askedAt = systemClock.now();
        const frame = await camera.grab({ timeoutMs: 60_000 });
        expect(exposureOf(frame.jpeg)).toBeGreaterThanOrEqual(askedAt);
        expect(frame.atMs).toBeGreaterThan(askedAt);
      }
    },
    120_000,
  );
});
