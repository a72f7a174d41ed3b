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
 * UIKit's class prefix read with a small or barred second letter (`UiFont`, `UlKeyboard`, `U1View`):
 * UIKit names every class, protocol and constant `UI` + a capitalised word (`UIFont`, `UITextField`,
 * `UIAlertController`; Apple's Objective-C conventions give framework symbols a two- or three-capital
 * prefix), and no English word starts with `U` + a bar + a capitalised word. Developers' demo screens
 * name them in running text (`UIFont for IQToolbar placeholder text`).
 */
const UIKIT_PREFIX = /(?<![\p{L}\p{N}_])U[iIl1](?=\p{Lu}\p{Ll})/gu;

/**
 * `text` with Apple's names in Apple's spelling, except in an all-capitals line (`IOS 17 BETA` is set
 * in capitals on purpose) and in a line of one word (but UIKit's prefix everywhere: it cannot be a word).
 */
export function appleNames(text: string): string {
  const prefixed = text.replace(UIKIT_PREFIX, "UI");
  // A one-word line is left alone: tag chips (`swiftui`, `ios`) are set in small letters on purpose.
  if (!/\p{Ll}/u.test(prefixed) || !/\S\s+\S/u.test(prefixed)) return prefixed;
  return prefixed.replace(APPLE_WORD, (w) => APPLE_NAME.get(barKey(w)) ?? w);
}
