import { luma, type RgbImage } from "../shared/image.js";
import { type Digit, findDialPad } from "../vision/dial-pad.js";
import type { ListingEntry } from "../vision/listing.js";
import type { ScreenPoint } from "./screen-geometry.js";

/**
 * Finding the passcode keypad in a listing: the keypad's fit lives in `vision/dial-pad.ts` (the listing
 * lists a recognised keypad key by key); here it is read back as tap points for the unlock tool.
 */

export type Keypad = Record<Digit, KeypadKey>;

export interface KeypadKey {
  at: ScreenPoint;
  /** True when OCR did not read this key and its place comes from the grid. */
  inferred: boolean;
}

/** The keypad in `entries` (its digits as `text` or `key` rows), or null when there is none. */
export function findKeypad(entries: readonly ListingEntry[]): Keypad | null {
  return findDialPad(entries)?.keys ?? null;
}

/** The lock screen's own hint (iOS: "Swipe up to open"; Chinese UI: "向上轻扫以打开"). */
const LOCK_HINT = /swipe\s*up\s*to\s*(open|unlock)|向上轻扫/i;

/**
 * The lock screen is showing: a text row carries the lock screen's swipe-up hint. After typing the
 * passcode this means the phone fell back to the lock screen (the keypad timed out, or taps went
 * astray), so "the keypad is gone" alone would be a false "unlocked".
 */
export function looksLocked(entries: readonly ListingEntry[]): boolean {
  return entries.some((e) => e.kind === "text" && LOCK_HINT.test(e.label));
}

/**
 * A screen that is off: nearly black everywhere and no text on it (the detector may still report a
 * faint "icon" or two in the glass's reflections).
 */
export function looksDark(screen: RgbImage, entries: readonly ListingEntry[]): boolean {
  if (entries.some((e) => e.kind === "text")) return false;
  const { data } = screen;
  let sum = 0;
  let n = 0;
  // Every 7th pixel is plenty for a mean.
  for (let i = 0; i + 2 < data.length; i += 3 * 7) {
    sum += luma(data, i);
    n++;
  }
  return n > 0 && sum / n < 28;
}
