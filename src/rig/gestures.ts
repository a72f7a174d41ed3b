import type { BedPoint, MotionStep } from "./motion.js";
import type { RigProfile } from "./profile.js";

/**
 * Gestures as motion programs, in bed millimetres. Every number (contact time, gaps, long-press time,
 * swipe sizes and feeds) comes from the rig profile. Programs always begin by lifting the stylus, so
 * no XY travel ever happens with the tip on the glass, and end lifted with the tip clear of the glass.
 */
export type SwipeSize = "s" | "m" | "l" | "xl" | "xxl";
export type SwipeSpeed = "slow" | "medium" | "fast";

export class GesturePlanner {
  constructor(private readonly profile: RigProfile) {}

  /** Dwell after a stylus-down step (which itself includes the strike) so contact lasts `totalMs`. */
  private holdFor(totalMs: number): number {
    return Math.max(0, totalMs - this.profile.stylus.strikeMs);
  }

  private press(at: BedPoint, contactMs: number): MotionStep[] {
    return [
      { kind: "stylus", down: false },
      { kind: "travel", to: at },
      { kind: "stylus", down: true },
      { kind: "dwell", ms: this.holdFor(contactMs) },
      { kind: "stylus", down: false },
    ];
  }

  private settle(): MotionStep[] {
    const ms = this.profile.gestures.releaseWaitMs;
    return ms > 0 ? [{ kind: "dwell", ms }] : [];
  }

  tap(at: BedPoint): MotionStep[] {
    return [...this.press(at, this.profile.gestures.tapContactMs), ...this.settle()];
  }

  doubleTap(at: BedPoint): MotionStep[] {
    const g = this.profile.gestures;
    // The gap is measured tip-off to tip-on, which is what the phone's double-tap window sees.
    return [
      ...this.press(at, g.tapContactMs),
      { kind: "dwell", ms: g.doubleTapGapMs },
      { kind: "stylus", down: true },
      { kind: "dwell", ms: this.holdFor(g.tapContactMs) },
      { kind: "stylus", down: false },
      ...this.settle(),
    ];
  }

  longPress(at: BedPoint): MotionStep[] {
    return [...this.press(at, this.profile.gestures.longPressMs), ...this.settle()];
  }

  /** Stroke from `from` to `to` with the tip on the glass at `speed`'s feed, lifting at the end. */
  swipe(from: BedPoint, to: BedPoint, speed: SwipeSpeed): MotionStep[] {
    return this.stroke(from, to, this.profile.gestures.swipeFeedsMmPerMin[speed], 0);
  }

  /** Stroke and hold still before lifting: iOS's swipe-up-and-hold for the app switcher. */
  dragAndHold(from: BedPoint, to: BedPoint, speed: SwipeSpeed): MotionStep[] {
    const g = this.profile.gestures;
    return this.stroke(from, to, g.swipeFeedsMmPerMin[speed], g.dragHoldMs);
  }

  /** Length in mm of a swipe of `size`. */
  swipeLengthMm(size: SwipeSize): number {
    return this.profile.gestures.swipeSizesMm[size];
  }

  /** Move the carriage to the park spot with the stylus up. */
  park(): MotionStep[] {
    return [
      { kind: "stylus", down: false },
      { kind: "travel", to: { ...this.profile.park } },
    ];
  }

  private stroke(from: BedPoint, to: BedPoint, feedMmPerMin: number, holdMs: number): MotionStep[] {
    return [
      { kind: "stylus", down: false },
      { kind: "travel", to: from },
      // The down step includes the strike time, so the tip is firmly on the glass when the stroke starts.
      { kind: "stylus", down: true },
      { kind: "feed", to, feedMmPerMin },
      ...(holdMs > 0 ? [{ kind: "dwell", ms: holdMs } as const] : []),
      { kind: "stylus", down: false },
      ...this.settle(),
    ];
  }
}
