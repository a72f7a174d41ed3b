import { describe, expect, it } from "vitest";
import { IPHONE_61 } from "../../../src/shared/phone-model.js";
import { GESTURE_THRESHOLDS as T } from "../../../src/sim/phone/gesture-thresholds.js";
import { type Gesture, GestureRecognizer } from "../../../src/sim/phone/gestures.js";
import type { TouchEvent } from "../../../src/sim/types.js";

const glass = IPHONE_61.glassMm;
const k = IPHONE_61.screenPt.width / glass.width;

function recognizer(): GestureRecognizer {
  return new GestureRecognizer(glass, (x, y) => ({ x: x * k, y: y * k }));
}

function feed(r: GestureRecognizer, events: [TouchEvent["type"], number, number, number][]): Gesture[] {
  return events.flatMap(([type, xMm, yMm, tMs]) => r.feed({ type, xMm, yMm, tMs }));
}

describe("GestureRecognizer", () => {
  it("counts a quick second tap as a double tap but two slow taps as two single taps", () => {
    const fast = feed(recognizer(), [
      ["down", 30, 60, 0],
      ["up", 30, 60, 60],
      ["down", 30.5, 60.3, 60 + T.doubleTapWindowMs - 50],
      ["up", 30.5, 60.3, 60 + T.doubleTapWindowMs],
    ]);
    expect(fast.map((g) => (g.kind === "tap" ? g.count : g.kind))).toEqual([1, 2]);
    const slow = feed(recognizer(), [
      ["down", 30, 60, 0],
      ["up", 30, 60, 60],
      ["down", 30, 60, 60 + T.doubleTapWindowMs + 100],
      ["up", 30, 60, 60 + T.doubleTapWindowMs + 160],
    ]);
    expect(slow.map((g) => (g.kind === "tap" ? g.count : g.kind))).toEqual([1, 1]);
    const far = feed(recognizer(), [
      ["down", 10, 60, 0],
      ["up", 10, 60, 60],
      ["down", 40, 60, 150],
      ["up", 40, 60, 200],
    ]);
    expect(far.map((g) => (g.kind === "tap" ? g.count : g.kind))).toEqual([1, 1]);
  });

  it("tells a long press from a tap, firing while the finger is still down", () => {
    const r = recognizer();
    expect(feed(r, [["down", 20, 50, 0]])).toEqual([]);
    expect(r.poll(T.longPressMs - 1)).toEqual([]);
    const began = r.poll(T.longPressMs);
    expect(began).toMatchObject([{ kind: "longPress", phase: "began" }]);
    expect(r.poll(T.longPressMs + 100)).toEqual([]); // fires once
    expect(feed(r, [["up", 20, 50, 900]])).toMatchObject([{ kind: "longPress", phase: "ended" }]);
    const tap = feed(recognizer(), [
      ["down", 20, 50, 0],
      ["up", 20, 50, T.longPressMs - 100],
    ]);
    expect(tap).toMatchObject([{ kind: "tap", count: 1 }]);
    // Never polled while held: lifting after the hold still reports the press.
    const late = feed(recognizer(), [
      ["down", 20, 50, 0],
      ["up", 20, 50, T.longPressMs + 200],
    ]);
    expect(late.map((g) => g.kind)).toEqual(["longPress", "longPress"]);
  });

  it("moving beyond tap slop makes a swipe, not a long press", () => {
    const r = recognizer();
    feed(r, [
      ["down", 20, 50, 0],
      ["move", 20, 50 + T.tapSlopMm + 1, 100],
    ]);
    expect(r.poll(2000)).toEqual([]);
    expect(feed(r, [["up", 20, 60, 2100]])).toMatchObject([{ kind: "swipe", direction: "down" }]);
  });

  it("reports swipe direction, length, speed and edge", () => {
    const events: [TouchEvent["type"], number, number, number][] = [["down", 30, 100, 0]];
    for (let i = 1; i <= 10; i++) events.push(["move", 30, 100 - 4 * i, i * 20]);
    events.push(["up", 30, 60, 200]);
    const [g] = feed(recognizer(), events);
    expect(g?.kind).toBe("swipe");
    if (g?.kind !== "swipe") return;
    expect(g.direction).toBe("up");
    expect(g.lengthMm).toBeCloseTo(40, 5);
    expect(g.dyMm).toBeCloseTo(-40, 5);
    expect(g.speedMmS).toBeCloseTo(200, 5);
    expect(g.releaseSpeedMmS).toBeCloseTo(200, 5);
    expect(g.edge).toBeNull();
    expect(g.end.y).toBeCloseTo(60 * k, 5);
    const left = feed(recognizer(), [
      ["down", 1, 70, 0],
      ["move", 15, 71, 100],
      ["up", 30, 72, 200],
    ])[0];
    expect(left).toMatchObject({ kind: "swipe", direction: "right", edge: "left" });
    const bottom = feed(recognizer(), [
      ["down", 30, glass.height - 1, 0],
      ["up", 35, glass.height - 30, 200],
    ])[0];
    expect(bottom).toMatchObject({ kind: "swipe", direction: "up", edge: "bottom" });
  });

  it("measures a pause before lifting (swipe up and hold) and a slow release", () => {
    const [g] = feed(recognizer(), [
      ["down", 30, 130, 0],
      ["move", 30, 110, 100],
      ["move", 30, 90, 200],
      ["up", 30.3, 90, 600],
    ]);
    expect(g?.kind === "swipe" && g.holdMs).toBe(400);
    expect(g?.kind === "swipe" && g.releaseSpeedMmS).toBeLessThan(5);
  });

  it("rejects out-of-order and orphan events", () => {
    const r = recognizer();
    expect(() => r.feed({ type: "move", xMm: 1, yMm: 1, tMs: 0 })).toThrow(/without a preceding/);
    r.feed({ type: "down", xMm: 1, yMm: 1, tMs: 100 });
    expect(() => r.feed({ type: "up", xMm: 1, yMm: 1, tMs: 50 })).toThrow(/time order/);
    expect(() => r.feed({ type: "move", xMm: Number.NaN, yMm: 1, tMs: 150 })).toThrow(/non-finite/);
  });
});
