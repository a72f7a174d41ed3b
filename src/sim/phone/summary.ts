import { timerPhase } from "./apps/clock.js";
import { appSummary } from "./apps/registry.js";
import { APP_TITLE } from "./icons.js";

import { HOME_PAGES } from "./screens/home.js";
import { SHAKE_MS } from "./screens/lock.js";
import { type PhoneScreen, type PhoneState, unreadCount } from "./state.js";
import { STRINGS } from "./strings.js";

export interface SummaryOptions {
  passcodeLength: number;
  utcOffsetMinutes: number;
  locale: "en" | "zh";
}

/** The English one-line description of the screen that truth().state reports. */
export function summarize(s: PhoneState, screen: PhoneScreen, now: number, o: SummaryOptions): string {
  const unread = unreadCount(s);
  let text: string;
  if (screen === "off") text = "screen off";
  else if (screen === "lock")
    text = `locked, lock screen${unread ? `, ${unread} unread message notification(s)` : ""}`;
  else if (screen === "passcode") {
    const shaking = s.shakeStartMs !== null && now - s.shakeStartMs < SHAKE_MS;
    text = `locked, passcode keypad, ${s.entered.length} of ${o.passcodeLength} digits entered${shaking ? ", wrong passcode (shaking)" : ""}${s.failedAttempts ? `, ${s.failedAttempts} failed attempt(s)` : ""}`;
  } else if (screen === "home")
    text = `home screen, page ${s.homePage + 1} of ${HOME_PAGES.length}${unread ? `, Messages badge ${unread}` : ""}`;
  else if (screen === "switcher")
    text = s.recents.length
      ? `app switcher: ${s.recents.map((a) => STRINGS.en[APP_TITLE[a]]).join(", ")}`
      : "app switcher, no recent apps";
  else {
    const app = s.foreground ?? "clock";
    text = `${STRINGS.en[APP_TITLE[app]]}: ${appSummary(s, app, now, o.utcOffsetMinutes, o.locale)}`;
  }
  if (screen !== "off" && !s.locked && s.banner && now < s.banner.untilMs)
    text += `; banner "${s.banner.from}: ${s.banner.text}"`;
  if (screen !== "off" && screen !== "app" && timerPhase(s, now) === "done") text += "; timer done";
  return text;
}
