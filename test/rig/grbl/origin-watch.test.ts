import { describe, expect, it } from "vitest";
import { OriginWatch } from "../../../src/rig/grbl/origin-watch.js";

const at = (x: number, y: number) => ({ x, y, z: 0 });

describe("OriginWatch: re-referencing after an e-stop or alarm", () => {
  it("nothing lost: the next reference declares park as usual", () => {
    const w = new OriginWatch();
    w.referenced({ x: 200, y: 195 }, at(0, 0));
    expect(w.verdict(at(-80, -105))).toEqual({ declare: null });
  });

  it("a loss with the machine position kept at rest: the origin is restored where the carriage is", () => {
    const w = new OriginWatch();
    w.referenced({ x: 200, y: 195 }, at(0, 0));
    w.seenAtRest(at(-80, -105));
    w.lost("an e-stop (test) reset the board");
    expect(w.verdict(at(-80, -105))).toEqual({ declare: { x: 120, y: 90 } });
    // Within GRBL's printed precision it is the same position; the bed point follows the MPos read now.
    expect(w.verdict(at(-80.004, -105))).toEqual({ declare: { x: 119.996, y: 90 } });
  });

  it("an alarm mid-motion: the machine position moved on, so it is refused with every reason", () => {
    const w = new OriginWatch();
    w.referenced({ x: 200, y: 195 }, at(0, 0));
    w.seenAtRest(at(-80, -105));
    w.lost("ALARM:3 (reset while in motion)");
    w.seenAtRest(at(-50, -60)); // a report after the loss vouches for nothing
    const v = w.verdict(at(-50, -60));
    expect(v).toMatchObject({
      reasons: [
        "ALARM:3 (reset while in motion)",
        expect.stringMatching(/not the last known -80\.000,-105\.000/),
      ],
    });
    expect(w.verdict(undefined)).toHaveProperty("reasons");
    w.confirmed();
    expect(w.verdict(at(-50, -60))).toEqual({ declare: null });
  });

  it("a loss before any position was known is refused", () => {
    const w = new OriginWatch();
    w.lost("an e-stop (test) reset the board");
    expect(w.verdict(at(0, 0))).toMatchObject({
      reasons: [expect.any(String), "no machine position was known before"],
    });
  });
});
