import type { FontBook } from "../../shared/fonts.js";
import type { RgbImage } from "../../shared/image.js";
import { toRgb } from "../../shared/image.js";
import { Finger } from "../../sim/phone/finger.js";
import { SimPhone } from "../../sim/phone/index.js";
import type { ScreenElement } from "../../sim/types.js";
import { ManualClock } from "../../util/clock.js";

/**
 * Simulated phone screens with ground truth, straight from the panel (no camera): the OCR tests and
 * `bench/ocr.ts` read these. Each state is reached by touches only, like a user would.
 */

export const OCR_SCREENS = [
  "lock",
  "home",
  "home-2",
  "settings",
  "messages",
  "thread",
  "weather",
  "clock-world",
  "clock-alarm",
  "clock-timer",
  "clock-stopwatch",
  "notes",
] as const;
export type OcrScreenName = (typeof OCR_SCREENS)[number];

export interface OcrScreen {
  name: OcrScreenName;
  locale: "en" | "zh";
  image: RgbImage;
  /** Every visible element (all kinds). */
  elements: ScreenElement[];
  /** The text elements a reader can be expected to read (see `readableTexts`). */
  texts: ScreenElement[];
}

const PASSCODE = "2580";
/** Saturday 14 March 2026, 09:41 UTC: a fixed date so dates and clocks render the same every run. */
const START_MS = Date.UTC(2026, 2, 14, 9, 41);

/** Share of a text's height that must be inside its scroll viewport for a reader to be expected to read it. */
export const MIN_READABLE_HEIGHT = 0.5;

/**
 * Text elements with a non-empty label and at least `MIN_READABLE_HEIGHT` of their height in view: a row
 * scrolled almost out of view stays in the truth (hittable) as a sliver no reader could read. (This
 * replaced a proxy, a visible box at least 0.008 of the screen tall, which kept and dropped exactly the
 * same labels on every evaluation screen.)
 */
export function readableTexts(elements: readonly ScreenElement[]): ScreenElement[] {
  return elements.filter(
    (e) => e.kind === "text" && e.label.trim() !== "" && (e.visibleHeight ?? 1) >= MIN_READABLE_HEIGHT,
  );
}

function drive(name: OcrScreenName, phone: SimPhone, finger: Finger): void {
  if (name === "lock") return;
  finger.unlock(PASSCODE);
  const open = (app: string, tab?: string): void => {
    finger.tapId(`home.icon.${app}`);
    if (tab) finger.tapId(tab);
  };
  switch (name) {
    case "home":
      return;
    case "home-2": {
      const { width } = phone.geometry.glassMm;
      finger.swipe({ x: width * 0.8, y: 60 }, { x: width * 0.2, y: 60 });
      return;
    }
    case "thread":
      open("messages", "messages.thread.t0");
      return;
    case "clock-world":
    case "clock-alarm":
    case "clock-timer":
    case "clock-stopwatch":
      open("clock", `clock.tab.${name.slice("clock-".length)}`);
      return;
    default:
      open(name);
  }
}

/** A fresh phone in `locale`, driven to screen `name`, rendered at its native resolution. */
export async function renderOcrScreen(
  name: OcrScreenName,
  locale: "en" | "zh",
  fonts: FontBook,
): Promise<OcrScreen> {
  const clock = new ManualClock(START_MS);
  const phone = new SimPhone({ clock, fonts, locale, passcode: PASSCODE });
  drive(name, phone, new Finger(phone, clock));
  const image = toRgb(await phone.renderScreen());
  const { elements } = phone.truth();
  return { name, locale, image, elements, texts: readableTexts(elements) };
}
