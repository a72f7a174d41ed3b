import { describe, expect, it } from "vitest";
import { Logger } from "../../src/log/logger.js";
import { ManualClock } from "../../src/util/clock.js";
import { FrameCache } from "../../src/web/frames.js";

const quiet = Logger.create({ level: "error", format: "json", sink: { write() {} }, now: () => 0 });

/** A look that resolves when the test says so, counting calls. */
function controlledLook() {
  const pending: Array<(v: { jpeg: Buffer; listing: string }) => void> = [];
  let calls = 0;
  return {
    look: () => {
      calls++;
      return new Promise<{ jpeg: Buffer; listing: string }>((resolve) => pending.push(resolve));
    },
    finish(listing: string) {
      pending.shift()?.({ jpeg: Buffer.from("jpeg"), listing });
    },
    get calls() {
      return calls;
    },
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("FrameCache (the dashboard's shared view of the phone)", () => {
  it("refreshes automatically only while watched and at most once per refreshMs; one look at a time", async () => {
    const clock = new ManualClock();
    const look = controlledLook();
    const cache = new FrameCache(look.look, clock, quiet, 5000);
    expect(look.calls).toBe(0); // nobody watching, nothing looked at
    cache.touch();
    cache.touch(); // joins the look in progress
    await settle();
    expect(look.calls).toBe(1);
    expect(cache.current.refreshing).toBe(true);
    clock.advance(800);
    look.finish("a");
    await settle();
    expect(cache.current.frame).toMatchObject({ id: 1, listing: "a", takenAt: clock.now() });
    clock.advance(4999);
    cache.touch();
    await settle();
    expect(look.calls).toBe(1);
    clock.advance(1);
    cache.touch();
    await settle();
    expect(look.calls).toBe(2);
    look.finish("b");
    await settle();
    expect(cache.current.frame?.id).toBe(2);
  });

  it("with refreshMs 0 looks only when asked; a failure keeps the last view and says why", async () => {
    const clock = new ManualClock();
    let fail = false;
    let n = 0;
    const cache = new FrameCache(
      async () => {
        n++;
        if (fail) throw new Error("NOT_CALIBRATED: run piclaw calibrate");
        return { jpeg: Buffer.from("x"), listing: `view ${n}` };
      },
      clock,
      quiet,
      0,
    );
    cache.touch();
    await settle();
    expect(n).toBe(0);
    expect((await cache.refresh()).frame?.listing).toBe("view 1");
    fail = true;
    const failed = await cache.refresh();
    expect(failed.frame?.listing).toBe("view 1");
    expect(failed.error).toContain("NOT_CALIBRATED");
    fail = false;
    expect(await cache.refresh()).toMatchObject({ error: null, frame: { id: 2, listing: "view 3" } });
  });

  it("a look that throws at once still settles, and close() stops further looks", async () => {
    const clock = new ManualClock();
    let n = 0;
    const cache = new FrameCache(
      () => {
        n++;
        throw new Error("boom");
      },
      clock,
      quiet,
      1000,
    );
    expect((await cache.refresh()).error).toBe("boom");
    expect((await cache.refresh()).error).toBe("boom"); // not stuck on the first call
    expect(n).toBe(2);
    await cache.close();
    clock.advance(10_000);
    cache.touch();
    await settle();
    expect(n).toBe(2);
  });
});
