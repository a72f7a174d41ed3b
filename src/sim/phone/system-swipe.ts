import type { PhoneGeometry } from "../../shared/phone-model.js";
import type { Nav } from "./context.js";
import { GESTURE_THRESHOLDS as T } from "./gesture-thresholds.js";
import type { SwipeGesture } from "./gestures.js";
import type { Scene } from "./scene.js";
import type { PhoneState } from "./state.js";
import { contains } from "./svg.js";

/**
 * A swipe: the system gestures first (home / app switcher from the bottom edge, back from the left
 * edge), then an element that takes swipes, then the scroll region under the start point.
 */
export function systemSwipe(
  g: SwipeGesture,
  scene: Scene,
  env: { state: PhoneState; nav: Nav; geometry: PhoneGeometry; ptPerMm: number },
): void {
  const { state: s, nav } = env;
  const upMm = -g.dyMm;
  if (g.edge === "bottom" && g.direction === "up" && upMm >= T.homeSwipeMinMm) {
    if (s.locked) {
      if (s.lockView === "lock") nav.showPasscode();
      return;
    }
    const paused = g.holdMs >= T.switcherHoldMs && g.start.yMm - g.holdAt.yMm >= T.switcherMinUpMm;
    if (paused) {
      s.switcher = true;
      s.switcherScroll = 0;
    } else nav.goHome();
    return;
  }
  if (g.edge === "left" && g.direction === "right" && !s.locked) {
    const far =
      g.dxMm >= T.backSwipeMinFraction * env.geometry.glassMm.width ||
      (g.dxMm >= T.backFlickMinMm && g.releaseVxMmS >= T.flickMinSpeedMmS);
    if (far && nav.back()) return;
  }
  const el = scene.hit(g.start.x, g.start.y, "onSwipe");
  if (el?.onSwipe?.(g)) return;
  const axis = g.direction === "up" || g.direction === "down" ? "y" : "x";
  const region = [...scene.scrolls]
    .reverse()
    .find((r) => r.axis === axis && contains(r.rect, g.start.x, g.start.y));
  if (!region) return;
  const moved = axis === "y" ? -g.dyMm : -g.dxMm;
  const v = axis === "y" ? -g.releaseVyMmS : -g.releaseVxMmS;
  const momentum = Math.abs(v) >= T.flickMinSpeedMmS ? (v * T.scrollMomentumMs) / 1000 : 0;
  region.scrollBy((moved + momentum) * env.ptPerMm);
}
