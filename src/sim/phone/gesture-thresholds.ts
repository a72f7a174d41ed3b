/**
 * Every number the simulated phone uses to judge touches, in one place so a tuning change is one
 * edit and tests can refer to the same values. Distances are millimetres on the glass (the stylus and
 * the camera work in mm), times are milliseconds. Values follow iOS where Apple's behaviour is known
 * (≈10 pt tap slop, 500 ms long press, ≈20 pt edge zones) converted at 460 ppi / 3× (1 pt ≈ 0.166 mm).
 */
export const GESTURE_THRESHOLDS = {
  /** A touch that never strays further than this from its down point is a tap or a press, not a drag (≈10 pt). */
  tapSlopMm: 1.7,
  /** Second tap must go down within this long after the first tap lifted to count as a double tap. */
  doubleTapWindowMs: 300,
  /** …and land within this distance of the first tap (a finger is not a stylus; iOS allows ≈40 pt). */
  doubleTapSlopMm: 6,
  /** Held still (within tap slop) this long, a touch becomes a long press while still down. */
  longPressMs: 500,
  /** Touches starting within this distance of the bottom glass edge are home-indicator gestures (≈24 pt). */
  bottomEdgeMm: 4,
  /** Touches starting within this distance of the left glass edge are back-swipe gestures (≈20 pt). */
  leftEdgeMm: 3.5,
  /** Upward travel from the bottom edge needed before lifting counts as "go home". */
  homeSwipeMinMm: 10,
  /** Upward travel from the bottom edge before a pause can summon the app switcher. */
  switcherMinUpMm: 12,
  /** A pause at least this long (finger still) during an upward edge swipe opens the app switcher. */
  switcherHoldMs: 300,
  /** Movement under this distance still counts as "holding still" when measuring pauses. */
  holdStillMm: 1.5,
  /** Left-edge back swipe: complete when the finger travels this fraction of the glass width… */
  backSwipeMinFraction: 0.35,
  /** …or at least this far if it is released fast (a flick). */
  backFlickMinMm: 8,
  /** Release speed that makes a short swipe a flick (back flick, card flick, scroll momentum). */
  flickMinSpeedMmS: 120,
  /** Release speed is measured over the samples of this final window before lift. */
  releaseWindowMs: 100,
  /** Upward travel a switcher card needs (besides flick speed, or 40% of the card height) to be thrown away. */
  cardFlickMinMm: 10,
  /** After a fast scroll, content keeps gliding for this long at the release speed (a simple momentum model). */
  scrollMomentumMs: 250,
  /** Horizontal swipe on the home screen needs this travel to change page. */
  pageSwipeMinMm: 8,
  /** Vertical travel on a picker wheel per value step, in points (one wheel row). */
  pickerRowPt: 36,
} as const;
