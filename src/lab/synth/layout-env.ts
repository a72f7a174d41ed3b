import type { FontBook } from "../../shared/fonts.js";
import type { Ctx } from "../../sim/phone/context.js";
import type { Scene } from "../../sim/phone/scene.js";
import { initialState } from "../../sim/phone/state.js";
import { STRINGS } from "../../sim/phone/strings.js";
import type { Theme } from "../../sim/phone/theme.js";
import { wallTime } from "../../sim/phone/time-format.js";
import type { Random } from "../../util/random.js";
import { chance, pick, randInt } from "./pick.js";

/** What every section of a random layout draws with (see layout.ts). */
export interface Env {
  rng: Random;
  scene: Scene;
  locale: "en" | "zh";
  t: Theme;
  W: number;
  seq: number;
  /** Safe-area insets in points: status bar above, home indicator below (iOS screens; 47/34 on Face ID phones, 20/0 on Home-button phones). */
  safeTop?: number;
  safeBottom?: number;
}

export const id = (env: Env, what: string): string => `${what}.${env.seq++}`;

export function text(
  env: Env,
  label: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  anchor: "start" | "middle" | "end" = "start",
): void {
  const weight = pick(env.rng, ["regular", "regular", "semibold", "light"] as const);
  env.scene.text(id(env, "text"), label, x, y, { size, fill, anchor, weight });
}

const NOOP_NAV: Ctx["nav"] = {
  openApp: () => {},
  goHome: () => {},
  back: () => false,
  openThread: () => {},
  passcodeDigit: () => {},
  passcodeDelete: () => {},
  passcodeCancel: () => {},
  forceQuit: () => {},
  showPasscode: () => {},
};

/**
 * The context the phone's chrome helpers (status bar, nav bar, notch) draw with: a random battery
 * level, Wi-Fi on or off and time of day. Draws exactly three values from `rng`, in this order.
 */
export function chromeCtx(
  rng: Random,
  fonts: FontBook,
  locale: "en" | "zh",
  t: Theme,
  W: number,
  H: number,
): Ctx {
  const state = initialState(locale, 0);
  state.toggles.darkMode = t.dark;
  state.batteryPercent = randInt(rng, 5, 100);
  state.toggles.wifi = chance(rng, 0.8);
  const now = Date.UTC(2026, 0, 1) + randInt(rng, 0, 1440) * 60_000;
  return {
    fonts,
    s: STRINGS[locale],
    locale,
    theme: t,
    state,
    nowMs: now,
    wall: wallTime(now, 0),
    utcOffsetMinutes: 0,
    W,
    H,
    ptPerMm: 1,
    nav: NOOP_NAV,
    passcodeLength: 4,
  };
}
