/**
 * Apple's product and framework names, spelled as Apple writes them (Apple's trademark list,
 * https://www.apple.com/legal/intellectual-property/trademark/appletmlist.html). The recogniser cannot
 * tell SF Pro's `i` from `I` or `o` from `O` by shape alone (`Hello ios`, `UiKit`, `iphone`).
 */
const APPLE_NAMES = [
  "iOS",
  "iPadOS",
  "macOS",
  "watchOS",
  "tvOS",
  "visionOS",
  "iPhone",
  "iPad",
  "iPod",
  "iCloud",
  "iMessage",
  "iTunes",
  "FaceTime",
  "AirDrop",
  "AirPlay",
  "AirPods",
  "CarPlay",
  "TestFlight",
  "UIKit",
  "SwiftUI",
  "AppKit",
  "HealthKit",
  "HomeKit",
  "CallKit",
  "MapKit",
  "WidgetKit",
];
/**
 * A name's key: small letters, with the bars the recogniser confuses in SF Pro (`i`, `I`, `l`, `1`: a
 * plain stem each, ~0.5 px apart in height on a camera frame) as one, so `Ulkit` finds `UIKit`.
 */
const barKey = (w: string) => w.toLowerCase().replace(/[l1]/gu, "i");
const APPLE_NAME = new Map(APPLE_NAMES.map((n) => [barKey(n), n]));
/**
 * A name's letters in the pattern: its `i`s match any bar in names of five letters or more (three- and
 * four-letter ones would catch words: `los` for `iOS`).
 */
const namePattern = (n: string) => (n.length >= 5 ? n.replace(/i/giu, "[iIl1]") : n);
/**
 * A whole word, not part of an identifier, hashtag, handle, path or domain (`flutter_callkit_example`,
 * `#swiftui`, `@ios`, `ios.dev`), which keep their own spelling.
 */
const APPLE_WORD = new RegExp(
  `(?<![\\p{L}\\p{N}_#@./\\\\-])(${APPLE_NAMES.map(namePattern).join("|")})(?![\\p{L}\\p{N}_@/\\\\-]|\\.[\\p{L}\\p{N}])`,
  "giu",
);

/**
 * `text` with Apple's names in Apple's spelling, except in an all-capitals line (`IOS 17 BETA` is set
 * in capitals on purpose) and in a line of one word.
 */
export function appleNames(text: string): string {
  // A one-word line is left alone: tag chips (`swiftui`, `ios`) are set in small letters on purpose.
  if (!/\p{Ll}/u.test(text) || !/\S\s+\S/u.test(text)) return text;
  return text.replace(APPLE_WORD, (w) => APPLE_NAME.get(barKey(w)) ?? w);
}
