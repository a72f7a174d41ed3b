import type { FontBook } from "../../shared/fonts.js";
import type { AppId, PhoneState } from "./state.js";
import type { Locale, Strings } from "./strings.js";
import type { Theme } from "./theme.js";
import type { WallTime } from "./time-format.js";

/** Navigation the screens can ask for; implemented by SimPhone so every transition is in one place. */
export interface Nav {
  openApp(id: AppId): void;
  goHome(): void;
  back(): boolean;
  openThread(threadId: string): void;
  passcodeDigit(digit: string): void;
  passcodeDelete(): void;
  passcodeCancel(): void;
  /** Remove an app from recents and drop its UI state. */
  forceQuit(id: AppId): void;
  showPasscode(): void;
}

/** Everything a screen builder needs to draw one frame and wire its handlers. */
export interface Ctx {
  fonts: FontBook;
  s: Strings;
  locale: Locale;
  theme: Theme;
  state: PhoneState;
  nowMs: number;
  wall: WallTime;
  utcOffsetMinutes: number;
  W: number;
  H: number;
  /** Points per glass millimetre (gesture thresholds are in mm). */
  ptPerMm: number;
  nav: Nav;
  /** How many dots the keypad shows (the digits themselves never leave SimPhone). */
  passcodeLength: number;
}

/** Standard iOS metrics in points (6.1" notch model). */
export const METRICS = {
  statusBarH: 47,
  navBarH: 44,
  homeIndicatorH: 34,
  tabBarH: 49,
} as const;
