import type { ManualClock } from "../../util/clock.js";
import type { ScreenElement } from "../types.js";
import type { SimPhone } from "./phone.js";

/** A point on the glass in millimetres. */
export interface Mm {
  x: number;
  y: number;
}

/** Element by id from ground truth (throws with the visible ids when missing, to make failures readable). */
export function el(phone: SimPhone, id: string): ScreenElement {
  const els = phone.truth().elements;
  const found = els.find((e) => e.id === id);
  if (!found) throw new Error(`no element "${id}"; visible: ${els.map((e) => e.id).join(", ")}`);
  return found;
}

/** Centre of an element's truth box on the glass, in mm. */
export function centreMm(phone: SimPhone, e: ScreenElement): Mm {
  const { width, height } = phone.geometry.glassMm;
  return { x: ((e.box[0] + e.box[2]) / 2) * width, y: ((e.box[1] + e.box[3]) / 2) * height };
}

/**
 * A simulated fingertip: turns taps, presses and swipes into time-stamped down/move/up events,
 * advancing the ManualClock to each event's time before handing it to the phone.
 */
export class Finger {
  constructor(
    private readonly phone: SimPhone,
    private readonly clock: ManualClock,
  ) {}

  private at(type: "down" | "move" | "up", p: Mm, tMs: number): void {
    this.clock.set(tMs);
    this.phone.touch({ type, xMm: p.x, yMm: p.y, tMs });
  }

  /** Down, hold `holdMs`, up; then let `afterMs` pass (beyond the double-tap window by default). */
  tap(p: Mm, holdMs = 60, afterMs = 350): void {
    const t = this.clock.now();
    this.at("down", p, t);
    this.at("up", p, t + holdMs);
    this.clock.advance(afterMs);
  }

  tapId(id: string): void {
    this.tap(centreMm(this.phone, el(this.phone, id)));
  }

  /** Two taps `gapMs` apart (first up to second down). */
  doubleTap(p: Mm, gapMs = 120): void {
    this.tap(p, 50, gapMs);
    this.tap(p, 50);
  }

  /** Hold still for `holdMs`, optionally observing the phone mid-press, then lift. */
  longPress(p: Mm, holdMs = 700, whileDown?: () => void): void {
    const t = this.clock.now();
    this.at("down", p, t);
    this.clock.set(t + holdMs);
    whileDown?.();
    this.at("up", p, t + holdMs);
    this.clock.advance(350);
  }

  /**
   * Straight stroke from `a` to `b` over `durationMs` in `steps` moves; with `holdMs` the finger
   * pauses at the end before lifting (swipe-up-and-hold).
   */
  swipe(a: Mm, b: Mm, opts: { durationMs?: number; steps?: number; holdMs?: number } = {}): void {
    const { durationMs = 250, steps = 12, holdMs = 0 } = opts;
    const t = this.clock.now();
    this.at("down", a, t);
    for (let i = 1; i <= steps; i++) {
      const f = i / steps;
      this.at("move", { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f }, t + durationMs * f);
    }
    this.at("up", b, t + durationMs + holdMs);
    this.clock.advance(350);
  }

  /** Swipe up from the bottom edge (home gesture); `holdMs` > 0 pauses mid-screen (app switcher). */
  homeSwipe(holdMs = 0): void {
    const { width, height } = this.phone.geometry.glassMm;
    this.swipe(
      { x: width / 2, y: height - 1 },
      { x: width / 2, y: height * 0.6 },
      { durationMs: holdMs ? 400 : 200, holdMs },
    );
  }

  /** Unlock from the lock screen with `code`. */
  unlock(code: string): void {
    this.homeSwipe();
    for (const d of code) this.tapId(`passcode.key.${d}`);
  }
}
