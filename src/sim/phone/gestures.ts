import { PiclawError } from "../../util/errors.js";
import type { TouchEvent } from "../types.js";
import { GESTURE_THRESHOLDS as T } from "./gesture-thresholds.js";

/** A position on the glass in millimetres and on the screen in points (same place, two units). */
export interface TouchPoint {
  xMm: number;
  yMm: number;
  x: number;
  y: number;
}

/** Which glass edge zone a stroke started in, if any (bottom wins over left/right in the corners). */
export type Edge = "bottom" | "left" | "right" | null;

export type SwipeDirection = "up" | "down" | "left" | "right";

/** A quick touch and lift without moving; `count` is 2 for the second tap of a double tap. */
export interface TapGesture {
  kind: "tap";
  at: TouchPoint;
  count: 1 | 2;
  tMs: number;
}

/**
 * A touch held still: `began` fires while the finger is still down (as soon as the phone notices the
 * hold), `ended` when it lifts, so a screen can show a menu under the finger and still act on lift.
 */
export interface LongPressGesture {
  kind: "longPress";
  phase: "began" | "ended";
  at: TouchPoint;
  tMs: number;
}

/** Any stroke that moved beyond tap slop, judged on lift. */
export interface SwipeGesture {
  kind: "swipe";
  start: TouchPoint;
  end: TouchPoint;
  edge: Edge;
  direction: SwipeDirection;
  dxMm: number;
  dyMm: number;
  lengthMm: number;
  durationMs: number;
  /** Average speed over the whole stroke. */
  speedMmS: number;
  /** Speed over the last `releaseWindowMs` before lift: what decides flicks and momentum. */
  releaseSpeedMmS: number;
  /** Release velocity components (mm/s, y down). */
  releaseVxMmS: number;
  releaseVyMmS: number;
  /** Longest still period after the finger first left tap slop, and where it was. */
  holdMs: number;
  holdAt: TouchPoint;
  tMs: number;
}

export type Gesture = TapGesture | LongPressGesture | SwipeGesture;

interface Sample {
  xMm: number;
  yMm: number;
  tMs: number;
}

interface Stroke {
  down: Sample;
  samples: Sample[];
  edge: Edge;
  maxDistMm: number;
  longPressFired: boolean;
  /** Start of the current still period (reset whenever the finger moves more than holdStillMm). */
  anchor: Sample;
  holdMs: number;
  holdAt: Sample;
}

const dist = (a: Sample, b: Sample): number => Math.hypot(a.xMm - b.xMm, a.yMm - b.yMm);

/**
 * Turns the digitizer's down/move/up stream into gestures, the way a phone's gesture recognizers do.
 * Taps, double taps and swipes are judged on lift; long press is judged on time while the finger is
 * down, so the owner calls `poll(now)` whenever it looks at the phone (there are no timers).
 */
export class GestureRecognizer {
  private stroke: Stroke | null = null;
  private lastTap: Sample | null = null;

  constructor(
    private readonly glassMm: { width: number; height: number },
    private readonly toPt: (xMm: number, yMm: number) => { x: number; y: number },
  ) {}

  /** True while a finger is on the glass. */
  get active(): boolean {
    return this.stroke !== null;
  }

  point(s: Sample): TouchPoint {
    const p = this.toPt(s.xMm, s.yMm);
    return { xMm: s.xMm, yMm: s.yMm, x: p.x, y: p.y };
  }

  /** Feed one digitizer sample; returns the gestures it completes (usually none or one). */
  feed(ev: TouchEvent): Gesture[] {
    if (![ev.xMm, ev.yMm, ev.tMs].every(Number.isFinite))
      throw new PiclawError("SIM_TOUCH_INVALID", "touch event has a non-finite coordinate or time", {
        type: ev.type,
      });
    const s: Sample = { xMm: ev.xMm, yMm: ev.yMm, tMs: ev.tMs };
    if (ev.type === "down") return this.down(s);
    const stroke = this.stroke;
    if (!stroke)
      throw new PiclawError("SIM_TOUCH_SEQUENCE", `touch "${ev.type}" without a preceding "down"`, {
        type: ev.type,
      });
    const last = stroke.samples[stroke.samples.length - 1] ?? stroke.down;
    if (s.tMs < last.tMs)
      throw new PiclawError("SIM_TOUCH_SEQUENCE", "touch events must be in time order", {
        previousMs: last.tMs,
        tMs: s.tMs,
      });
    const out = this.checkLongPress(stroke, s.tMs);
    this.track(stroke, s);
    if (ev.type === "move") return out;
    this.stroke = null;
    return [...out, ...this.classify(stroke, s)];
  }

  /** Time-based recognition while a finger is down (long press). */
  poll(nowMs: number): Gesture[] {
    return this.stroke ? this.checkLongPress(this.stroke, nowMs) : [];
  }

  private down(s: Sample): Gesture[] {
    if (this.stroke)
      throw new PiclawError("SIM_TOUCH_SEQUENCE", 'touch "down" while a touch is already down', {});
    const { width, height } = this.glassMm;
    const edge: Edge =
      s.yMm >= height - T.bottomEdgeMm
        ? "bottom"
        : s.xMm <= T.leftEdgeMm
          ? "left"
          : s.xMm >= width - T.leftEdgeMm
            ? "right"
            : null;
    this.stroke = {
      down: s,
      samples: [s],
      edge,
      maxDistMm: 0,
      longPressFired: false,
      anchor: s,
      holdMs: 0,
      holdAt: s,
    };
    return [];
  }

  private track(stroke: Stroke, s: Sample): void {
    stroke.samples.push(s);
    stroke.maxDistMm = Math.max(stroke.maxDistMm, dist(stroke.down, s));
    if (dist(stroke.anchor, s) > T.holdStillMm) stroke.anchor = s;
    else if (stroke.maxDistMm > T.tapSlopMm && s.tMs - stroke.anchor.tMs > stroke.holdMs) {
      stroke.holdMs = s.tMs - stroke.anchor.tMs;
      stroke.holdAt = stroke.anchor;
    }
  }

  private checkLongPress(stroke: Stroke, nowMs: number): Gesture[] {
    if (stroke.longPressFired || stroke.maxDistMm > T.tapSlopMm) return [];
    if (nowMs - stroke.down.tMs < T.longPressMs) return [];
    stroke.longPressFired = true;
    return [{ kind: "longPress", phase: "began", at: this.point(stroke.down), tMs: nowMs }];
  }

  private classify(stroke: Stroke, up: Sample): Gesture[] {
    if (stroke.longPressFired)
      return [{ kind: "longPress", phase: "ended", at: this.point(stroke.down), tMs: up.tMs }];
    if (stroke.maxDistMm <= T.tapSlopMm) {
      const prev = this.lastTap;
      const count: 1 | 2 =
        prev !== null &&
        stroke.down.tMs - prev.tMs <= T.doubleTapWindowMs &&
        dist(prev, stroke.down) <= T.doubleTapSlopMm
          ? 2
          : 1;
      // A third tap starts a new pair rather than counting as another double tap.
      this.lastTap = count === 1 ? up : null;
      return [{ kind: "tap", at: this.point(stroke.down), count, tMs: up.tMs }];
    }
    this.lastTap = null;
    return [this.swipe(stroke, up)];
  }

  private swipe(stroke: Stroke, up: Sample): SwipeGesture {
    const start = stroke.down;
    const dxMm = up.xMm - start.xMm;
    const dyMm = up.yMm - start.yMm;
    const lengthMm = Math.hypot(dxMm, dyMm);
    const durationMs = Math.max(up.tMs - start.tMs, 1);
    // The velocity window starts at the last sample at or before (lift − window), so a pause before
    // lifting reads as slow even when the digitizer sent no samples during the pause.
    let windowStart = start;
    for (const s of stroke.samples) if (s.tMs <= up.tMs - T.releaseWindowMs) windowStart = s;
    const dt = Math.max(up.tMs - windowStart.tMs, 1);
    const releaseVxMmS = ((up.xMm - windowStart.xMm) / dt) * 1000;
    const releaseVyMmS = ((up.yMm - windowStart.yMm) / dt) * 1000;
    const direction: SwipeDirection =
      Math.abs(dxMm) >= Math.abs(dyMm) ? (dxMm >= 0 ? "right" : "left") : dyMm >= 0 ? "down" : "up";
    return {
      kind: "swipe",
      start: this.point(start),
      end: this.point(up),
      edge: stroke.edge,
      direction,
      dxMm,
      dyMm,
      lengthMm,
      durationMs,
      speedMmS: (lengthMm / durationMs) * 1000,
      releaseSpeedMmS: Math.hypot(releaseVxMmS, releaseVyMmS),
      releaseVxMmS,
      releaseVyMmS,
      holdMs: stroke.holdMs,
      holdAt: this.point(stroke.holdAt),
      tMs: up.tMs,
    };
  }
}
